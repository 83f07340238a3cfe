// module_watcher.h: kernel modules loaded while tracing, for fbt probes of
// their functions (registered late, from this thread).
//
// A thread reads /proc/modules every kPollMilliseconds and calls back with
// each module that was not there before (the first read is the baseline).
// Polling, not the module:module_load tracepoint: a module's functions are
// listed (kallsyms, available_filter_functions) only once it is live, which
// /proc/modules says. A function that runs only while its module
// initialises is therefore missed; those called afterwards are probed.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "periodic_task.h"

namespace dtrace::fbt {

// The names of the modules /proc/modules lists ("name size refs deps state address").
std::set<std::string> parse_module_names(std::string_view text);

class ModuleWatcher {
  public:
    static constexpr int kPollMilliseconds = 200;
    using Callback = std::function<void(const std::string &module)>;

    // `path` is /proc/modules except in tests.
    explicit ModuleWatcher(Callback on_new_module, std::string path = "/proc/modules")
        : on_new_module_(std::move(on_new_module)), path_(std::move(path)) {}
    ~ModuleWatcher() { stop(); }
    ModuleWatcher(const ModuleWatcher &) = delete;
    ModuleWatcher &operator=(const ModuleWatcher &) = delete;

    void start();
    // Returns once no callback runs or will run.
    void stop();
    // One poll: calls back for the modules new since the last (tests call it directly).
    void poll();

  private:
    Callback on_new_module_;
    std::string path_;
    std::set<std::string> known_;
    bool baseline_ = false;
    std::unique_ptr<live::PeriodicTask> poller_;
};

} // namespace dtrace::fbt
