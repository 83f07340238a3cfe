// replay_backpressure.cpp: the consumer's side of the replay's waits.
#include "engine/replay_backpressure.h"

namespace dtrace::engine {

void ReplayBackpressure::buffers_taken() {
    taken_++;
    {
        std::lock_guard guard(lock_);
        taken_seen_ = taken_;
    }
    wanted_.store(false, std::memory_order_release);
    changed_.notify_all();
}

void ReplayBackpressure::buffers_consumed() {
    {
        std::lock_guard guard(lock_);
        consumed_ = taken_seen_;
    }
    changed_.notify_all();
}

void ReplayBackpressure::release() {
    {
        std::lock_guard guard(lock_);
        released_ = true;
    }
    changed_.notify_all();
}

} // namespace dtrace::engine
