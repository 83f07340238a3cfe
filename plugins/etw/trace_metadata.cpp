// trace_metadata.cpp: TRACE_EVENT_INFO, EVENT_MAP_INFO and EventSource
// manifests into ManifestProviders (see trace_metadata.h).
#include "trace_metadata.h"

#include <cstring>
#include <functional>
#include <optional>

#include "reader/le_bytes.h"
#include "reader/problem_log.h"
#include "reader/utf16.h"

namespace dtrace::etw::plugin {

const Guid kKernelTraceControlMetaData = *Guid::parse("bbccf6c1-6cd1-48c4-80ff-839482e37671");

namespace {

// TRACE_EVENT_INFO (tdh.h): offsets are from the start of the structure.
namespace event_info {
constexpr size_t kProviderGuid = 0;
constexpr size_t kId = 32;
constexpr size_t kVersion = 34;
constexpr size_t kLevel = 36;
constexpr size_t kOpcode = 37;
constexpr size_t kTask = 38;
constexpr size_t kKeyword = 40;
constexpr size_t kDecodingSource = 48;
constexpr size_t kProviderNameOffset = 52;
constexpr size_t kTaskNameOffset = 68;
constexpr size_t kEventNameOffset = 92;
constexpr size_t kPropertyCount = 100;
constexpr size_t kTopLevelPropertyCount = 104;
constexpr size_t kProperties = 112;
constexpr uint32_t kDecodingSourceXmlFile = 0; // a manifest's event
} // namespace event_info

// EVENT_PROPERTY_INFO, 24 bytes each.
namespace property {
constexpr size_t kSize = 24;
constexpr size_t kFlags = 0;
constexpr size_t kNameOffset = 4;
constexpr size_t kInType = 8; // struct: StructStartIndex
constexpr size_t kMapNameOffset = 12;
constexpr size_t kStructMembers = 10;
constexpr size_t kCount = 16; // or the index of the property holding it
constexpr size_t kLength = 18;
constexpr uint32_t kStruct = 0x1;
constexpr uint32_t kParamLength = 0x2;
constexpr uint32_t kParamCount = 0x4;
constexpr uint32_t kParamFixedCount = 0x20;
} // namespace property

// The EventMapInfo payload: the provider's GUID, then EVENT_MAP_INFO, whose
// offsets are from its own start.
namespace map_info {
constexpr size_t kStart = 16;
constexpr size_t kNameOffset = 0;
constexpr size_t kFlag = 4;
constexpr size_t kEntryCount = 8;
constexpr size_t kEntries = 16;
constexpr size_t kEntrySize = 8; // u32 OutputOffset, u32 Value
constexpr uint32_t kValueMap = 0x1;
constexpr uint32_t kBitmap = 0x2;
constexpr uint32_t kWbemValueMap = 0x8;
constexpr uint32_t kWbemBitmap = 0x10;
} // namespace map_info

// The EventSource manifest envelope.
namespace envelope {
constexpr size_t kSize = 8;
constexpr uint8_t kFormat = 1;
constexpr size_t kMagicAt = 3;
constexpr uint8_t kMagic = 0x5B;
constexpr size_t kTotalChunksAt = 4;
constexpr size_t kChunkNumberAt = 6;
} // namespace envelope

// Struct members nest at most this deep (a loop of indexes ends there).
constexpr int kMaxStructDepth = 8;

// The UTF-16 string at a self-relative offset ("" for offset 0 or outside).
std::string text_at(std::span<const uint8_t> base, uint32_t offset) {
    if (offset == 0 || offset >= base.size()) {
        return "";
    }
    std::string text = read_utf16z(base.subspan(offset)).utf8;
    while (!text.empty() && text.back() == ' ') { // TDH pads map names
        text.pop_back();
    }
    return text;
}

// Reads the properties of one TRACE_EVENT_INFO into fields.
class PropertyReader {
  public:
    PropertyReader(std::span<const uint8_t> info, uint32_t property_count,
                   const std::function<std::shared_ptr<ManifestMap>(const std::string &)> &map)
        : info_(info), count_(property_count), map_(map) {}

