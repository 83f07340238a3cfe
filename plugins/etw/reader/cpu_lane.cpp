// cpu_lane.cpp: one CPU's records in order (see cpu_lane.h).
#include "reader/cpu_lane.h"

namespace dtrace::etw {

bool CpuLane::advance_slowly(LaneContext &ctx) {
    for (;;) {
        if (has_buffer_) {
            RecordFault fault = RecordFault::None;
            switch (records_.next(head_, head_.timestamp, ctx.stats.skipped_records, fault)) {
            case RecordCursor::Step::Record:
                return true;
            case RecordCursor::Step::Fault:
                ctx.log.record_damaged(buffer_offset_, compressed_, records_.position(), fault);
                break;
            case RecordCursor::Step::End:
                break;
            }
            has_buffer_ = false;
        }
        if (!load_next_buffer(ctx)) {
            data_.release();
            return false;
        }
    }
}

bool CpuLane::load_next_buffer(LaneContext &ctx) {
    if (!header_visited_) {
        header_visited_ = true;
        if (plan_.header != kNoOffset && load_if_mine(ctx, plan_.header, ctx.chain.link_at(plan_.header))) {
            return true;
        }
    }
    for (;;) {
        if (cursor_ == kNoOffset || (!wrapped_ && cursor_ > plan_.last)) {
            if (wrapped_ || plan_.start == plan_.first) {
                return false;
            }
            wrapped_ = true;
            cursor_ = plan_.first;
        }
        if (wrapped_ && cursor_ == plan_.start) {
            return false;
        }
        const uint64_t here = cursor_;
        ChainLink link = ctx.chain.link_at(here);
        cursor_ = link.next;
        if (load_if_mine(ctx, here, link)) {
            return true;
        }
    }
}

bool CpuLane::load_if_mine(LaneContext &ctx, uint64_t offset, const ChainLink &link) {
    if (link.kind != ChainLink::Kind::Buffer || link.header.cpu != plan_.cpu) {
        return false;
    }
    const BufferHeader &h = link.header;
    ++ctx.stats.buffers;
    ctx.stats.compressed_buffers += h.compressed() ? 1 : 0;
    ctx.stats.events_lost_buffers += (h.flags & buffer_flag::kEventsLost) ? 1 : 0;
    ctx.stats.lost_buffers += (h.flags & buffer_flag::kBufferLost) ? 1 : 0;
    std::string problem = ctx.loader.load(offset, h, data_);
    if (!problem.empty()) {
        ctx.log.buffer_skipped(offset, problem);
        return false;
    }
    buffer_offset_ = offset;
    compressed_ = h.compressed();
    records_.reset(data_.first(h.offset));
    has_buffer_ = true;
    return true;
}

void CpuLane::drop_damaged_buffer(LaneContext &ctx, RecordFault fault) {
    ctx.log.record_damaged(buffer_offset_, compressed_, head_.at, fault);
    has_buffer_ = false;
}

} // namespace dtrace::etw
