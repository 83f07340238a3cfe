// live_options.h: the options that shape the live event path.
//
//   -x livebufsize=SIZE   the BPF ring buffer's size (default 4m; rounded
//                         up to a power of two of at least a page). A
//                         smaller ring loses events under load, reported
//                         as drops.
//   -x livenofilter       no in-kernel pre-filter: every event of an enabled
//                         probe crosses into dtrace, and only the clauses'
//                         predicates choose (the same output, more work).
//   -x strsize=SIZE       DTrace's: also how much of an argument's memory
//                         (a path, a write's buffer) is copied at the event,
//                         up to LIVE_CAPTURE_MAX.
#pragma once

#include <cstdint>
#include <string_view>

#include <dtrace/provider.h>

#include "result.h"

namespace dtrace::live {

inline constexpr uint64_t kDefaultRingBytes = 4ull << 20;
inline constexpr uint32_t kDefaultStrsize = 256;
// The consumer is woken once the ring is this fraction full (1/4);
// otherwise it polls.
inline constexpr uint32_t kWakeupFraction = 4;
inline constexpr uint32_t kPollMilliseconds = 10;

struct LiveOptions {
    uint64_t ring_bytes = kDefaultRingBytes;
    bool kernel_filter = true;
};

Result<LiveOptions> read_live_options(dtrace_host *host, const dtrace_host_ops *ops);

// Bytes of argument memory copied per capture.
uint32_t capture_limit(dtrace_host *host, const dtrace_host_ops *ops);

// "4m", "512k", "1g", "4096": bytes; nothing for anything else.
Result<uint64_t> parse_size(std::string_view text);

} // namespace dtrace::live
