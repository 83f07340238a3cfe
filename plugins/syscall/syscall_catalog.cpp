// syscall_catalog.cpp: listing system calls and reading their formats.
#include "syscall_catalog.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "arg_types.h"
#include "tracefs.h"
#include "tracepoint_format.h"

namespace dtrace::syscall {

namespace {

constexpr std::string_view kLengthNames[] = {"count", "len", "size", "nbytes", "length"};

bool is_length_name(const std::string &name) {
    return std::find(std::begin(kLengthNames), std::end(kLengthNames), name) != std::end(kLengthNames);
}

// Which arguments' memory is copied at the event (see the header).
void choose_captures(const std::vector<const live::TracepointField *> &fields, SyscallShape &shape) {
    size_t n = 0;
    for (size_t i = 0; i < fields.size() && i < LIVE_MAX_ARGS && n < LIVE_MAX_CAPTURES; ++i) {
        const std::string &type = fields[i]->type;
        const bool followed_by_length = i + 1 < fields.size() && is_length_name(fields[i + 1]->name);
        live_capture_spec &c = shape.captures[n];
        if ((type == "const char *" || type == "const void *") && followed_by_length) {
            c = live_capture_spec{static_cast<__u8>(i), LIVE_CAPTURE_BYTES, static_cast<__u8>(i + 1), 0};
            ++n;
        } else if (type == "const char *") {
            c = live_capture_spec{static_cast<__u8>(i), LIVE_CAPTURE_STRING, 0, 0};
            ++n;
        }
    }
}

} // namespace

live::Result<const std::vector<std::string> *> SyscallCatalog::names() {
    if (listed_)
        return &names_;
    live::Result<std::vector<std::string>> events = live::tracefs_events(kSyscallGroup);
    if (!events)
        return live::Error{events.error()};
    std::set<std::string> entries, exits;
    for (const std::string &e : events.value()) {
        if (e.starts_with(kEntryPrefix))
            entries.insert(e.substr(std::string_view(kEntryPrefix).size()));
        else if (e.starts_with(kExitPrefix))
            exits.insert(e.substr(std::string_view(kExitPrefix).size()));
    }
    std::set_intersection(entries.begin(), entries.end(), exits.begin(), exits.end(), std::back_inserter(names_));
    listed_ = true;
    return &names_;
}

live::Result<const SyscallShape *> SyscallCatalog::shape(const std::string &name) {
    auto it = shapes_.find(name);
    if (it != shapes_.end())
        return &it->second;
    SyscallShape shape;
    for (bool entry : {true, false}) {
        const std::string event = (entry ? kEntryPrefix : kExitPrefix) + name;
        live::Result<std::string> text = live::tracefs_format(kSyscallGroup, event);
        if (!text)
            return live::Error{text.error()};
        live::Result<live::TracepointFormat> format = live::parse_tracepoint_format(text.value());
        if (!format)
            return live::Error{"tracepoint " + std::string(kSyscallGroup) + ":" + event + ": " + format.error()};
        std::vector<const live::TracepointField *> fields = format.value().event_fields();
        // Both formats start with the call's number, which is no argument.
        if (!fields.empty() && fields.front()->name == "__syscall_nr")
            fields.erase(fields.begin());
        if (entry) {
            for (size_t i = 0; i < fields.size() && i < LIVE_MAX_ARGS; ++i)
                shape.entry_types.push_back(d_type_of(*fields[i]));
            choose_captures(fields, shape);
        } else {
            const std::string type = fields.empty() ? "long" : d_type_of(*fields.front());
            shape.return_types = {type, type};
        }
    }
    return &shapes_.emplace(name, std::move(shape)).first->second;
}

} // namespace dtrace::syscall
