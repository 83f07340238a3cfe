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
//
// A runtime started with DOTNET_DiagnosticPorts=<path>,connect[,suspend]
// connects to <path> itself (the reverse server, which the tool listens
// on) and opens each connection with a 34-byte advertise (the magic
// "ADVR_V1\0", its instance cookie, its pid, two unused bytes); the tool then
// sends one command on it, and the runtime connects again for the next. A
// suspending port holds the runtime early in its startup until the tool
// sends ResumeRuntime (Process set 0x04, id 0x01), which it answers OK.
#pragma once

#include <array>
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
inline constexpr uint8_t kProcessCommandSet = 0x04;
inline constexpr uint8_t kResumeRuntime = 0x01;
inline constexpr size_t kAdvertiseSize = 34;

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

// ResumeRuntime (no payload).
std::vector<uint8_t> resume_runtime();

// A runtime's advertise on a connection it opened: its pid (in its own pid
// namespace) and instance cookie.
struct Advertise {
    uint64_t pid = 0;
    std::array<uint8_t, 16> cookie{};
};
// The advertise in `bytes` (kAdvertiseSize of them), or nothing when the
// magic is not "ADVR_V1".
std::optional<Advertise> parse_advertise(std::span<const uint8_t> bytes);

// The header at the start of `bytes` (kHeaderSize of them), or nothing when
// the magic is not the protocol's.
std::optional<Header> parse_header(std::span<const uint8_t> bytes);
// What an error response's HRESULT means, for the user.
std::string describe_hresult(uint32_t hresult);

} // namespace dtrace::dnet::ipc
