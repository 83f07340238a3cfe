// buffer_chain.cpp: walking the buffer chain (see buffer_chain.h).
#include "reader/buffer_chain.h"

#include <algorithm>

namespace dtrace::etw {

namespace {
constexpr uint64_t kHashMultiplier = 0x9E3779B97F4A7C15ULL; // Fibonacci hashing: offsets are often 64 KiB apart
} // namespace

void BufferChain::set_resync_size(uint32_t nominal_size) {
    bool usable = nominal_size >= buffer_layout::kSize && nominal_size <= kMaxBufferSize;
    resync_size_ = usable ? nominal_size : 0;
    cache_.fill(Slot{});
}

ChainLink BufferChain::link_at(uint64_t offset) {
    Slot &slot = cache_[(offset * kHashMultiplier) >> (64 - kCacheBits)];
    if (slot.offset != offset) {
        slot.offset = offset;
        slot.link = read_link(offset);
    }
    return slot.link;
}

ChainLink BufferChain::read_link(uint64_t offset) {
    ChainLink link;
    const uint64_t size = source_.size();
    if (offset >= size) {
        return link; // End
    }
    auto damaged = [&](const char *what, bool may_resync) {
        link.kind = ChainLink::Kind::Damaged;
        link.damage = what;
        if (may_resync && resync_size_ != 0 && resync_size_ <= size - offset) {
            link.next = offset + resync_size_;
        }
        return link;
    };
    uint8_t raw[buffer_layout::kSize];
    if (size - offset < buffer_layout::kSize || !source_.read_at(offset, raw)) {
        return damaged("the file ends inside this buffer's header (truncated file)", false);
    }
    link.header = parse_buffer_header(raw);
    const uint32_t buffer_size = link.header.buffer_size;
    if (buffer_size == 0) {
        return link; // End: the unused tail of a preallocated file
    }
    if (buffer_size < buffer_layout::kSize) {
        return damaged("BufferSize is smaller than a buffer header", true);
    }
    if (buffer_size > kMaxBufferSize) {
        return damaged("BufferSize is larger than the 16 MiB ETW allows", true);
    }
    if (buffer_size > size - offset) {
        return damaged("BufferSize runs past the end of the file (truncated file)", false);
    }
    link.kind = ChainLink::Kind::Buffer;
    link.next = offset + buffer_size;
    return link;
}

std::vector<LanePlan> scan_chain(BufferChain &chain, ProblemLog &log) {
    std::vector<LanePlan> plans;
    constexpr size_t kCpuSlots = size_t{kProcessorIndexMask} + 1;
    std::array<uint32_t, kCpuSlots> plan_of{}; // 1 + index into plans; 0: none yet
    // Every step moves forward by at least a buffer header, so this ends.
    for (uint64_t at = 0; at != kNoOffset;) {
        ChainLink link = chain.link_at(at);
        if (link.kind == ChainLink::Kind::End) {
            break;
        }
        if (link.kind == ChainLink::Kind::Damaged) {
            std::string what = link.damage;
            if (link.next == kNoOffset) {
                what += "; reading stops here";
            } else {
                what += "; resuming at offset " + hex_offset(link.next);
            }
            log.buffer_skipped(at, what);
        } else {
            const BufferHeader &h = link.header;
            uint32_t &index = plan_of[h.cpu];
            if (index == 0) {
                plans.push_back(LanePlan{});
                plans.back().cpu = h.cpu;
                index = static_cast<uint32_t>(plans.size());
            }
            LanePlan &plan = plans[index - 1];
            if (at == 0) {
                plan.header = at;
            } else {
                if (plan.first == kNoOffset) {
                    plan.first = at;
                }
                plan.last = at;
                if (plan.start == kNoOffset || h.sequence < plan.start_sequence) {
                    plan.start = at;
                    plan.start_sequence = h.sequence;
                }
            }
        }
        at = link.next;
    }
    std::sort(plans.begin(), plans.end(), [](const LanePlan &a, const LanePlan &b) { return a.cpu < b.cpu; });
    return plans;
}

} // namespace dtrace::etw
