// metadata_trace.cpp: the content of metadata.etl (see metadata_trace.h).
#include "metadata_trace.h"

#include <string>
#include <string_view>
#include <vector>

#include "etl_file_builder.h"
#include "record_encoder.h"
#include "replay_traces.h"

namespace dtrace::etw::fixture {

const Guid kDescribedProvider = *Guid::parse("7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
const Guid kEventSourceProvider = *Guid::parse("1d2c3b4a-5f6e-4d7c-8b9a-0a1b2c3d4e5f");

namespace {

// metadata.etl, one CPU, raw timestamps in 100 ns ticks after the header (100):
//
//   time  record                                                     pid  tid
//   1000  Fixture.Source 0xFFFE: its manifest, chunk 0 of 2           300  301
//   1001  Fixture.Source 0xFFFE: chunk 1 of 2                         300  301
//   1010  Fixture-Described id 7 v1: Count 2, Points {(1,2),(3,4)},  300  301
//         Shape 2 (Square), Flags 5 (Bold|0x4), Label "first",
//         Odd (a type TDH does not have), Late 9
//   1020  Fixture.Source id 1: Message "hello", Level 3 (Warning)     300  301
//   1030  MetaData/EventInfo: TRACE_EVENT_INFO of id 7 v1              0    0
//   1031  MetaData/EventMapInfo: ShapeMap (a value map)                0    0
//   1032  MetaData/EventMapInfo: FlagMap (a bitmap)                    0    0
//
// The metadata comes after the events it describes (as relogged files have
// it): the plugin reads the whole file before it types args[].
const Guid kMetaData = *Guid::parse("bbccf6c1-6cd1-48c4-80ff-839482e37671");
constexpr uint8_t kEventInfo = 32;
constexpr uint8_t kEventMapInfo = 33;
constexpr uint32_t kBufferSize = 0x1000;

constexpr const char *kEventSourceManifest =
    R"xml(<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
 <instrumentation xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events">
  <events>
   <provider name="Fixture.Source" guid="{1d2c3b4a-5f6e-4d7c-8b9a-0a1b2c3d4e5f}" symbol="FixtureSource">
    <maps>
     <valueMap name="LevelMap">
      <map value="3" message="$(string.map_LevelMap.3)"/>
     </valueMap>
    </maps>
    <templates>
     <template tid="Said">
      <data name="Message" inType="win:UnicodeString"/>
      <data name="Level" inType="win:Int32" map="LevelMap"/>
     </template>
    </templates>
    <events>
     <event value="1" version="0" level="win:Informational" symbol="Said" template="Said"/>
    </events>
   </provider>
  </events>
 </instrumentation>
 <localization>
  <resources culture="en-US">
   <stringTable>
    <string id="map_LevelMap.3" value="Warning"/>
   </stringTable>
  </resources>
 </localization>
</instrumentationManifest>
)xml";

void put_wide(Bytes &out, std::u16string_view text) {
    for (char16_t c : text) {
        put(out, static_cast<uint16_t>(c));
    }
    put(out, uint16_t{0});
}

Bytes guid_bytes(const Guid &guid) {
    Bytes b(Guid::kSize);
    guid.to_bytes(b.data());
    return b;
}

// Strings after a fixed part, each at an offset from the fixed part's start.
class StringArea {
  public:
    explicit StringArea(size_t fixed_size) : fixed_size_(fixed_size) {}
    uint32_t add(std::u16string_view text) {
        if (text.empty()) {
            return 0;
        }
        const auto offset = static_cast<uint32_t>(fixed_size_ + bytes_.size());
        put_wide(bytes_, text);
        return offset;
    }
    const Bytes &bytes() const { return bytes_; }

  private:
    size_t fixed_size_;
    Bytes bytes_;
};

struct Property {
    uint32_t flags = 0;
    std::u16string name;
    uint16_t in_type = 0;  // a struct's first member
    uint16_t out_type = 0; // a struct's member count
    std::u16string map;
    uint16_t count = 1;
    uint16_t length = 0;
};

constexpr uint32_t kStructFlag = 0x1;
constexpr uint32_t kParamCountFlag = 0x4;

// A TRACE_EVENT_INFO (tdh.h) for event (id, version) of the described provider.
Bytes trace_event_info(uint16_t id, uint8_t version, uint32_t top_level, const std::vector<Property> &properties) {
    constexpr size_t kFixed = 112, kPropertySize = 24;
    const size_t fixed = kFixed + kPropertySize * properties.size();
    StringArea strings(fixed);
    Bytes info;
    append(info, guid_bytes(kDescribedProvider));
    append(info, Bytes(Guid::kSize, 0)); // EventGuid
    put(info, id);
    info.push_back(version);
    info.push_back(0);         // Channel
    info.push_back(4);         // Level
    info.push_back(0);         // Opcode
    put(info, uint16_t{0});    // Task
    put(info, uint64_t{0x10}); // Keyword
    put(info, uint32_t{0});    // DecodingSource: XML file (a manifest)
    put(info, strings.add(u"Fixture-Described"));
    for (int unused = 0; unused < 9; ++unused) { // level ... activity id names
        put(info, uint32_t{0});
    }
    put(info, strings.add(u"Drawn")); // EventNameOffset
    put(info, uint32_t{0});           // EventAttributesOffset
    put(info, static_cast<uint32_t>(properties.size()));
    put(info, top_level);
    put(info, uint32_t{0}); // Flags
    for (const Property &p : properties) {
        put(info, p.flags);
        put(info, strings.add(p.name));
        put(info, p.in_type);
        put(info, p.out_type);
        put(info, strings.add(p.map));
        put(info, p.count);
        put(info, p.length);
        put(info, uint32_t{0});
    }
    append(info, strings.bytes());
    return info;
}

// An EventMapInfo payload: the provider's GUID, then EVENT_MAP_INFO.
Bytes event_map_info(std::u16string_view name, uint32_t flag,
                     const std::vector<std::pair<uint32_t, std::u16string>> &entries) {
    constexpr size_t kFixed = 16, kEntrySize = 8;
    StringArea strings(kFixed + kEntrySize * entries.size());
    Bytes info;
    put(info, strings.add(name));
    put(info, flag);
    put(info, static_cast<uint32_t>(entries.size()));
    put(info, uint32_t{0}); // MapEntryValueType: ULONG
    for (const auto &[value, text] : entries) {
        put(info, strings.add(text + u" ")); // TDH pads map names
        put(info, value);
    }
    append(info, strings.bytes());
    Bytes payload = guid_bytes(kDescribedProvider);
    append(payload, info);
    return payload;
}

Bytes meta_record(uint8_t type, int64_t t, Bytes payload) {
    ClassicSpec c;
    c.guid = kMetaData;
    c.type = type;
    c.timestamp = t;
    c.payload = std::move(payload);
    return encode(c);
}

Bytes manifest_chunk(uint16_t number, uint16_t total, std::string_view text, int64_t t) {
    Bytes p = {1, 1, 0, 0x5B}; // format, major, minor, magic
    put(p, total);
    put(p, number);
    p.insert(p.end(), text.begin(), text.end());
    return process_300_event(kEventSourceProvider, 0xFFFE, 1, t, p);
}

Bytes drawn_payload() {
    Bytes p;
    put(p, uint32_t{2}); // Count
    for (int16_t v : {1, 2, 3, 4}) {
        put(p, v); // Points
    }
    p.push_back(2);      // Shape
    put(p, uint32_t{5}); // Flags
    put_wide(p, u"first");
    put(p, uint32_t{0xDEAD}); // Odd
    put(p, uint32_t{9});      // Late
    return p;
}

} // namespace

Bytes metadata_trace() {
    constexpr uint16_t kUInt8 = 4, kInt16 = 5, kUInt32 = 8, kUnicodeString = 1, kNoSuchType = 999;
    const std::vector<Property> properties = {
        {.name = u"Count", .in_type = kUInt32},
        {.flags = kStructFlag | kParamCountFlag, .name = u"Points", .in_type = 7, .out_type = 2, .count = 0},
        {.name = u"Shape", .in_type = kUInt8, .map = u"ShapeMap"},
        {.name = u"Flags", .in_type = kUInt32, .map = u"FlagMap"},
        {.name = u"Label", .in_type = kUnicodeString},
        {.name = u"Odd", .in_type = kNoSuchType},
        {.name = u"Late", .in_type = kUInt32},
        {.name = u"X", .in_type = kInt16},
        {.name = u"Y", .in_type = kInt16},
    };
    const std::string_view manifest = kEventSourceManifest;
    const size_t half = manifest.size() / 2;
    Bytes said;
    put_wide(said, u"hello");
    put(said, int32_t{3});

    LogfileSpec logfile;
    logfile.buffer_size = kBufferSize;
    logfile.number_of_processors = 1;
    EtlFileBuilder builder(logfile);
    BufferSpec cpu0{.cpu = 0};
    cpu0.records = {manifest_chunk(0, 2, manifest.substr(0, half), 1000),
                    manifest_chunk(1, 2, manifest.substr(half), 1001),
                    process_300_event(kDescribedProvider, 7, 1, 1010, drawn_payload()),
                    process_300_event(kEventSourceProvider, 1, 0, 1020, said),
                    meta_record(kEventInfo, 1030, trace_event_info(7, 1, 7, properties)),
                    meta_record(kEventMapInfo, 1031, event_map_info(u"ShapeMap", 1, {{1, u"Circle"}, {2, u"Square"}})),
                    meta_record(kEventMapInfo, 1032, event_map_info(u"FlagMap", 2, {{1, u"Bold"}, {2, u"Italic"}}))};
    builder.add_buffer(cpu0);
    return builder.build();
}

} // namespace dtrace::etw::fixture
