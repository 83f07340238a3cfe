// buffer_policy.h: DTrace's principal buffer policies (-x bufpolicy).
//
//   switch  the default: the consumer swaps the buffer at each switchrate;
//           a record that does not fit is dropped and counted.
//   fill    records accumulate until the buffer is full; then nothing more
//           is recorded (no drop is counted) and the session ends, as after
//           exit(). Room for the END clauses' records is kept back until
//           END fires.
//   ring    the newest records that fit are kept, older ones overwritten;
//           the consumer reads the buffer once, when tracing stops.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtrace::engine {

enum class BufferPolicy : uint8_t { Switch, Fill, Ring };

// "switch", "fill" or "ring"; nullopt for anything else.
std::optional<BufferPolicy> parse_buffer_policy(std::string_view text);

} // namespace dtrace::engine
