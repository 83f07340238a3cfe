// region_order.h: the events of one region between sequence points, in timestamp order.
//
// The writer keeps each thread's events in time order, so a region is a few
// sorted runs in file order (a block per thread and flush), not random
// order: the runs are merged with the etw reader's tournament tree
// (reader/lane_merge.h: log2(lanes) comparisons an event), ties going to
// the earlier run, which keeps file order among equal timestamps. A run
// that starts where an earlier one ended (a thread's next block) follows it
// in the same lane of the tree, so the tree has about a lane a thread, not
// a lane a block. A region already in order costs one comparison an event;
// one of more runs than the tree ranks (a hostile file) is sorted instead.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "reader/lane_merge.h"

namespace dtrace::etw::nettrace {

class RegionOrder {
  public:
    void clear() {
        times_.clear();
        runs_.clear();
        mode_ = Mode::InOrder;
        at_ = 0;
    }
    // The next event in file order has this timestamp.
    void add(int64_t timestamp) { times_.push_back(timestamp); }
    size_t size() const { return times_.size(); }

    // Plans the delivery; call after the last add().
    void start();
    // The file index of the next event in time order; false when done.
    bool next(uint32_t &index) {
        switch (mode_) {
        case Mode::InOrder:
            if (at_ >= times_.size()) {
                return false;
            }
            index = static_cast<uint32_t>(at_++);
            return true;
        case Mode::Merge:
            return next_merged(index);
        case Mode::Sorted:
            if (at_ >= sorted_.size()) {
                return false;
            }
            index = sorted_[at_++].index;
            return true;
        }
        return false;
    }

  private:
    enum class Mode { InOrder, Merge, Sorted };
    static constexpr size_t kMaxRuns = 1u << 15; // LaneMerge ranks runs by a u16
    // Lanes a run may follow in: a hostile file's many runs cost a bounded
    // scan each (past this many lanes, a run starts a lane of its own).
    static constexpr size_t kMaxLanesScanned = 64;
    static constexpr uint32_t kNoRun = UINT32_MAX;
    // Events [begin, end) in file order, sorted; the rank of the tie breaks
    // is the run's number. following: the run after it in its lane.
    struct Run {
        uint32_t begin;
        uint32_t end;
        uint32_t following = kNoRun;
    };
    // A lane's position: its current run's next event and end, the run after.
    struct Lane {
        uint32_t next;
        uint32_t end;
        uint32_t following;
    };
    struct Key {
        int64_t timestamp;
        uint32_t index;
        bool operator<(const Key &o) const {
            return timestamp != o.timestamp ? timestamp < o.timestamp : index < o.index;
        }
    };

    // Puts each run in a lane, after the run that ends latest no later than
    // it starts (its keys go on rising), else in a lane of its own; returns
    // the first run of each lane.
    std::vector<uint32_t> chain_runs();

    bool next_merged(uint32_t &index) {
        if (merge_.empty()) {
            return false;
        }
        const uint32_t l = merge_.top();
        Lane &lane = lanes_[l];
        index = lane.next++;
        if (lane.next < lane.end) {
            merge_.top_changed(times_[lane.next]);
        } else if (lane.following != kNoRun) {
            const uint32_t r = lane.following;
            lane = Lane{runs_[r].begin, runs_[r].end, runs_[r].following};
            merge_.top_changed(times_[lane.next], static_cast<uint16_t>(r));
        } else {
            merge_.pop();
        }
        return true;
    }

    std::vector<int64_t> times_; // by file index
    std::vector<Run> runs_;
    std::vector<Lane> lanes_;
    std::vector<Key> sorted_;
    LaneMerge merge_{0};
    Mode mode_ = Mode::InOrder;
    size_t at_ = 0;
};

inline std::vector<uint32_t> RegionOrder::chain_runs() {
    std::vector<uint32_t> first;
    std::vector<uint32_t> last; // by lane
    for (uint32_t r = 0; r < runs_.size(); ++r) {
        const int64_t start = times_[runs_[r].begin];
        size_t best = last.size();
        if (last.size() <= kMaxLanesScanned) {
            for (size_t l = 0; l < last.size(); ++l) {
                const int64_t end = times_[runs_[last[l]].end - 1];
                if (end <= start && (best == last.size() || end > times_[runs_[last[best]].end - 1])) {
                    best = l;
                }
            }
        }
        if (best == last.size()) {
            first.push_back(r);
            last.push_back(r);
        } else {
            runs_[last[best]].following = r;
            last[best] = r;
        }
    }
    return first;
}

inline void RegionOrder::start() {
    at_ = 0;
    runs_.clear();
    uint32_t begin = 0;
    for (uint32_t i = 1; i <= times_.size(); ++i) {
        if (i == times_.size() || times_[i] < times_[i - 1]) {
            runs_.push_back(Run{begin, i});
            begin = i;
        }
    }
    if (runs_.size() <= 1) {
        mode_ = Mode::InOrder;
    } else if (runs_.size() <= kMaxRuns) {
        mode_ = Mode::Merge;
        const std::vector<uint32_t> first = chain_runs();
        merge_ = LaneMerge(first.size());
        lanes_.clear();
        for (uint32_t l = 0; l < first.size(); ++l) {
            const Run &run = runs_[first[l]];
            lanes_.push_back(Lane{run.begin, run.end, run.following});
            merge_.set(l, times_[run.begin], static_cast<uint16_t>(first[l]));
        }
        merge_.start();
    } else {
        mode_ = Mode::Sorted;
        sorted_.resize(times_.size());
        for (uint32_t i = 0; i < times_.size(); ++i) {
            sorted_[i] = Key{times_[i], i};
        }
        std::sort(sorted_.begin(), sorted_.end());
    }
}

} // namespace dtrace::etw::nettrace
