// region_order.h: the events of one region between sequence points, in timestamp order.
//
// The writer keeps each thread's events in time order, so a region is a few
// sorted runs in file order (a block per thread and flush), not random
// order: the runs are merged with the etw reader's tournament tree
// (reader/lane_merge.h: log2(runs) comparisons an event), ties going to
// the earlier run, which keeps file order among equal timestamps. A region
// already in order costs one comparison an event; one of more runs than
// the tree ranks (a hostile file) is sorted instead.
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
    struct Run {
        uint32_t next;
        uint32_t end;
    };
    struct Key {
        int64_t timestamp;
        uint32_t index;
        bool operator<(const Key &o) const {
            return timestamp != o.timestamp ? timestamp < o.timestamp : index < o.index;
        }
    };

    bool next_merged(uint32_t &index) {
        if (merge_.empty()) {
            return false;
        }
        const uint32_t lane = merge_.top();
        Run &run = runs_[lane];
        index = run.next++;
        if (run.next < run.end) {
            merge_.top_changed(times_[run.next]);
        } else {
            merge_.pop();
        }
        return true;
    }

    std::vector<int64_t> times_; // by file index
    std::vector<Run> runs_;
    std::vector<Key> sorted_;
    LaneMerge merge_{0};
    Mode mode_ = Mode::InOrder;
    size_t at_ = 0;
};

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
        merge_ = LaneMerge(runs_.size());
        for (uint32_t r = 0; r < runs_.size(); ++r) {
            merge_.set(r, times_[runs_[r].next], static_cast<uint16_t>(r));
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
