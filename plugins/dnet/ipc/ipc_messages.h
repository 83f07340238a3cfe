// ipc_messages.h: the messages of the .NET runtime's diagnostics IPC protocol
// that a tracing client sends and reads.
//
// One command per connection: a 20-byte header (the magic "DOTNET_IPC_V1\0",
// the message's size, a command set and id, two reserved bytes), then the
// command's payload; all integers little-endian, strings as a count of
// UTF-16 code units (with the terminating NUL) and the units. The runtime
// answers OK (set 0xFF, id 0x00) with a payload, or an error (id 0xFF) with
// an HRESULT, and for CollectTracing2 then streams the session's events, as
// a nettrace file, on the same connection.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dtrace::dnet::ipc {

inline constexpr size_t kHeaderSize = 20;
inline constexpr uint8_t kEventPipeCommandSet = 0x02;
inline constexpr uint8_t kStopTracing = 0x01;
inline constexpr uint8_t kCollectTracing2 = 0x03;
inline constexpr uint8_t kServerCommandSet = 0xFF;
inline constexpr uint8_t kServerOk = 0x00;
inline constexpr uint8_t kServerError = 0xFF;
inline constexpr uint32_t kFormatNetTrace = 1;

// An EventPipe provider to enable, as dotnet-trace's --providers names one.
struct ProviderConfig {
    uint64_t keywords = 0;
    uint32_t level = 4; // Informational
    std::string name;
    std::string arguments; // "key=value;..." or empty
};

struct Header {
    uint16_t size = 0; // header and payload
    uint8_t command_set = 0;
    uint8_t command_id = 0;
};

// CollectTracing2: a session streaming nettrace with these providers.
std::vector<uint8_t> collect_tracing2(uint32_t buffer_mb, bool rundown, std::span<const ProviderConfig> providers);
// StopTracing of the session `session_id`.
std::vector<uint8_t> stop_tracing(uint64_t session_id);

// The header at the start of `bytes` (kHeaderSize of them), or nothing when
// the magic is not the protocol's.
std::optional<Header> parse_header(std::span<const uint8_t> bytes);
// What an error response's HRESULT means, for the user.
std::string describe_hresult(uint32_t hresult);

} // namespace dtrace::dnet::ipc