    // Properties [first, first + n) as a scope: their counts and lengths
    // name properties of the same scope. False when an index is out of range.
    bool read(uint32_t first, uint32_t n, int depth, std::vector<ManifestField> &out) const {
        if (depth > kMaxStructDepth || first + uint64_t{n} > count_) {
            return false;
        }
        for (uint32_t i = first; i < first + n; ++i) {
            const uint8_t *p = info_.data() + event_info::kProperties + size_t{i} * property::kSize;
            ManifestField f;
            const uint32_t flags = load_u32(p + property::kFlags);
            f.name = text_at(info_, load_u32(p + property::kNameOffset));
            const uint16_t count = load_u16(p + property::kCount);
            const uint16_t length = load_u16(p + property::kLength);
            if (flags & property::kStruct) {
                f.is_struct = true;
                f.opaque = !read(load_u16(p + property::kInType), load_u16(p + property::kStructMembers), depth + 1,
                                 f.members);
            } else {
                f.type = static_cast<InType>(load_u16(p + property::kInType));
                f.opaque = type_info(f.type) == nullptr;
                if (const uint32_t map_name = load_u32(p + property::kMapNameOffset); map_name != 0) {
                    f.map = map_(text_at(info_, map_name));
                }
            }
            // An index naming a property of this scope before this one.
            auto earlier = [&](uint16_t index) -> std::optional<size_t> {
                if (index < first || index >= i) {
                    return std::nullopt;
                }
                return index - first;
            };
            if (flags & property::kParamCount) {
                f.is_array = true;
                f.count_field = earlier(count);
                f.opaque = f.opaque || !f.count_field;
            } else if (count > 1 || (flags & property::kParamFixedCount)) {
                f.is_array = true;
                f.count = count;
            }
            if (flags & property::kParamLength) {
                f.length_field = earlier(length);
                f.opaque = f.opaque || !f.length_field;
            } else {
                f.length = length;
            }
            out.push_back(std::move(f));
        }
        return true;
    }

