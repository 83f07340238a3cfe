// volume_map.cpp: the trace's volume mappings (see volume_map.h).
#include "kernel/volume_map.h"

#include "reader/guid.h"
#include "reader/utf16.h"

namespace dtrace::etw::plugin::kernel {

namespace {

const Guid kSysConfig = *Guid::parse("9b79ee91-b5fd-41c0-a243-4248e266e9d0");
constexpr uint8_t kVolumeMapping = 35;
// A trace names a few dozen prefixes; more are not volume mappings.
constexpr size_t kMaxMappings = 4096;

} // namespace

std::optional<std::pair<std::string, std::string>> VolumeMap::mapping(const Event &event) {
    if (event.opcode != kVolumeMapping || event.provider != kSysConfig) {
        return std::nullopt;
    }
    const Utf16String nt = read_utf16z(event.payload);
    if (!nt.terminated || nt.utf8.empty()) {
        return std::nullopt;
    }
    const Utf16String dos = read_utf16z(event.payload.subspan(nt.bytes));
    return std::pair{nt.utf8, dos.utf8};
}

void VolumeMap::load() {
    loaded_ = true;
    Result<EtlReader> reader = open_();
    if (!reader) {
        return; // the replay's own reader has said why
    }
    Event event;
    while (mappings_.size() < kMaxMappings && reader.value().next(event)) {
        if (std::optional<std::pair<std::string, std::string>> m = mapping(event)) {
            mappings_.push_back(std::move(*m));
        }
    }
}

std::optional<VolumeMap::Mapped> VolumeMap::to_dos(const std::string &path) {
    if (!loaded_) {
        load();
    }
    const std::pair<std::string, std::string> *best = nullptr;
    for (const auto &m : mappings_) {
        if (path.starts_with(m.first) && (best == nullptr || m.first.size() > best->first.size())) {
            best = &m;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    return Mapped{best->second + path.substr(best->first.size()), best->second};
}

} // namespace dtrace::etw::plugin::kernel
