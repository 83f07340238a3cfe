// process_info.cpp: /proc/PID/status, read once per process.
#include "process_info.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace dtrace::pmc {

namespace {

int64_t first_number(std::string_view text) {
    size_t start = text.find_first_of("0123456789");
    int64_t value = -1;
    if (start != std::string_view::npos)
        std::from_chars(text.data() + start, text.data() + text.size(), value);
    return value;
}

} // namespace

ProcessInfo parse_status(std::string_view text) {
    ProcessInfo info;
    while (!text.empty()) {
        size_t eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        size_t colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;
        std::string_view key = line.substr(0, colon), value = line.substr(colon + 1);
        if (key == "Name") {
            size_t start = value.find_first_not_of(" \t");
            info.execname = start == std::string_view::npos ? "" : std::string(value.substr(start));
        } else if (key == "PPid") {
            info.ppid = first_number(value);
        } else if (key == "Uid") {
            info.uid = first_number(value);
        } else if (key == "Gid") {
            info.gid = first_number(value);
        }
    }
    return info;
}

std::optional<ProcessInfo> ProcessInfoTable::status_of(int64_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    if (!in)
        return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    return parse_status(text.str());
}

ProcessInfo &ProcessInfoTable::load(int64_t pid) {
    {
        std::lock_guard guard(lock_);
        auto it = known_.find(pid);
        if (it != known_.end())
            return it->second;
    }
    ProcessInfo info = status_of(pid).value_or(ProcessInfo{});
    std::lock_guard guard(lock_);
    return known_.emplace(pid, std::move(info)).first->second;
}

void ProcessInfoTable::inherit(int64_t pid, int64_t parent) {
    ProcessInfo child = load(parent);
    child.ppid = parent;
    std::lock_guard guard(lock_);
    known_.insert_or_assign(pid, std::move(child)); // a pid used again is a new process
}

void ProcessInfoTable::remember(int64_t pid) {
    load(pid);
}

void ProcessInfoTable::remember_running() {
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/proc", error)) {
        const std::string name = entry.path().filename().string();
        int64_t pid = 0;
        auto [end, parsed] = std::from_chars(name.data(), name.data() + name.size(), pid);
        if (parsed == std::errc() && end == name.data() + name.size())
            remember(pid);
    }
}

const ProcessInfo &ProcessInfoTable::of(int64_t pid, uint32_t cpu) {
    if (pid == 0) {
        idle_ = {"swapper/" + std::to_string(cpu), 0, 0, 0};
        return idle_;
    }
    return load(pid);
}

void ProcessInfoTable::rename(int64_t pid, std::string_view name) {
    // An exec may change the ids (set-user-ID) a fork record gave: /proc's when still there.
    std::optional<ProcessInfo> now = status_of(pid);
    std::lock_guard guard(lock_);
    ProcessInfo &info = now ? known_.insert_or_assign(pid, std::move(*now)).first->second : known_[pid];
    info.execname = name;
}

} // namespace dtrace::pmc