  private:
    std::span<const uint8_t> info_;
    uint32_t count_;
    const std::function<std::shared_ptr<ManifestMap>(const std::string &)> &map_;
};

// Forgets maps the trace named but never described: their fields stay numbers.
void drop_undescribed_maps(std::vector<ManifestField> &fields, const std::function<bool(const ManifestMap &)> &known) {
    for (ManifestField &f : fields) {
        if (f.map && !known(*f.map)) {
            f.map.reset();
        }
        drop_undescribed_maps(f.members, known);
    }
}

} // namespace

void TraceMetadata::problem(const Event &event, const std::string &what) {
    problems_.push_back("metadata record in the buffer at offset " + hex_offset(event.buffer_offset) + ": " + what);
}

std::shared_ptr<ManifestMap> TraceMetadata::map(const Guid &provider, const std::string &name) {
    std::shared_ptr<ManifestMap> &m = maps_[{provider, name}];
    if (!m) {
        m = std::make_shared<ManifestMap>();
    }
    return m;
}

void TraceMetadata::note(const Event &event) {
    if (event.provider == kKernelTraceControlMetaData) {
        if (event.opcode == kEventInfoOpcode) {
            note_event_info(event);
        } else if (event.opcode == kEventMapInfoOpcode) {
            note_map_info(event);
        }
    } else if (event.id == kEventSourceManifestId && event.kind == RecordKind::EventHeader) {
        note_manifest_chunk(event);
    }
}

void TraceMetadata::note_event_info(const Event &event) {
    using namespace event_info;
    const std::span<const uint8_t> info = event.payload;
    if (info.size() < kProperties) {
        problem(event, "a TRACE_EVENT_INFO of " + std::to_string(info.size()) + " bytes is too short");
        return;
    }
    if (load_u32(info.data() + kDecodingSource) != kDecodingSourceXmlFile) {
        return; // MOF and WPP classes: not manifest events
    }
    const uint32_t count = load_u32(info.data() + kPropertyCount);
    const uint32_t top_level = load_u32(info.data() + kTopLevelPropertyCount);
    if (count > (info.size() - kProperties) / property::kSize || top_level > count) {
        problem(event, "a TRACE_EVENT_INFO of " + std::to_string(info.size()) + " bytes cannot hold its " +
                           std::to_string(count) + " properties");
        return;
    }
    Guid guid;
    std::memcpy(&guid, info.data() + kProviderGuid, sizeof guid);
    ManifestEvent ev;
    ev.id = load_u16(info.data() + kId);
    ev.version = info[kVersion];
    ev.level = info[kLevel];
    ev.opcode = info[kOpcode];
    ev.task = load_u16(info.data() + kTask);
    ev.keywords = load_u64(info.data() + kKeyword);
    ev.name = text_at(info, load_u32(info.data() + kEventNameOffset));
    if (ev.name.empty()) {
        ev.name = text_at(info, load_u32(info.data() + kTaskNameOffset));
    }
    const std::function<std::shared_ptr<ManifestMap>(const std::string &)> map_of = [&](const std::string &name) {
        return map(guid, name);
    };
    if (!PropertyReader(info, count, map_of).read(0, top_level, 0, ev.fields)) {
        problem(event, "a TRACE_EVENT_INFO names properties it does not have");
        return;
    }
    ManifestProvider &p = described_[guid];
    p.guid = guid;
    if (p.name.empty()) {
        p.name = text_at(info, load_u32(info.data() + kProviderNameOffset));
    }
    for (const ManifestEvent &known : p.events) {
        if (known.id == ev.id && known.version == ev.version) {
            return; // described once already
        }
    }
    p.events.push_back(std::move(ev));
}

void TraceMetadata::note_map_info(const Event &event) {
    using namespace map_info;
    const std::span<const uint8_t> payload = event.payload;
    if (payload.size() < kStart + kEntries) {
        problem(event, "an EVENT_MAP_INFO of " + std::to_string(payload.size()) + " bytes is too short");
        return;
    }
    Guid guid;
    std::memcpy(&guid, payload.data(), sizeof guid);
    const std::span<const uint8_t> info = payload.subspan(kStart);
    const uint32_t flag = load_u32(info.data() + kFlag);
    const uint32_t entries = load_u32(info.data() + kEntryCount);
    if (entries > (info.size() - kEntries) / kEntrySize) {
        problem(event, "an EVENT_MAP_INFO cannot hold its " + std::to_string(entries) + " entries");
        return;
    }
    if ((flag & (kValueMap | kBitmap | kWbemValueMap | kWbemBitmap)) == 0) {
        return; // pattern maps and the like: their fields stay numbers
    }
    const std::string name = text_at(info, load_u32(info.data() + kNameOffset));
    std::shared_ptr<ManifestMap> m = map(guid, name);
    bool &described = map_described_[{guid, name}];
    if (described) {
        return;
    }
    described = true;
    m->is_bitmap = (flag & (kBitmap | kWbemBitmap)) != 0;
    for (uint32_t i = 0; i < entries; ++i) {
        const uint8_t *entry = info.data() + kEntries + size_t{i} * kEntrySize;
        m->entries.emplace_back(load_u32(entry + sizeof(uint32_t)), text_at(info, load_u32(entry)));
    }
}

void TraceMetadata::note_manifest_chunk(const Event &event) {
    using namespace envelope;
    const std::span<const uint8_t> p = event.payload;
    if (p.size() < kSize || p[0] != kFormat || p[kMagicAt] != kMagic) {
        return; // an event 0xFFFE that is no manifest
    }
    ManifestChunks &m = manifests_[event.provider];
    if (m.parsed) {
        return; // logged again (at the end of a session, say)
    }
    const uint16_t total = load_u16(p.data() + kTotalChunksAt);
    const uint16_t number = load_u16(p.data() + kChunkNumberAt);
    if (m.chunks.empty()) {
        m.chunks.resize(total);
    }
    if (number >= m.chunks.size() || total != m.chunks.size()) {
        problem(event, "chunk " + std::to_string(number) + " of " + std::to_string(total) + " of the manifest of " +
                           event.provider.to_string() + " does not fit the " + std::to_string(m.chunks.size()) +
                           " announced before");
        return;
    }
    if (m.chunks[number].empty()) {
        m.chunks[number].assign(p.begin() + kSize, p.end());
        ++m.received;
    }
    if (m.received < m.chunks.size()) {
        return;
    }
    m.parsed = true;
    std::string text;
    for (const std::string &chunk : m.chunks) {
        text += chunk;
    }
    m.chunks.clear();
    Result<std::vector<ManifestProvider>> parsed =
        parse_manifest_text(text, "the manifest of " + event.provider.to_string() + " in the trace");
    if (!parsed) {
        problem(event, parsed.error());
        return;
    }
    for (ManifestProvider &provider : parsed.value()) {
        parsed_.push_back(std::move(provider));
    }
}

std::vector<ManifestProvider> TraceMetadata::take() {
    std::vector<ManifestProvider> out = std::move(parsed_);
    const std::function<bool(const ManifestMap &)> known = [&](const ManifestMap &m) {
        for (const auto &[key, map] : maps_) {
            if (map.get() == &m) {
                return map_described_[key];
            }
        }
        return false;
    };
    for (auto &[guid, provider] : described_) {
        for (ManifestEvent &e : provider.events) {
            drop_undescribed_maps(e.fields, known);
        }
        out.push_back(std::move(provider));
    }
    described_.clear();
    parsed_.clear();
    return out;
}

} // namespace dtrace::etw::plugin
