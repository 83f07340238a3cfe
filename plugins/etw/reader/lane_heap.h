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

namespace dtrace::etw {

class LaneHeap {
  public:
    void push(uint32_t lane, int64_t timestamp, uint16_t cpu) {
        heap_.push_back(Entry{timestamp, cpu, lane});
        sift_up(heap_.size() - 1);
    }
    bool empty() const { return heap_.empty(); }
    uint32_t top() const { return heap_.front().lane; }
    // The top lane moved on to a record with this timestamp.
    void top_changed(int64_t timestamp) {
        heap_.front().timestamp = timestamp;
        sift_down(0);
    }
    void pop() {
        heap_.front() = heap_.back();
        heap_.pop_back();
        if (!heap_.empty()) {
            sift_down(0);
        }
    }

  private:
    // The key is kept in the entry so that ordering never touches the lanes.
    struct Entry {
        int64_t timestamp;
        uint16_t cpu;
        uint32_t lane;
        bool operator<(const Entry &other) const {
            return timestamp != other.timestamp ? timestamp < other.timestamp : cpu < other.cpu;
        }
    };

    void sift_up(size_t i) {
        while (i > 0) {
            size_t parent = (i - 1) / 2;
            if (!(heap_[i] < heap_[parent])) {
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
            if (left < n && heap_[left] < heap_[best]) {
                best = left;
            }
            if (right < n && heap_[right] < heap_[best]) {
                best = right;
            }
            if (best == i) {
                return;
            }
            std::swap(heap_[i], heap_[best]);
            i = best;
        }
    }

    std::vector<Entry> heap_;
};

} // namespace dtrace::etw
