// cpu_lane.h: the time-ordered stream of one CPU's records.
//
// ETW writes each CPU's events into that CPU's own buffers, in time order
// within a CPU; buffers of different CPUs overlap in time and are interleaved
// in the file in flush order. A lane visits its CPU's buffers as planned by
// scan_chain() (the header buffer, then the data buffers in chain order from
// the lowest sequence number, wrapping round when a circular log wrapped),
// and holds exactly one loaded buffer at a time. The reader merges the lanes
// by timestamp.
#pragma once

#include <cstdint>

#include "reader/buffer_chain.h"
#include "reader/buffer_loader.h"
#include "reader/byte_buffer.h"
#include "reader/event.h"
#include "reader/problem_log.h"
#include "reader/record_cursor.h"
#include "reader/trace_clock.h"

namespace dtrace::etw {

// What all lanes share.
struct LaneContext {
    BufferChain &chain;
    BufferLoader &loader;
    ProblemLog &log;
    ReaderStats &stats;
    const TraceClock &clock;
    uint8_t default_pointer_size;
};

class CpuLane {
  public:
    CpuLane(const LanePlan &plan, MemoryBudget &budget) : plan_(plan), cursor_(plan.start), data_(budget) {}

    // Moves to the lane's next record; false when the lane is exhausted (its
    // memory is then given back). Inline for the common step, a well-formed
    // record in the current buffer.
    bool advance(LaneContext &ctx) { return (has_buffer_ && records_.next_typed(head_)) || advance_slowly(ctx); }
    int64_t head_timestamp() const { return head_.timestamp; }
    uint16_t cpu() const { return plan_.cpu; }

    // Fills out from the current record. On a damaged record, reports it, ends
    // the current buffer and returns false; advance() goes on from there.
    bool take(LaneContext &ctx, Event &out) {
        RecordFault fault = records_.parse(head_, ctx.default_pointer_size, out);
        if (fault != RecordFault::None) {
            drop_damaged_buffer(ctx, fault);
            return false;
        }
        out.cpu = plan_.cpu;
        out.buffer_offset = buffer_offset_;
        out.time_ns = ctx.clock.to_unix_ns(out.timestamp);
        return true;
    }

  private:
    // advance() for every case: the end of a buffer, damage, other record kinds.
    bool advance_slowly(LaneContext &ctx);
    void drop_damaged_buffer(LaneContext &ctx, RecordFault fault);
    bool load_next_buffer(LaneContext &ctx);
    // Loads the buffer if the link is a usable buffer of this CPU.
    bool load_if_mine(LaneContext &ctx, uint64_t offset, const ChainLink &link);

    LanePlan plan_;
    bool header_visited_ = false;
    uint64_t cursor_;      // the next data buffer chain link to look at
    bool wrapped_ = false; // visiting the buffers before plan_.start
    bool has_buffer_ = false;
    uint64_t buffer_offset_ = 0;
    bool compressed_ = false;
    ByteBuffer data_;
    RecordCursor records_;
    RecordHead head_;
};

} // namespace dtrace::etw
