// lane_merge.h: the k-way merge of CPU lanes by timestamp.
//
// A tournament tree of losers: each inner node keeps the lane that lost the
// match played there, and the root's winner is the lane with the smallest
// key. After the winner delivers a record only its key changes, and the new
// winner is found by replaying the matches on its path to the root:
// log2(lanes) comparisons and no swaps (a binary heap needs twice the
// comparisons and moves its entries). The key is the timestamp, then a rank
// that breaks ties: the lane's CPU number, so that replay is deterministic,
// or kExhausted plus the lane for a lane without records, which loses to
// every record.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace dtrace::etw {

class LaneMerge {
  public:
    // lanes lanes, all exhausted until set().
    explicit LaneMerge(size_t lanes)
        : leaves_(std::bit_ceil(lanes == 0 ? size_t{1} : lanes)), timestamps_(leaves_, kNoTimestamp), ranks_(leaves_),
          losers_(leaves_, 0) {
        for (size_t lane = 0; lane < leaves_; ++lane) {
            ranks_[lane] = kExhausted + static_cast<uint32_t>(lane);
        }
    }

    // Lane lane's first record has this timestamp. Call before start().
    void set(uint32_t lane, int64_t timestamp, uint16_t cpu) {
        timestamps_[lane] = timestamp;
        ranks_[lane] = cpu;
    }
    // Plays every match once.
    void start();

    bool empty() const { return ranks_[losers_[0]] >= kExhausted; }
    uint32_t top() const { return losers_[0]; }
    // The top lane moved on to a record with this timestamp (same CPU).
    void top_changed(int64_t timestamp) {
        timestamps_[losers_[0]] = timestamp;
        replay();
    }
    // The top lane moved on to a record with this timestamp and rank.
    void top_changed(int64_t timestamp, uint16_t rank) {
        ranks_[losers_[0]] = rank;
        top_changed(timestamp);
    }
    // The top lane has no more records.
    void pop() {
        const uint32_t lane = losers_[0];
        timestamps_[lane] = kNoTimestamp;
        ranks_[lane] = kExhausted + lane;
        replay();
    }

  private:
    static constexpr uint32_t kExhausted = uint32_t{1} << 16; // above every CPU number
    static constexpr int64_t kNoTimestamp = std::numeric_limits<int64_t>::max();

    bool beats(uint32_t a, uint32_t b) const {
        return timestamps_[a] != timestamps_[b] ? timestamps_[a] < timestamps_[b] : ranks_[a] < ranks_[b];
    }
    void replay() {
        uint32_t winner = losers_[0];
        for (size_t node = (winner + leaves_) / 2; node > 0; node /= 2) {
            const uint32_t other = losers_[node];
            if (beats(other, winner)) {
                losers_[node] = winner;
                winner = other;
            }
        }
        losers_[0] = winner;
    }

    size_t leaves_;                   // the lanes rounded up to a power of two; the extra ones are exhausted
    std::vector<int64_t> timestamps_; // by lane
    std::vector<uint32_t> ranks_;     // by lane
    std::vector<uint32_t> losers_;    // [0]: the winner; [1, leaves_): the loser of each inner node
};

inline void LaneMerge::start() {
    // Winners of the subtrees, bottom up; leaf i is node leaves_ + i.
    std::vector<uint32_t> winners(2 * leaves_);
    for (size_t i = 0; i < leaves_; ++i) {
        winners[leaves_ + i] = static_cast<uint32_t>(i);
    }
    for (size_t node = leaves_ - 1; node > 0; --node) {
        const uint32_t a = winners[2 * node];
        const uint32_t b = winners[2 * node + 1];
        const bool a_wins = beats(a, b);
        winners[node] = a_wins ? a : b;
        losers_[node] = a_wins ? b : a;
    }
    losers_[0] = winners[1 % (2 * leaves_)];
}

} // namespace dtrace::etw
