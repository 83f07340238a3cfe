// target_registry.h: the session's target processes as plugins see them.
//
// The CLI creates and grabs the processes of -c and -p (cli/target_process.h)
// and tells the registry of each and of every change of state; plugins read
// it through the get_target host op (from any thread) and may add to a
// created target's environment with target_setenv while they are told it
// was created. The registry only records: telling the plugins is the
// PluginHost's job (PluginHost::target_changed).
#pragma once

#include <dtrace/provider.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dtrace::host {

class TargetRegistry {
  public:
    using Environment = std::vector<std::pair<std::string, std::string>>;

    // A new target ($target is the first added); flags DTRACE_TARGET_*.
    void add(int64_t pid, uint32_t flags, dtrace_target_state state);
    void set_state(int64_t pid, dtrace_target_state state);
    // Target `index`, or nothing.
    std::optional<dtrace_target_info> get(uint32_t index) const;

    // Opens / closes the window in which target_setenv(pid) is accepted;
    // close returns what was set, in order (a name set twice: its last value).
    void open_environment(int64_t pid);
    Environment close_environment();
    // False when no window is open for `pid` or the name is not one.
    bool setenv(int64_t pid, const std::string &name, const std::string &value);

  private:
    mutable std::mutex mutex_;
    std::vector<dtrace_target_info> targets_;
    std::optional<int64_t> environment_pid_;
    Environment environment_;
};

} // namespace dtrace::host
