// periodic_task.h: a thread that runs a task at a fixed period until it is
// destroyed (fbt's module watcher polls /proc/modules so; $target's ustack()
// table follows its mapping calls so, off the ring's thread:
// target_user_stacks.h).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace dtrace::live {

class PeriodicTask {
  public:
    PeriodicTask(std::chrono::milliseconds period, std::function<void()> task);
    // Returns once the task is not running and will not run again.
    ~PeriodicTask();
    PeriodicTask(const PeriodicTask &) = delete;
    PeriodicTask &operator=(const PeriodicTask &) = delete;

  private:
    void run(std::chrono::milliseconds period, const std::function<void()> &task);

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace dtrace::live
