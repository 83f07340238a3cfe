// periodic_task.cpp: see periodic_task.h.
#include "periodic_task.h"

#include <utility>

namespace dtrace::live {

PeriodicTask::PeriodicTask(std::chrono::milliseconds period, std::function<void()> task)
    : thread_([this, period, task = std::move(task)] { run(period, task); }) {}

PeriodicTask::~PeriodicTask() {
    {
        std::lock_guard guard(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void PeriodicTask::run(std::chrono::milliseconds period, const std::function<void()> &task) {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
        lock.unlock();
        task();
        lock.lock();
    }
}

} // namespace dtrace::live
