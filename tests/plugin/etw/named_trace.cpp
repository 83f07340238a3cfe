// named_trace.cpp: the content of named.man and named.etl (see named_trace.h).
#include "named_trace.h"

#include <cstdint>

#include "etl_file_builder.h"
#include "record_encoder.h"

namespace dtrace::etw::fixture {

const Guid kNamedProvider = *Guid::parse("5e1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b");

namespace {

// named.etl, one CPU, process 300, thread 301, level 4:
//
//   time  event                                       keyword
//   1000  id 1 v0 Start: Count 7, Name "first"        ReadKeyword (0x1)
//   1010  id 1 v1 Start_V1: F0..F11 = 100..111       ReadKeyword|WriteKeyword
//   1020  id 2 v0 Stop (no fields)                    WriteKeyword (0x2)
//   1030  id 1 v0 Start: Count 8, Name "second"       ReadKeyword
//   1040  id 1 v2 (a version the manifest does not     ReadKeyword
//         describe: Start_V1's template decodes it):
//         F0..F11 = 100..111
constexpr const char *kManifest =
    R"xml(<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
 <instrumentation xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events">
  <events>
   <provider name="Fixture-Named" guid="{5e1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b}" symbol="FixtureNamed">
    <keywords>
     <keyword name="ReadKeyword" mask="0x1"/>
     <keyword name="WriteKeyword" mask="0x2"/>
    </keywords>
    <templates>
     <template tid="StartArgs">
      <data name="Count" inType="win:UInt32"/>
      <data name="Name" inType="win:UnicodeString"/>
     </template>
     <template tid="WideArgs">
      <data name="F0" inType="win:UInt32"/>
      <data name="F1" inType="win:UInt32"/>
      <data name="F2" inType="win:UInt32"/>
      <data name="F3" inType="win:UInt32"/>
      <data name="F4" inType="win:UInt32"/>
      <data name="F5" inType="win:UInt32"/>
      <data name="F6" inType="win:UInt32"/>
      <data name="F7" inType="win:UInt32"/>
      <data name="F8" inType="win:UInt32"/>
      <data name="F9" inType="win:UInt32"/>
      <data name="F10" inType="win:UInt32"/>
      <data name="F11" inType="win:UInt32"/>
     </template>
    </templates>
    <events>
     <event value="1" version="0" level="win:Informational" keywords="ReadKeyword" symbol="Start" template="StartArgs"/>
     <event value="1" version="1" level="win:Informational" keywords="ReadKeyword WriteKeyword" symbol="Start_V1" template="WideArgs"/>
     <event value="2" version="0" level="win:Informational" keywords="WriteKeyword" symbol="Stop"/>
    </events>
   </provider>
  </events>
 </instrumentation>
</instrumentationManifest>
)xml";

constexpr uint32_t kBufferSize = 0x1000;
constexpr uint64_t kRead = 0x1, kWrite = 0x2;

Bytes named_event(uint16_t id, uint8_t version, uint64_t keyword, int64_t t, Bytes payload) {
    EventHeaderSpec e;
    e.provider = kNamedProvider;
    e.id = id;
    e.version = version;
    e.level = 4;
    e.keyword = keyword;
    e.timestamp = t;
    e.pid = 300;
    e.tid = 301;
    e.payload = std::move(payload);
    return encode(e);
}

Bytes start_payload(uint32_t count, std::u16string_view name) {
    Bytes p;
    put(p, count);
    for (char16_t c : name) {
        put(p, static_cast<uint16_t>(c));
    }
    put(p, uint16_t{0});
    return p;
}

Bytes wide_payload() {
    Bytes p;
    for (uint32_t i = 0; i < 12; ++i) {
        put(p, 100 + i);
    }
    return p;
}

} // namespace

std::string_view named_manifest() {
    return kManifest;
}

Bytes named_trace() {
    LogfileSpec logfile;
    logfile.buffer_size = kBufferSize;
    logfile.number_of_processors = 1;
    EtlFileBuilder builder(logfile);
    BufferSpec cpu0{.cpu = 0};
    cpu0.records = {named_event(1, 0, kRead, 1000, start_payload(7, u"first")),
                    named_event(1, 1, kRead | kWrite, 1010, wide_payload()), named_event(2, 0, kWrite, 1020, {}),
                    named_event(1, 0, kRead, 1030, start_payload(8, u"second")),
                    named_event(1, 2, kRead, 1040, wide_payload())};
    builder.add_buffer(cpu0);
    return builder.build();
}

} // namespace dtrace::etw::fixture
