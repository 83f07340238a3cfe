// ipc_messages.cpp: encoding the diagnostics IPC commands (ipc_messages.h).
#include "ipc_messages.h"

#include <cstdio>
#include <cstring>

namespace dtrace::dnet::ipc {

namespace {

constexpr char kMagic[14] = "DOTNET_IPC_V1";   // and its NUL: 14 bytes
constexpr char kAdvertiseMagic[8] = "ADVR_V1"; // and its NUL: 8 bytes
constexpr size_t kAdvertiseCookieAt = 8;
constexpr size_t kAdvertisePidAt = 24;

class Writer {
  public:
    void u8(uint8_t v) { bytes_.push_back(v); }
    void u16(uint16_t v) { little_endian(v, 2); }
    void u32(uint32_t v) { little_endian(v, 4); }
    void u64(uint64_t v) { little_endian(v, 8); }
    // ASCII text as UTF-16LE with its NUL; an empty string is a count of 0.
    void string(const std::string &text) {
        if (text.empty()) {
            u32(0);
            return;
        }
        u32(static_cast<uint32_t>(text.size() + 1));
        for (char c : text)
            u16(static_cast<uint8_t>(c));
        u16(0);
    }
    // A message: the header, with the size filled in, then the payload.
    std::vector<uint8_t> message(uint8_t command_set, uint8_t command_id) const {
        std::vector<uint8_t> out(kMagic, kMagic + sizeof kMagic);
        const size_t size = kHeaderSize + bytes_.size();
        out.push_back(static_cast<uint8_t>(size));
        out.push_back(static_cast<uint8_t>(size >> 8));
        out.push_back(command_set);
        out.push_back(command_id);
        out.push_back(0);
        out.push_back(0);
        out.insert(out.end(), bytes_.begin(), bytes_.end());
        return out;
    }

  private:
    void little_endian(uint64_t v, int n) {
        for (int i = 0; i < n; i++)
            bytes_.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    std::vector<uint8_t> bytes_;
};

} // namespace

std::vector<uint8_t> collect_tracing2(uint32_t buffer_mb, bool rundown, std::span<const ProviderConfig> providers) {
    Writer w;
    w.u32(buffer_mb);
    w.u32(kFormatNetTrace);
    w.u8(rundown ? 1 : 0);
    w.u32(static_cast<uint32_t>(providers.size()));
    for (const ProviderConfig &p : providers) {
        w.u64(p.keywords);
        w.u32(p.level);
        w.string(p.name);
        w.string(p.arguments);
    }
    return w.message(kEventPipeCommandSet, kCollectTracing2);
}

std::vector<uint8_t> stop_tracing(uint64_t session_id) {
    Writer w;
    w.u64(session_id);
    return w.message(kEventPipeCommandSet, kStopTracing);
}

std::vector<uint8_t> resume_runtime() {
    return Writer().message(kProcessCommandSet, kResumeRuntime);
}

std::optional<Advertise> parse_advertise(std::span<const uint8_t> bytes) {
    if (bytes.size() < kAdvertiseSize || std::memcmp(bytes.data(), kAdvertiseMagic, sizeof kAdvertiseMagic) != 0)
        return std::nullopt;
    Advertise a;
    std::memcpy(a.cookie.data(), bytes.data() + kAdvertiseCookieAt, a.cookie.size());
    for (size_t i = 8; i-- > 0;)
        a.pid = a.pid << 8 | bytes[kAdvertisePidAt + i];
    return a;
}

std::optional<Header> parse_header(std::span<const uint8_t> bytes) {
    if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return std::nullopt;
    Header h;
    h.size = static_cast<uint16_t>(bytes[14] | bytes[15] << 8);
    h.command_set = bytes[16];
    h.command_id = bytes[17];
    return h;
}

std::string describe_hresult(uint32_t hresult) {
    switch (hresult) {
    case 0x80131384:
        return "the runtime could not decode the command (DS_IPC_E_BAD_ENCODING)";
    case 0x80131385:
        return "the runtime does not know the command (DS_IPC_E_UNKNOWN_COMMAND)";
    case 0x80131386:
        return "the runtime does not speak this protocol version (DS_IPC_E_UNKNOWN_MAGIC)";
    case 0x80131515:
        return "the runtime does not support the request (DS_IPC_E_NOTSUPPORTED)";
    default: {
        char text[64];
        std::snprintf(text, sizeof text, "the runtime refused the command (HRESULT 0x%08x)", hresult);
        return text;
    }
    }
}

} // namespace dtrace::dnet::ipc
