// spin_lock.h: the probe-context lock.
//
// Firings hold the lock for tens of nanoseconds, so a test-and-test-and-set
// spin lock is cheaper than a mutex (one atomic exchange to take it, a plain
// release store to drop it). A waiter that spins for long (the consumer
// swapping a large buffer) yields its CPU instead of burning it.
#pragma once

#include <atomic>
#include <thread>

namespace dtrace::engine {

class SpinLock {
  public:
    void lock() noexcept {
        for (unsigned spins = 0;; spins++) {
            if (!locked_.exchange(true, std::memory_order_acquire))
                return;
            while (locked_.load(std::memory_order_relaxed)) {
                if (++spins > kSpinsBeforeYield)
                    std::this_thread::yield();
                else
                    relax();
            }
        }
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }

  private:
    static constexpr unsigned kSpinsBeforeYield = 1000;
    static void relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    std::atomic<bool> locked_{false};
};

} // namespace dtrace::engine
