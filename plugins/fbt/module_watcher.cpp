// module_watcher.cpp: polling /proc/modules for modules loaded while tracing.
#include "module_watcher.h"

#include <chrono>

#include "tracefs.h"

namespace dtrace::fbt {

std::set<std::string> parse_module_names(std::string_view text) {
    std::set<std::string> names;
    for (size_t pos = 0; pos < text.size();) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        // Only a module that is live has its functions listed ("Loading" and "Unloading" are not).
        const size_t name_end = line.find(' ');
        if (name_end == 0 || name_end == std::string_view::npos || line.find(" Live ") == std::string_view::npos)
            continue;
        names.emplace(line.substr(0, name_end));
    }
    return names;
}

void ModuleWatcher::poll() {
    live::Result<std::string> text = live::read_text_file(path_);
    if (!text)
        return;
    std::set<std::string> now = parse_module_names(text.value());
    if (baseline_) {
        for (const std::string &module : now)
            if (!known_.contains(module))
                on_new_module_(module);
    }
    baseline_ = true;
    known_ = std::move(now); // a module unloaded and loaded again is new again
}

void ModuleWatcher::start() {
    if (poller_)
        return;
    poll(); // the baseline, before tracing starts
    poller_ = std::make_unique<live::PeriodicTask>(std::chrono::milliseconds(kPollMilliseconds), [this] { poll(); });
}

void ModuleWatcher::stop() {
    poller_.reset();
}

} // namespace dtrace::fbt
