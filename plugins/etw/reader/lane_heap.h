// lane_heap.h: the k-way merge of CPU lanes by timestamp.
//
// A binary min-heap of lane indices keyed by each lane's next timestamp, ties
// broken by CPU number so that replay is deterministic. After a lane
// delivers a record only its key changes, so the common step is one sift
// down from the top, usually a comparison or two (records come in bursts
// from one CPU).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "reader/cpu_lane.h"

namespace dtrace::etw {

class LaneHeap {
  public:
    explicit LaneHeap(std::vector<CpuLane> &lanes) : lanes_(lanes) {}

    void push(uint32_t lane) {
        heap_.push_back(lane);
        sift_up(heap_.size() - 1);
    }
    bool empty() const { return heap_.empty(); }
    uint32_t top() const { return heap_.front(); }
    // The top lane's key changed.
    void top_changed() { sift_down(0); }
    void pop() {
        heap_.front() = heap_.back();
        heap_.pop_back();
        if (!heap_.empty()) {
            sift_down(0);
        }
    }

  private:
    bool before(uint32_t a, uint32_t b) const {
        const CpuLane &x = lanes_[a];
        const CpuLane &y = lanes_[b];
        if (x.head_timestamp() != y.head_timestamp()) {
            return x.head_timestamp() < y.head_timestamp();
        }
        return x.cpu() < y.cpu();
    }
    void sift_up(size_t i) {
        while (i > 0) {
            size_t parent = (i - 1) / 2;
            if (!before(heap_[i], heap_[parent])) {
                break;
            }
            std::swap(heap_[i], heap_[parent]);
            i = parent;
        }
    }
    void sift_down(size_t i) {
        const size_t n = heap_.size();
        for (;;) {
            size_t best = i;
            size_t left = 2 * i + 1;
            size_t right = left + 1;
            if (left < n && before(heap_[left], heap_[best])) {
                best = left;
            }
            if (right < n && before(heap_[right], heap_[best])) {
                best = right;
            }
            if (best == i) {
                return;
            }
            std::swap(heap_[i], heap_[best]);
            i = best;
        }
    }

    std::vector<CpuLane> &lanes_;
    std::vector<uint32_t> heap_;
};

} // namespace dtrace::etw
