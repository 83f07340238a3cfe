// event_header_image.cpp: writing EVENT_HEADER for any kind of record.
#include "event_header_image.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "reader/trace_clock.h"

namespace dtrace::etw::plugin {

namespace {

template <typename T> void store(uint8_t *out, size_t at, T value) {
    for (size_t i = 0; i < sizeof(T); ++i) {
        out[at + i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
    }
}

} // namespace

void write_event_header_image(const Event &event, uint8_t *out) {
    namespace L = event_header_layout;
    std::memset(out, 0, kEventHeaderImageSize);
    const uint64_t size =
        std::min<uint64_t>(kEventHeaderImageSize + event.payload.size(), std::numeric_limits<uint16_t>::max());
    store(out, L::kSize, static_cast<uint16_t>(size));
    store(out, L::kFlags, event.flags);
    store(out, L::kEventProperty, event.event_property);
    store(out, L::kThreadId, event.tid);
    store(out, L::kProcessId, event.pid);
    store(out, L::kTimeStamp, event.time_ns / kNanosPerFiletimeTick + kFiletimeUnixEpoch);
    event.provider.to_bytes(out + L::kProviderId);
    store(out, L::kId, event.id);
    store(out, L::kVersion, event.version);
    store(out, L::kChannel, event.channel);
    store(out, L::kLevel, event.level);
    store(out, L::kOpcode, event.opcode);
    store(out, L::kTask, event.task);
    store(out, L::kKeyword, event.keyword);
    store(out, L::kKernelTime, event.kernel_time);
    store(out, L::kUserTime, event.user_time);
    event.activity_id.to_bytes(out + L::kActivityId);
}

} // namespace dtrace::etw::plugin
