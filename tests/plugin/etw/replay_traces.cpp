// replay_traces.cpp: the content of the etw plugin's test traces (see replay_traces.h).
#include "replay_traces.h"

#include <string_view>
#include <utility>

#include "etl_file_builder.h"
#include "reader/buffer_header.h"
#include "reader/extended_items.h"
#include "reader/kernel_groups.h"
#include "record_encoder.h"
#include "sample_traces.h"

namespace dtrace::etw::fixture {

const Guid kDotNetRuntime = *Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
const Guid kFixtureProvider = *Guid::parse("4f50731a-89cf-4782-b3e0-dce8c90476ba");
const Guid kImageId = *Guid::parse("b3e675d7-2554-4f18-830b-2762732560de");

namespace {

// replay.etl, two CPUs, raw timestamps in 100 ns ticks after the header (100):
//
//   time  cpu  record                                               pid  tid
//   1000  0    Process/DCStart (SYSTEM, v4): pid 100 app.exe, ppid 4  0    0
//   1001  0    Process/DCStart: pid 200 tool.exe, ppid 100            0    0
//   1005  1    Thread/Start (SYSTEM)                                 100  101
//   1010  0    DotNETRuntime id 1 (GCStart), level 4, keyword 0x1     100  101
//   1015  1    DotNETRuntime id 2 (GCEnd), level 4, keyword 0x1       100  101
//   1020  0    DotNETRuntime id 10 (AllocationTick), level 5, kw 0x1  100  101
//   1025  1    classic KernelTraceControl-ImageID, type 0             200  201
//   1030  0    TraceLogging "Fixture.Provider" Greeting: "hello", 7,  200  201
//              {300, 400}, b3e675d7-...
//   1035  1    PerfInfo/SampledProfile (PERFINFO: no pid, tid)         -    -
//   1036  1    StackWalk/Stack of the sample: 2 kernel + 1 user frame 100  101
//   1040  1    RT_LostEvent (classic)                                 0    0
//   1045  1    DotNETRuntime id 10, level 5, keyword 0x8001          100  102
//   1050  0    DotNETRuntime id 4 (GCHeapStats), level 4, kw 0x1      200  201
//   2.5 s  0   DotNETRuntime id 3 (GCRestartEEStop), level 4, kw 0x1  200  201
//              (25001000: trace time for tick-N to pass)
constexpr uint32_t kBufferSize = 0x1000;
constexpr int64_t kLateTimestamp = 25001000; // 2.5 s after 1000, in 100 ns ticks

constexpr uint16_t kProcessDcStart = 0x0303;
constexpr uint16_t kThreadStart = 0x0501;
constexpr uint16_t kSampledProfile = 0x0F2E;
constexpr uint16_t kStackWalkStack = 0x1820;
constexpr uint8_t kLostEventType = 32;
constexpr uint8_t kTraceLoggingChannel = 11;

void put_text(Bytes &out, std::string_view text) {
    out.insert(out.end(), text.begin(), text.end());
    out.push_back(0);
}

void put_wide_text(Bytes &out, std::u16string_view text) {
    for (char16_t c : text) {
        put(out, static_cast<uint16_t>(c));
    }
    put(out, uint16_t{0});
}

Bytes process_dc_start(int64_t t, uint32_t pid, uint32_t ppid, std::string_view image) {
    KernelRecord k;
    k.version = 4;
    k.hook_id = kProcessDcStart;
    k.timestamp = t;
    put(k.payload, uint64_t{0xFFFFA00000000000} + pid); // UniqueProcessKey
    put(k.payload, pid);
    put(k.payload, ppid);
    put(k.payload, uint32_t{1});               // SessionId
    put(k.payload, uint32_t{0});               // ExitStatus
    put(k.payload, uint64_t{0x1AB000});        // DirectoryTableBase
    put(k.payload, uint32_t{0});               // Flags
    put(k.payload, uint32_t{0});               // no UserSID
    put_text(k.payload, image);                // ImageFileName
    put_wide_text(k.payload, u"command line"); // CommandLine
    put_wide_text(k.payload, u"");             // PackageFullName
    put_wide_text(k.payload, u"");             // ApplicationId
    return encode(k);
}

Bytes kernel(uint16_t hook, int64_t t, uint32_t pid, uint32_t tid, Bytes payload,
             KernelRecord::Form form = KernelRecord::Form::System) {
    KernelRecord k;
    k.form = form;
    k.hook_id = hook;
    k.timestamp = t;
    k.pid = pid;
    k.tid = tid;
    k.payload = std::move(payload);
    return encode(k);
}

Bytes clr(uint16_t id, int64_t t, uint8_t level, uint64_t keyword, uint32_t pid, uint32_t tid, uint32_t value) {
    EventHeaderSpec e;
    e.provider = kDotNetRuntime;
    e.id = id;
    e.version = 1;
    e.level = level;
    e.keyword = keyword;
    e.opcode = static_cast<uint8_t>(id == 2 ? 2 : 1);
    e.timestamp = t;
    e.pid = pid;
    e.tid = tid;
    put(e.payload, value);
    put(e.payload, uint16_t{7}); // ClrInstanceID
    return encode(e);
}

// The TraceLogging event "Greeting": text (AnsiString), count (UInt32),
// values (UInt16, a u16 count before them in the payload), id (GUID).
Bytes greeting_schema() {
    constexpr uint8_t kAnsiString = 2, kUInt16 = 6, kUInt32 = 8, kGuid = 15, kVariableCount = 0x40;
    Bytes body;
    body.push_back(0); // no tags
    put_text(body, "Greeting");
    for (auto [name, type] : {std::pair<const char *, uint8_t>{"text", kAnsiString},
                              {"count", kUInt32},
                              {"values", static_cast<uint8_t>(kUInt16 | kVariableCount)},
                              {"id", kGuid}}) {
        put_text(body, name);
        body.push_back(type);
    }
    Bytes schema;
    put(schema, static_cast<uint16_t>(sizeof(uint16_t) + body.size()));
    append(schema, body);
    return schema;
}

Bytes tracelogging(int64_t t) {
    EventHeaderSpec e;
    e.provider = kFixtureProvider;
    e.channel = kTraceLoggingChannel;
    e.level = 4;
    e.timestamp = t;
    e.pid = 200;
    e.tid = 201;
    Bytes traits;
    Bytes name;
    put_text(name, "Fixture.Provider");
    put(traits, static_cast<uint16_t>(sizeof(uint16_t) + name.size()));
    append(traits, name);
    e.items = {{ext_type::kProvTraits, traits}, {ext_type::kEventSchemaTl, greeting_schema()}};
    put_text(e.payload, "hello");
    put(e.payload, uint32_t{7});
    put(e.payload, uint16_t{2});
    put(e.payload, uint16_t{300});
    put(e.payload, uint16_t{400});
    Bytes id(Guid::kSize);
    kImageId.to_bytes(id.data());
    append(e.payload, id);
    return encode(e);
}

Bytes classic(const Guid &guid, uint8_t type, int64_t t, uint32_t pid, uint32_t tid) {
    ClassicSpec c;
    c.guid = guid;
    c.type = type;
    c.version = 2;
    c.timestamp = t;
    c.pid = pid;
    c.tid = tid;
    put(c.payload, uint64_t{0x140000000});
    return encode(c);
}

Bytes stack_of_sample(int64_t t) {
    Bytes p;
    put(p, int64_t{1035}); // EventTimeStamp: the sample's
    put(p, uint32_t{100});
    put(p, uint32_t{101});
    put(p, uint64_t{0xFFFFF80000001000});
    put(p, uint64_t{0xFFFFF80000002000});
    put(p, uint64_t{0x00007FF600001000});
    return kernel(kStackWalkStack, t, 100, 101, p);
}

} // namespace

Bytes replay_trace() {
    LogfileSpec logfile;
    logfile.buffer_size = kBufferSize;
    logfile.number_of_processors = 2;
    EtlFileBuilder builder(logfile);
    Bytes sample;
    put(sample, uint64_t{0xFFFFF80000001000}); // InstructionPointer
    put(sample, uint32_t{101});                // ThreadId
    put(sample, uint32_t{1});                  // Count
    BufferSpec cpu0{.cpu = 0};
    cpu0.records = {process_dc_start(1000, 100, 4, "app.exe"),
                    process_dc_start(1001, 200, 100, "tool.exe"),
                    clr(1, 1010, 4, 0x1, 100, 101, 1),
                    clr(10, 1020, 5, 0x1, 100, 101, 1000),
                    tracelogging(1030),
                    clr(4, 1050, 4, 0x1, 200, 201, 3),
                    clr(3, kLateTimestamp, 4, 0x1, 200, 201, 4)};
    BufferSpec cpu1{.cpu = 1};
    cpu1.records = {kernel(kThreadStart, 1005, 100, 101, Bytes(8, 0)),
                    clr(2, 1015, 4, 0x1, 100, 101, 1),
                    classic(kImageId, 0, 1025, 200, 201),
                    kernel(kSampledProfile, 1035, 0, 0, sample, KernelRecord::Form::PerfInfo),
                    stack_of_sample(1036),
                    classic(kLostEventGuid, kLostEventType, 1040, 0, 0),
                    clr(10, 1045, 5, 0x8001, 100, 102, 2000)};
    builder.add_buffer(cpu1); // the later CPU first: file order is not time order
    builder.add_buffer(cpu0);
    return builder.build();
}

Bytes corrupt_trace() {
    Bytes file = sample_multi_cpu(kCorruptCpus, kCorruptPerCpu, kCorruptBufferSize);
    // The buffer's end of data points past the buffer.
    put_at(file, kCorruptBufferOffset + buffer_layout::kOffset, 2 * kCorruptBufferSize);
    return file;
}

} // namespace dtrace::etw::fixture
