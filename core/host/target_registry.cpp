// target_registry.cpp: the session's targets and a created one's added environment.
#include "target_registry.h"

#include <algorithm>

namespace dtrace::host {

void TargetRegistry::add(int64_t pid, uint32_t flags, dtrace_target_state state) {
    std::lock_guard lock(mutex_);
    dtrace_target_info info{};
    info.struct_size = sizeof info;
    info.pid = pid;
    info.flags = flags;
    info.state = state;
    targets_.push_back(info);
}

void TargetRegistry::set_state(int64_t pid, dtrace_target_state state) {
    std::lock_guard lock(mutex_);
    for (dtrace_target_info &t : targets_)
        if (t.pid == pid)
            t.state = state;
}

std::optional<dtrace_target_info> TargetRegistry::get(uint32_t index) const {
    std::lock_guard lock(mutex_);
    if (index >= targets_.size())
        return std::nullopt;
    return targets_[index];
}

void TargetRegistry::open_environment(int64_t pid) {
    std::lock_guard lock(mutex_);
    environment_pid_ = pid;
    environment_.clear();
}

TargetRegistry::Environment TargetRegistry::close_environment() {
    std::lock_guard lock(mutex_);
    environment_pid_.reset();
    return std::exchange(environment_, {});
}

bool TargetRegistry::setenv(int64_t pid, const std::string &name, const std::string &value) {
    std::lock_guard lock(mutex_);
    if (environment_pid_ != pid || name.empty() || name.find('=') != std::string::npos)
        return false;
    auto same = [&](const auto &entry) { return entry.first == name; };
    environment_.erase(std::remove_if(environment_.begin(), environment_.end(), same), environment_.end());
    environment_.emplace_back(name, value);
    return true;
}

} // namespace dtrace::host
