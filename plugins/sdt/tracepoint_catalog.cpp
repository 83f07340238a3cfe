// tracepoint_catalog.cpp: available_events and format files, read lazily.
#include "tracepoint_catalog.h"

#include <algorithm>
#include <string_view>
#include <sys/stat.h>

#include "tracefs.h"

namespace dtrace::sdt {

namespace {

// syscalls and raw_syscalls are the syscall provider's; kprobe and uprobe
// events are made by users (perf probe, bpftrace), not the kernel's own.
constexpr std::string_view kExcludedGroups[] = {"syscalls", "raw_syscalls", "kprobes", "uprobes"};

} // namespace

bool sdt_offers_group(const std::string &group) {
    return std::find(std::begin(kExcludedGroups), std::end(kExcludedGroups), group) == std::end(kExcludedGroups);
}

live::Result<const std::vector<Tracepoint> *> TracepointCatalog::all() {
    std::lock_guard guard(lock_);
    if (all_)
        return all_.get();
    live::Result<std::string> root = live::tracefs_root();
    if (!root)
        return live::Error{root.error()};
    live::Result<std::string> text = live::read_text_file(root.value() + "/available_events");
    if (!text)
        return live::Error{text.error()};
    auto list = std::make_unique<std::vector<Tracepoint>>();
    std::string_view rest = text.value();
    while (!rest.empty()) {
        const size_t eol = rest.find('\n');
        std::string_view line = rest.substr(0, eol);
        rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 1);
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0 || colon + 1 == line.size())
            continue;
        Tracepoint t{std::string(line.substr(0, colon)), std::string(line.substr(colon + 1))};
        if (sdt_offers_group(t.group))
            list->push_back(std::move(t));
    }
    std::sort(list->begin(), list->end(), [](const Tracepoint &a, const Tracepoint &b) {
        return std::tie(a.group, a.event) < std::tie(b.group, b.event);
    });
    all_ = std::move(list);
    return all_.get();
}

bool TracepointCatalog::exists(const std::string &group, const std::string &event) {
    live::Result<std::string> root = live::tracefs_root();
    struct stat st {};
    return root && stat((root.value() + "/events/" + group + "/" + event + "/format").c_str(), &st) == 0;
}

live::Result<const live::TracepointFormat *> TracepointCatalog::format(const std::string &group,
                                                                       const std::string &event) {
    std::lock_guard guard(lock_);
    auto key = std::make_pair(group, event);
    if (auto found = formats_.find(key); found != formats_.end())
        return found->second.get();
    live::Result<std::string> text = live::tracefs_format(group, event);
    if (!text)
        return live::Error{text.error()};
    live::Result<live::TracepointFormat> parsed = live::parse_tracepoint_format(text.value());
    if (!parsed)
        return live::Error{"tracepoint " + group + ":" + event + ": " + parsed.error()};
    auto stored = std::make_unique<live::TracepointFormat>(std::move(parsed.value()));
    const live::TracepointFormat *format = stored.get();
    formats_.emplace(std::move(key), std::move(stored));
    return format;
}

} // namespace dtrace::sdt
