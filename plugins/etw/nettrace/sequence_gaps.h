// sequence_gaps.h: events the runtime dropped, from each thread's sequence numbers.
//
// Each capture thread numbers its events 1, 2, 3 ... as they are logged,
// whether they reach the stream or are dropped (buffers full); a gap in a
// thread's numbers is that many events lost (NetTraceFormat.md, "Event
// Sequence Numbers"). A number that falls back to 1 is a new thread that
// reuses the id, not a loss; a thread's first number is not checked (a
// thread may predate what the reader has seen of it). The etw plugin reports
// the total as drops at the end of the replay, as it does ETW's EventsLost.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace dtrace::etw::nettrace {

class SequenceGaps {
  public:
    // The next event of capture thread `thread` has number `sequence`.
    // Inline: once per event; runs of one thread skip the lookup.
    void note(uint64_t thread, uint32_t sequence) {
        if (last_ == nullptr || thread != last_thread_) {
            auto [it, added] = numbers_.try_emplace(thread, sequence);
            last_thread_ = thread;
            last_ = &it->second;
            if (added) {
                return;
            }
        }
        const uint32_t expected = *last_ + 1;
        if (sequence != expected && sequence != 1 && sequence - expected < kMaxGap) {
            lost_ += sequence - expected;
        }
        *last_ = sequence;
    }
    uint64_t lost() const { return lost_; }

  private:
    // A jump this large is damage, not loss (and never counted as events).
    static constexpr uint32_t kMaxGap = 1u << 30;

    std::unordered_map<uint64_t, uint32_t> numbers_; // by capture thread (node-based: last_ stays valid)
    uint64_t last_thread_ = 0;
    uint32_t *last_ = nullptr;
    uint64_t lost_ = 0;
};

} // namespace dtrace::etw::nettrace
