// replay_backpressure.h: a replay waits for the consumer instead of outrunning it.
//
// A live probe fires when it fires; a replay could run as fast as the file
// reads, and would then fill buffers faster than the consumer empties them
// and read aggregations before the consumer printed them. So a replaying
// plugin's thread waits, at two points, with the engine's lock released:
//
// - drain: a principal buffer is three quarters full; it waits until the
//   consumer has taken the buffers (or a while, after which what does not
//   fit is dropped, as live);
// - sync: a clause recorded an action the consumer carries out on the
//   aggregations (printa, clear, trunc, normalize, denormalize, setopt); it
//   waits until the consumer has taken and carried out those records, so
//   that they see the aggregations as they were when the clause fired, and
//   a replay prints the same bytes on every run.
//
// The consumer's side: buffers_taken() when it takes the buffers,
// buffers_consumed() once it has acted on them, and release() when it stops
// reading (a waiting replay must not hold up the plugins' stop).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace dtrace::engine {

class ReplayBackpressure {
  public:
    // Whether a replay waits for the consumer to switch buffers.
    bool wanted() const { return wanted_.load(std::memory_order_acquire); }

    // Replay side, with the engine's lock held: what to wait for once it is
    // released (the generation of buffers the consumer must get past).
    uint64_t next_take() const { return taken_ + 1; }
    uint64_t current_take() const { return taken_; }
    // Replay side, with the engine's lock released. wake tells the consumer.
    template <class Wake> void wait_for_drain(uint64_t generation, Wake &&wake);
    template <class Wake> void wait_for_consumer(uint64_t generation, Wake &&wake);

    // Consumer side: with the engine's lock held, as it takes the buffers.
    void buffers_taken();
    // Consumer side: the records taken so far are carried out.
    void buffers_consumed();
    // Consumer side: it reads no more; waiting replays go on.
    void release();

  private:
    bool waiting_over(uint64_t consumed_generation) const { return consumed_ >= consumed_generation || released_; }

    std::atomic<bool> wanted_{false};
    uint64_t taken_ = 0; // under the engine's lock: buffer switches so far
    std::mutex lock_;
    std::condition_variable changed_;
    uint64_t taken_seen_ = 0; // under lock_: taken_, as the waiters read it
    uint64_t consumed_ = 0;   // under lock_: switches whose records the consumer carried out
    bool released_ = false;   // under lock_
};

template <class Wake> void ReplayBackpressure::wait_for_drain(uint64_t generation, Wake &&wake) {
    wanted_.store(true, std::memory_order_release);
    wake();
    std::unique_lock guard(lock_);
    // A consumer that never comes (it stopped) releases us after a while;
    // the records that then do not fit are counted as drops.
    changed_.wait_for(guard, std::chrono::seconds(2), [&] { return taken_seen_ != generation || released_; });
}

template <class Wake> void ReplayBackpressure::wait_for_consumer(uint64_t generation, Wake &&wake) {
    wanted_.store(true, std::memory_order_release);
    wake();
    std::unique_lock guard(lock_);
    changed_.wait(guard, [&] { return waiting_over(generation); });
}

} // namespace dtrace::engine
