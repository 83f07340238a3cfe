// replay_traces.cpp: the content of the etw plugin's test traces (see replay_traces.h).
#include "replay_traces.h"

#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "etl_file_builder.h"
#include "reader/buffer_header.h"
#include "reader/event.h"
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

namespace {

// kernel_trace(): one CPU, raw timestamps in 100 ns ticks after the header (100).
//
//   time  record (header pid/tid)                          payload
//   1000  Process/DCStart (0/0)                            pid 4 System, ppid 0
//   1001  Process/DCStart (0/0)                            pid 100 app.exe, ppid 4, "app.exe -v"
//   1002  Thread/DCStart (0/0)                             pid 100 tid 101, priority 8
//   1003  Image/DCStart (0/0)                              ntoskrnl.exe at 0xfffff80000000000, pid 0
//   1010  Process/Start (100/101)                          pid 300 child.exe, ppid 100, "child.exe /c"
//   1011  Thread/Start (100/101)                           pid 300 tid 301, priority 9
//   1012  Image/Load (300/301)                             child.exe at 0x7ff600000000, size 0x20000
//   1020  Thread/CSwitch (PERFINFO)                        101 (waiting, reason 6) -> 301
//   1021  Thread/ReadyThread (300/301)                     wakes 101
//   1030  FileIo/Create (300/301)                          IRP 0xa1, file 0xf1, \Device\HarddiskVolume2\data\log.txt
//   1031  FileIo/Write (300/301)                           IRP 0xa2, file 0xf1, 512 bytes at 4096
//   1032  FileIo/OperationEnd (PERFINFO)                   IRP 0xa2, 512, STATUS_SUCCESS
//   1040  DiskIo/WriteInit (PERFINFO)                      IRP 0xb1, thread 301
//   1045  DiskIo/Write (PERFINFO)                          disk 1, 4096 bytes at 8192, file 0xf1, 50 ticks
//   1050  Registry/Open (300/301)                          \Registry\Machine\Software, status 0
//   1055  TcpIp/SendIPV4 (-1/-1)                           pid 300, 100 bytes 10.0.0.1:50000 -> 10.0.0.2:443
//   1056  UdpIp/RecvIPV6 (-1/-1)                           pid 300, 20 bytes ::1:53 -> fe80::1:5353
//   1060  PageFault/HardFault (PERFINFO)                   0x7ff600001000 of file 0xf1 at 4096, thread 301
//   1061  PageFault/DemandZeroFault (300/301)              va 0x7ff600002000, pc 0x7ff600001234
//   1065  PerfInfo/SampledProfile (PERFINFO)               pc 0x7ff600001234, thread 301
//   1065  StackWalk/Stack (300/301)                        of the sample: 2 kernel, 2 user frames
//   1066  PerfInfo/DPC (PERFINFO)                          entered at 1065, routine 0xfffff80000003000
//   1067  PerfInfo/ISR (PERFINFO)                          entered at 1066, routine 0xfffff80000004000, vector 0x81
//   1068  PerfInfo/SysClEnter (PERFINFO)                   0xfffff80000005000
//   1069  PerfInfo/SysClExit (PERFINFO)                    0xc0000005
//   1070  Thread/End (300/301)                             pid 300 tid 301
//   1071  Process/End (300/301)                            pid 300, exit status 3
//   1072  Image/Unload (300/301)                           child.exe
//   1080  StackWalk/Stack (100/101)                        of an event at 1079 the trace does not have
class KernelPayload {
  public:
    explicit KernelPayload(uint8_t pointer_size) : pointer_size_(pointer_size) {}
    KernelPayload &u8(uint8_t v) { return put_value(v); }
    KernelPayload &u16(uint16_t v) { return put_value(v); }
    KernelPayload &u32(uint32_t v) { return put_value(v); }
    KernelPayload &u64(uint64_t v) { return put_value(v); }
    KernelPayload &pointer(uint64_t v) {
        return pointer_size_ == 8 ? put_value(v) : put_value(static_cast<uint32_t>(v));
    }
    KernelPayload &text(std::string_view s) {
        put_text(bytes, s);
        return *this;
    }
    KernelPayload &wide(std::u16string_view s) {
        put_wide_text(bytes, s);
        return *this;
    }
    KernelPayload &raw(std::initializer_list<uint8_t> b) {
        bytes.insert(bytes.end(), b);
        return *this;
    }
    Bytes bytes;

  private:
    template <typename T> KernelPayload &put_value(T v) {
        put(bytes, v);
        return *this;
    }
    uint8_t pointer_size_;
};

struct KernelEvent {
    uint16_t hook;
    uint8_t version;
    int64_t time;
    uint32_t pid; // kUnknownId: a PERFINFO record
    uint32_t tid;
    Bytes payload;
};

Bytes encode_kernel(const KernelEvent &e, uint8_t pointer_size) {
    KernelRecord k;
    k.form = e.pid == kUnknownId ? KernelRecord::Form::PerfInfo : KernelRecord::Form::System;
    k.pointer_size = pointer_size;
    k.version = e.version;
    k.hook_id = e.hook;
    k.timestamp = e.time;
    k.pid = e.pid == kUnknownId ? 0 : e.pid;
    k.tid = e.tid == kUnknownId ? 0 : e.tid;
    k.payload = e.payload;
    return encode(k);
}

// A version-3 kernel record of 8-byte pointers (the JIT and session traces').
Bytes kernel_record(uint16_t hook, int64_t time, uint32_t pid, uint32_t tid, Bytes payload) {
    return encode_kernel({hook, 3, time, pid, tid, std::move(payload)}, 8);
}

// The header of a trace of one CPU's small buffers.
LogfileSpec one_cpu_logfile(uint8_t pointer_size = 8) {
    LogfileSpec logfile;
    logfile.pointer_size = pointer_size;
    logfile.buffer_size = kBufferSize;
    logfile.number_of_processors = 1;
    return logfile;
}

Bytes process_payload(uint8_t ps, uint32_t pid, uint32_t ppid, int32_t exit_status, std::string_view image,
                      std::u16string_view command_line) {
    KernelPayload p(ps);
    p.pointer(0xFFFFA00000000000 + pid).u32(pid).u32(ppid).u32(1).u32(static_cast<uint32_t>(exit_status));
    p.pointer(0x1AB000).u32(0).u32(0).text(image).wide(command_line).wide(u"").wide(u"");
    return p.bytes;
}

Bytes thread_payload(uint8_t ps, uint32_t pid, uint32_t tid, uint8_t priority) {
    KernelPayload p(ps);
    p.u32(pid).u32(tid);
    for (int i = 0; i < 6; ++i) {
        p.pointer(0xFFFFB00000000000 + static_cast<uint64_t>(i) * 0x1000); // stacks, start addresses
    }
    p.pointer(0x7FFE0000 + tid); // TebBase
    p.u32(0).u8(priority).u8(5).u8(2).u8(0);
    return p.bytes;
}

Bytes image_payload(uint8_t ps, uint64_t base, uint64_t size, uint32_t pid, std::u16string_view name) {
    KernelPayload p(ps);
    p.pointer(base).pointer(size).u32(pid).u32(0xC0FFEE).u32(0x5F000000).u32(0).pointer(base);
    p.u32(0).u32(0).u32(0).u32(0).wide(name);
    return p.bytes;
}

// A file of the events, in one buffer of CPU 0.
Bytes one_cpu_file(const LogfileSpec &logfile, const std::vector<KernelEvent> &events) {
    BufferSpec cpu0{.cpu = 0};
    for (const KernelEvent &e : events) {
        cpu0.records.push_back(encode_kernel(e, logfile.pointer_size));
    }
    EtlFileBuilder builder(logfile);
    builder.add_buffer(cpu0);
    return builder.build();
}

} // namespace

Bytes kernel_trace(uint8_t ps) {
    constexpr uint32_t kNone = kUnknownId;
    LogfileSpec logfile = one_cpu_logfile(ps);
    std::vector<KernelEvent> events;
    auto add = [&](uint16_t hook, uint8_t version, int64_t time, uint32_t pid, uint32_t tid, Bytes payload) {
        events.push_back({hook, version, time, pid, tid, std::move(payload)});
    };
    add(0x0303, 4, 1000, 0, 0, process_payload(ps, 4, 0, 0, "System", u""));
    add(0x0303, 4, 1001, 0, 0, process_payload(ps, 100, 4, 0, "app.exe", u"app.exe -v"));
    add(0x0503, 3, 1002, 0, 0, thread_payload(ps, 100, 101, 8));
    add(0x1403, 3, 1003, 0, 0,
        image_payload(ps, ps == 8 ? 0xFFFFF80000000000 : 0x80400000, 0x800000, 0,
                      u"\\SystemRoot\\system32\\ntoskrnl.exe"));
    add(0x0301, 4, 1010, 100, 101, process_payload(ps, 300, 100, 0, "child.exe", u"child.exe /c"));
    add(0x0501, 3, 1011, 100, 101, thread_payload(ps, 300, 301, 9));
    add(0x030A, 3, 1012, 300, 301,
        image_payload(ps, ps == 8 ? 0x7FF600000000 : 0x00400000, 0x20000, 300,
                      u"\\Device\\HarddiskVolume2\\tools\\child.exe"));
    add(0x0524, 2, 1020, kNone, kNone,
        KernelPayload(ps).u32(301).u32(101).u8(10).u8(8).u8(0).u8(0).u8(6).u8(1).u8(5).u8(0).u32(7).u32(0).bytes);
    add(0x0532, 2, 1021, 300, 301, KernelPayload(ps).u32(101).u8(1).u8(2).u8(0).u8(0).bytes);
    add(0x0440, 3, 1030, 300, 301,
        KernelPayload(ps)
            .pointer(0xA1)
            .pointer(0xF1)
            .u32(301)
            .u32(0x01000060)
            .u32(0x80)
            .u32(3)
            .wide(u"\\Device\\HarddiskVolume2\\data\\log.txt")
            .bytes);
    add(0x0444, 3, 1031, 300, 301,
        KernelPayload(ps).u64(4096).pointer(0xA2).pointer(0xF1).pointer(0xF1).u32(301).u32(512).u32(0).bytes);
    add(0x044C, 2, 1032, kNone, kNone, KernelPayload(ps).pointer(0xA2).pointer(512).u32(0).bytes);
    add(0x010D, 3, 1040, kNone, kNone, KernelPayload(ps).pointer(0xB1).u32(301).bytes);
    add(0x010B, 3, 1045, kNone, kNone,
        KernelPayload(ps)
            .u32(1)
            .u32(0x60043)
            .u32(4096)
            .u32(0)
            .u64(8192)
            .pointer(0xF1)
            .pointer(0xB1)
            .u64(50)
            .u32(301)
            .bytes);
    add(0x090B, 2, 1050, 300, 301,
        KernelPayload(ps).u64(1049).u32(0).u32(0).pointer(0).wide(u"\\Registry\\Machine\\Software").bytes);
    add(0x060A, 2, 1055, kNone, kNone,
        KernelPayload(ps)
            .u32(300)
            .u32(100)
            .raw({10, 0, 0, 2})
            .raw({10, 0, 0, 1})
            .raw({0x01, 0xBB})
            .raw({0xC3, 0x50})
            .u32(1055)
            .u32(1056)
            .u32(77)
            .pointer(0xC1)
            .bytes);
    add(0x081B, 2, 1056, kNone, kNone,
        KernelPayload(ps)
            .u32(300)
            .u32(20)
            .raw({0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
            .raw({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
            .raw({0x14, 0xE9})
            .raw({0x00, 0x35})
            .u32(0)
            .pointer(0xC2)
            .bytes);
    add(0x0220, 2, 1060, kNone, kNone,
        KernelPayload(ps).u64(1058).u64(4096).pointer(0x7FF600001000).pointer(0xF1).u32(301).u32(4096).bytes);
    add(0x020B, 2, 1061, 300, 301, KernelPayload(ps).pointer(0x7FF600002000).pointer(0x7FF600001234).bytes);
    add(0x0F2E, 2, 1065, kNone, kNone, KernelPayload(ps).pointer(0x7FF600001234).u32(301).u16(1).u8(0).u8(0).bytes);
    const uint64_t kernel_pc = ps == 8 ? 0xFFFFF80000001000 : 0x80401000;
    add(0x1820, 2, 1065, 300, 301,
        KernelPayload(ps)
            .u64(1065)
            .u32(300)
            .u32(301)
            .pointer(kernel_pc)
            .pointer(kernel_pc + 0x100)
            .pointer(0x7FF600001234)
            .pointer(0x7FF600001000)
            .bytes);
    add(0x0F44, 2, 1066, kNone, kNone,
        KernelPayload(ps).u64(1065).pointer(ps == 8 ? 0xFFFFF80000003000 : 0x80403000).bytes);
    add(0x0F43, 2, 1067, kNone, kNone,
        KernelPayload(ps).u64(1066).pointer(ps == 8 ? 0xFFFFF80000004000 : 0x80404000).u8(1).u16(0x81).u8(0).bytes);
    add(0x0F33, 2, 1068, kNone, kNone, KernelPayload(ps).pointer(ps == 8 ? 0xFFFFF80000005000 : 0x80405000).bytes);
    add(0x0F34, 2, 1069, kNone, kNone, KernelPayload(ps).u32(0xC0000005).bytes);
    add(0x0502, 3, 1070, 300, 301, thread_payload(ps, 300, 301, 9));
    add(0x0302, 4, 1071, 300, 301, process_payload(ps, 300, 100, 3, "child.exe", u"child.exe /c"));
    add(0x1402, 3, 1072, 300, 301,
        image_payload(ps, ps == 8 ? 0x7FF600000000 : 0x00400000, 0x20000, 300,
                      u"\\Device\\HarddiskVolume2\\tools\\child.exe"));
    add(0x1820, 2, 1080, 100, 101, KernelPayload(ps).u64(1079).u32(100).u32(101).pointer(kernel_pc).bytes);
    return one_cpu_file(logfile, events);
}

// stack_key_trace(): one CPU, a kernel that caches stacks (raw timestamps):
//
//   time  record (header pid/tid)                 payload
//   1000  Image/DCStart (0/0)                     ntoskrnl.exe at 0xfffff80000000000
//   1010  PerfInfo/SampledProfile (PERFINFO)      thread 101
//   1010  StackWalk/StackKeyKernel (100/101)      of the sample: key 0xa
//   1010  StackWalk/StackKeyUser (100/101)        of the sample: key 0xb
//   1020  PerfInfo/SampledProfile (PERFINFO)      thread 101
//   1020  StackWalk/StackKeyKernel (100/101)      of the sample: key 0xa (again)
//   1030  StackWalk/KeyDelete                     key 0xa: 0xfffff80000001000, 0xfffff80000001100
//   1040  PerfInfo/SampledProfile (PERFINFO)      thread 101
//   1040  StackWalk/StackKeyKernel (100/101)      of the sample: key 0xa (used for another stack)
//   1050  StackWalk/KeyRundown                    key 0xa: 0xfffff80000002000
//   1051  StackWalk/KeyRundown                    key 0xb: 0x7ff600001234, 0x7ff600001000
//
// The first two samples' kernel stacks are the one KeyDelete defines, the
// third's the one the rundown defines; the first sample's user stack too
// comes from the rundown.
Bytes interval_trace() {
    constexpr uint8_t ps = 8;
    constexpr int64_t kStart = 1000;
    constexpr int64_t kSendSpacing = 20'000; // 2 ms in 100 ns ticks
    constexpr size_t kSendsPerBuffer = 500;
    LogfileSpec logfile;
    logfile.pointer_size = ps;
    logfile.buffer_size = 0x10000;
    logfile.number_of_processors = 1;
    logfile.events_lost = kIntervalLoggerLost;
    EtlFileBuilder builder(logfile);
    BufferSpec buffer{.cpu = 0};
    buffer.records.push_back(encode_kernel(
        {kProcessDcStart, 4, kStart, 0, 0, process_payload(ps, 300, 4, 0, "client.exe", u"client.exe")}, ps));
    for (uint32_t i = 0; i < kIntervalSends; ++i) {
        const int64_t t = kStart + kSendSpacing * (i + 1);
        const uint32_t size = i == kIntervalLsoIndex ? kIntervalLsoBytes : i % 1500 + 1;
        KernelPayload send(ps);
        send.u32(300).u32(size).raw({10, 0, 0, 2}).raw({10, 0, 0, 1}).raw({0x01, 0xBB}).raw({0xC3, 0x50});
        send.u32(static_cast<uint32_t>(t)).u32(static_cast<uint32_t>(t + 1)).u32(i).pointer(0xC1);
        buffer.records.push_back(encode_kernel({0x060A, 2, t, kUnknownId, kUnknownId, send.bytes}, ps));
        if (buffer.records.size() == kSendsPerBuffer) {
            builder.add_buffer(buffer);
            buffer.records.clear();
        }
    }
    if (!buffer.records.empty()) {
        builder.add_buffer(buffer);
    }
    return builder.build();
}

Bytes stack_key_trace() {
    constexpr uint8_t ps = 8;
    constexpr uint32_t kNone = kUnknownId;
    constexpr uint16_t kKeyDelete = 0x1823, kKeyRundown = 0x1824, kKeyKernel = 0x1825, kKeyUser = 0x1826;
    LogfileSpec logfile = one_cpu_logfile();
    std::vector<KernelEvent> events;
    auto add = [&](uint16_t hook, int64_t time, uint32_t pid, uint32_t tid, Bytes payload) {
        events.push_back({hook, 2, time, pid, tid, std::move(payload)});
    };
    auto sample = [&](int64_t time) {
        add(kSampledProfile, time, kNone, kNone, KernelPayload(ps).pointer(0xFFFFF80000001000).u32(101).u32(1).bytes);
    };
    auto key = [&](uint16_t hook, int64_t time, uint64_t stack_key) {
        add(hook, time, 100, 101,
            KernelPayload(ps).u64(static_cast<uint64_t>(time)).u32(100).u32(101).pointer(stack_key).bytes);
    };
    add(0x1403, 1000, 0, 0,
        image_payload(ps, 0xFFFFF80000000000, 0x800000, 0, u"\\SystemRoot\\system32\\ntoskrnl.exe"));
    sample(1010);
    key(kKeyKernel, 1010, 0xA);
    key(kKeyUser, 1010, 0xB);
    sample(1020);
    key(kKeyKernel, 1020, 0xA);
    add(kKeyDelete, 1030, 0, 0,
        KernelPayload(ps).pointer(0xA).pointer(0xFFFFF80000001000).pointer(0xFFFFF80000001100).bytes);
    sample(1040);
    key(kKeyKernel, 1040, 0xA);
    add(kKeyRundown, 1050, 0, 0, KernelPayload(ps).pointer(0xA).pointer(0xFFFFF80000002000).bytes);
    add(kKeyRundown, 1051, 0, 0, KernelPayload(ps).pointer(0xB).pointer(0x7FF600001234).pointer(0x7FF600001000).bytes);
    return one_cpu_file(logfile, events);
}

const Guid kDotNetRundown = *Guid::parse("a669021c-c450-4609-a035-5af59af4df18");

Bytes process_300_event(const Guid &provider, uint16_t id, uint8_t version, int64_t t, Bytes payload) {
    EventHeaderSpec e;
    e.provider = provider;
    e.id = id;
    e.version = version;
    e.level = 4;
    e.timestamp = t;
    e.pid = 300;
    e.tid = 301;
    e.payload = std::move(payload);
    return encode(e);
}

Bytes clr_module_payload(uint64_t module_id, std::u16string_view il_path) {
    Bytes p;
    put(p, module_id);
    put(p, uint64_t{0xA55E}); // AssemblyID
    put(p, uint32_t{0});      // ModuleFlags
    put(p, uint32_t{0});      // Reserved1
    put_wide_text(p, il_path);
    put_wide_text(p, u""); // ModuleNativePath
    put(p, uint16_t{7});   // ClrInstanceID
    return p;
}

Bytes clr_method_payload(uint64_t module_id, uint64_t start, uint32_t size, std::u16string_view space,
                         std::u16string_view name) {
    Bytes p;
    put(p, start ^ 0x1111); // MethodID
    put(p, module_id);
    put(p, start);
    put(p, size);
    put(p, uint32_t{0x06000001}); // MethodToken
    put(p, uint32_t{0});          // MethodFlags
    put_wide_text(p, space);
    put_wide_text(p, name);
    put_wide_text(p, u"void  ()"); // MethodSignature
    put(p, uint16_t{7});           // ClrInstanceID
    return p;
}

// jit_stack_trace(): one CPU (raw timestamps):
//
//   time  record (header pid/tid)                      payload
//    999  Thread/DCStart (0/0)                          pid 300 tid 301
//   1000  Image/Load (300/301)                         child.exe at 0x7ff600000000, size 0x20000
//   1001  DotNETRuntime 152 ModuleLoad (300/301)       module 0x77, C:\\app\\Contoso.Shop.dll
//   1002  DotNETRuntime 143 MethodLoadVerbose          Contoso.Shop.Cart.Checkout at 0x7ff900010000, 0x80
//   1010  PerfInfo/SampledProfile (PERFINFO)           pc 0x7ff900010024, thread 301
//   1010  StackWalk/Stack (300/301)                    user frames 0x7ff900010024, 0x7ff900020000,
//                                                      0x7ff600001234, 0x12345678
//   1020  DotNETRuntimeRundown 144 MethodDCEndVerbose  Contoso.Shop.Program.Main at 0x7ff900020000, 0x100
//   1030  PerfInfo/SampledProfile, no stack: pc Checkout+0x40, Checkout+0x24,
//   ...   Main+0x10, child.exe+0x1234 twice, child.exe+0x5678 (one each)
Bytes jit_stack_trace() {
    constexpr uint8_t ps = 8;
    LogfileSpec logfile = one_cpu_logfile();
    BufferSpec cpu0{.cpu = 0};
    cpu0.records = {
        kernel_record(0x0503, 999, 0, 0, thread_payload(ps, 300, 301, 8)),
        kernel_record(0x030A, 1000, 300, 301,
                      image_payload(ps, 0x7FF600000000, 0x20000, 300, u"\\Device\\HarddiskVolume2\\tools\\child.exe")),
        process_300_event(kDotNetRuntime, 152, 1, 1001, clr_module_payload(0x77, u"C:\\app\\Contoso.Shop.dll")),
        process_300_event(kDotNetRuntime, 143, 1, 1002,
                          clr_method_payload(0x77, 0x7FF900010000, 0x80, u"Contoso.Shop.Cart", u"Checkout")),
        kernel_record(kSampledProfile, 1010, kUnknownId, kUnknownId,
                      KernelPayload(ps).pointer(0x7FF900010024).u32(301).u32(1).bytes),
        kernel_record(kStackWalkStack, 1010, 300, 301,
                      KernelPayload(ps)
                          .u64(1010)
                          .u32(300)
                          .u32(301)
                          .pointer(0x7FF900010024)
                          .pointer(0x7FF900020000)
                          .pointer(0x7FF600001234)
                          .pointer(0x12345678)
                          .bytes),
        process_300_event(kDotNetRundown, 144, 1, 1020,
                          clr_method_payload(0x77, 0x7FF900020000, 0x100, u"Contoso.Shop.Program", u"Main")),
    };
    int64_t time = 1030;
    for (uint64_t pc :
         {0x7FF900010040, 0x7FF900010024, 0x7FF900020010, 0x7FF600001234, 0x7FF600001234, 0x7FF600005678}) {
        cpu0.records.push_back(kernel_record(kSampledProfile, time++, kUnknownId, kUnknownId,
                                             KernelPayload(ps).pointer(pc).u32(301).u32(1).bytes));
    }
    EtlFileBuilder builder(logfile);
    builder.add_buffer(cpu0);
    return builder.build();
}

// session_traces(): two files, one clock (100 ns ticks), both on CPU 0:
//
//   time  file    record                                         pid  tid
//    100  kernel  the header: the session starts
//    500  user    the header: its session starts 40 us later
//    990  user    DotNETRuntime id 1 (before the kernel file names 300) 300 301
//    999  kernel  Thread/DCStart: thread 301 of process 300
//   1000  kernel  Process/DCStart: pid 300 client.exe
//   1005  user    DotNETRuntime id 2                             300  301
//   1010  kernel  PerfInfo/SampledProfile, thread 301             -    -
//   1011  user    DotNETRuntime id 10                            300  301
//   1012  kernel  StackWalk/Stack of the sample: 1 kernel, 1 user frame
SessionFiles session_traces() {
    constexpr uint8_t ps = 8;
    LogfileSpec kernel_log = one_cpu_logfile();
    kernel_log.events_lost = 2;
    LogfileSpec user_log = kernel_log;
    user_log.header_timestamp = 500;
    user_log.start_time = kernel_log.start_time + 400; // FILETIME ticks are the clock's ticks here
    user_log.events_lost = 3;
    BufferSpec kernel_cpu0{.cpu = 0};
    kernel_cpu0.records = {
        kernel_record(0x0503, 999, 0, 0, thread_payload(ps, 300, 301, 8)),
        process_dc_start(1000, 300, 4, "client.exe"),
        kernel_record(kSampledProfile, 1010, kUnknownId, kUnknownId,
                      KernelPayload(ps).pointer(0xFFFFF80000001000).u32(301).u32(1).bytes),
        kernel_record(
            kStackWalkStack, 1012, 300, 301,
            KernelPayload(ps).u64(1010).u32(300).u32(301).pointer(0xFFFFF80000001000).pointer(0x7FF600001234).bytes),
    };
    BufferSpec user_cpu0{.cpu = 0};
    user_cpu0.records = {clr(1, 990, 4, 0x1, 300, 301, 1), clr(2, 1005, 4, 0x1, 300, 301, 2),
                         clr(10, 1011, 5, 0x1, 300, 301, 3)};
    EtlFileBuilder kernel_file(kernel_log);
    kernel_file.add_buffer(kernel_cpu0);
    EtlFileBuilder user_file(user_log);
    user_file.add_buffer(user_cpu0);
    return {kernel_file.build(), user_file.build()};
}

// late_names_trace(): one CPU, process 300 (client.exe), thread 301:
//
//   time  record
//   1000  Thread/DCStart, Process/DCStart
//   1005  DiskIo/ReadInit of IRP 0x1A1
//   1010  DiskIo/Read of 4096 bytes, FileObject 0xF1 (named only at 2000), IRP 0x1A1
//   1015  FileIo/Name: 0xF2 is \Device\HarddiskVolume2\data\early.txt
//   1018  DiskIo/WriteInit of IRP 0x1A2
//   1020  DiskIo/Write of 512 bytes, FileObject 0xF2, IRP 0x1A2
//   1025  DiskIo/ReadInit of IRP 0x1A3
//   1030  DiskIo/Read of 8192 bytes, FileObject 0xF3 (never named), IRP 0x1A3
//   1040  DiskIo/ReadInit of IRP 0x1A1 again (the IRP used for another I/O)
//   1045  DiskIo/WriteInit of IRP 0x1FF (never completed)
//   1050  DiskIo/Read of 1024 bytes, FileObject 0xF2, IRP 0x1A1
//   2000  FileIo/Rundown: 0xF1 is \Device\HarddiskVolume2\data\late.txt,
//         0xF2 is \Device\HarddiskVolume2\data\renamed.txt
//   2001  SysConfig/VolumeMapping: \Device\HarddiskVolume22\ is E:\ (a
//         longer name that must not match), \Device\HarddiskVolume2\ is C:\ too
Bytes late_names_trace() {
    constexpr uint8_t ps = 8;
    constexpr uint16_t kDiskRead = 0x010A, kDiskWrite = 0x010B, kFileName = 0x0400, kFileRundown = 0x0424;
    constexpr uint16_t kDiskReadInit = 0x010C, kDiskWriteInit = 0x010D;
    constexpr uint8_t kVolumeMapping = 35;
    LogfileSpec logfile = one_cpu_logfile();
    auto disk = [](uint16_t hook, int64_t time, uint32_t bytes, uint64_t file, uint64_t irp) {
        return encode_kernel({hook, 2, time, kUnknownId, kUnknownId,
                              KernelPayload(ps)
                                  .u32(1)
                                  .u32(0x60043)
                                  .u32(bytes)
                                  .u32(0)
                                  .u64(8192)
                                  .pointer(file)
                                  .pointer(irp)
                                  .u64(50)
                                  .u32(301)
                                  .bytes},
                             ps);
    };
    auto init = [](uint16_t hook, int64_t time, uint64_t irp) {
        return encode_kernel({hook, 2, time, kUnknownId, kUnknownId, KernelPayload(ps).pointer(irp).u32(301).bytes},
                             ps);
    };
    auto name = [](uint16_t hook, int64_t time, uint64_t file, std::u16string_view path) {
        return encode_kernel({hook, 2, time, kUnknownId, kUnknownId, KernelPayload(ps).pointer(file).wide(path).bytes},
                             ps);
    };
    auto volume = [](int64_t time, std::u16string_view nt, std::u16string_view dos) {
        ClassicSpec c;
        c.guid = *Guid::parse("9b79ee91-b5fd-41c0-a243-4248e266e9d0");
        c.type = kVolumeMapping;
        c.version = 2;
        c.timestamp = time;
        put_wide_text(c.payload, nt);
        put_wide_text(c.payload, dos);
        return encode(c);
    };
    BufferSpec cpu0{.cpu = 0};
    cpu0.records = {
        encode_kernel({0x0503, 3, 1000, 0, 0, thread_payload(ps, 300, 301, 8)}, ps),
        encode_kernel({0x0303, 4, 1000, 0, 0, process_payload(ps, 300, 4, 0, "client.exe", u"client")}, ps),
        init(kDiskReadInit, 1005, 0x1A1),
        disk(kDiskRead, 1010, 4096, 0xF1, 0x1A1),
        name(kFileName, 1015, 0xF2, u"\\Device\\HarddiskVolume2\\data\\early.txt"),
        init(kDiskWriteInit, 1018, 0x1A2),
        disk(kDiskWrite, 1020, 512, 0xF2, 0x1A2),
        init(kDiskReadInit, 1025, 0x1A3),
        disk(kDiskRead, 1030, 8192, 0xF3, 0x1A3),
        init(kDiskReadInit, 1040, 0x1A1),
        init(kDiskWriteInit, 1045, 0x1FF),
        disk(kDiskRead, 1050, 1024, 0xF2, 0x1A1),
        name(kFileRundown, 2000, 0xF1, u"\\Device\\HarddiskVolume2\\data\\late.txt"),
        name(kFileRundown, 2000, 0xF2, u"\\Device\\HarddiskVolume2\\data\\renamed.txt"),
        volume(2001, u"\\Device\\HarddiskVolume22\\", u"E:\\"),
        volume(2001, u"\\Device\\HarddiskVolume2\\", u"C:\\"),
    };
    EtlFileBuilder builder(logfile);
    builder.add_buffer(cpu0);
    return builder.build();
}

Bytes corrupt_trace() {
    Bytes file = sample_multi_cpu(kCorruptCpus, kCorruptPerCpu, kCorruptBufferSize);
    // The buffer's end of data points past the buffer.
    put_at(file, kCorruptBufferOffset + buffer_layout::kOffset, 2 * kCorruptBufferSize);
    return file;
}

// pmc_trace(): one CPU, a kernel that samples hardware counters:
//
//   time  record (header pid/tid)                 payload
//   1000  Process/DCStart (0/0)                   pid 300 child.exe
//   1001  Thread/DCStart (0/0)                    pid 300 tid 301
//   1002  PerfInfo/CollectionStart (PERFINFO)     source 0 Timer, interval 10000
//   1003  PerfInfo/CollectionStart (PERFINFO)     source 19 TotalCycles, interval 65536
//   1004  PerfInfo/CollectionStart (PERFINFO)     source 25 InstructionRetired, interval 100000
//   1005  PerfInfo/SetInterval (PERFINFO)         source 25 InstructionRetired, 100000 -> 200000
//   1006  PerfInfo/PmcCounterConfig (PERFINFO)    2 counters: TotalCycles, InstructionRetired
//   1010  PerfInfo/PmcCounterProfile (PERFINFO)   source 19, thread 301, ip 0x7ff600001234
//   1011  PerfInfo/PmcCounterProfile (PERFINFO)   source 25, thread 301, ip 0xfffff80000001000
//   1012  PerfInfo/PmcCounterProfile (PERFINFO)   source 19, thread 301, ip 0x7ff600001300
//   1013  PerfInfo/PmcCounterProfile (PERFINFO)   source 11 (Windows' BranchMispredictions), thread 301
//   1014  PerfInfo/PmcCounterProfile (PERFINFO)   source 40 (named by nobody), thread 301
//   1020  PerfInfo/CollectionEnd (PERFINFO)       source 19 TotalCycles
//   1021  PerfInfo/SysClEnter (PERFINFO)          with PMC counters 123456, 7890 after its header
//   1022  PerfInfo/SysClExit (PERFINFO)           without counters
Bytes pmc_trace() {
    constexpr uint8_t ps = 8;
    constexpr uint32_t kNone = kUnknownId;
    LogfileSpec logfile = one_cpu_logfile(ps);
    std::vector<KernelEvent> events;
    auto perfinfo = [&](uint8_t opcode, int64_t time, Bytes payload) {
        events.push_back({static_cast<uint16_t>(0x0F00 | opcode), 3, time, kNone, kNone, std::move(payload)});
    };
    auto interval = [&](uint8_t opcode, int64_t time, uint32_t source, uint32_t now, uint32_t before,
                        std::u16string_view name) {
        perfinfo(opcode, time, KernelPayload(ps).u32(source).u32(now).u32(before).wide(name).bytes);
    };
    auto sample = [&](int64_t time, uint16_t source, uint64_t ip) {
        perfinfo(47, time, KernelPayload(ps).pointer(ip).u32(301).u16(source).u16(0).bytes);
    };
    events.push_back({0x0303, 4, 1000, 0, 0, process_payload(ps, 300, 100, 0, "child.exe", u"child.exe /c")});
    events.push_back({0x0503, 3, 1001, 0, 0, thread_payload(ps, 300, 301, 9)});
    interval(73, 1002, 0, 10000, 10000, u"Timer");
    interval(73, 1003, 19, 65536, 65536, u"TotalCycles");
    interval(73, 1004, 25, 100000, 100000, u"InstructionRetired");
    interval(72, 1005, 25, 200000, 100000, u"InstructionRetired");
    perfinfo(48, 1006, KernelPayload(ps).u32(2).wide(u"TotalCycles").wide(u"InstructionRetired").bytes);
    sample(1010, 19, 0x7FF600001234);
    sample(1011, 25, 0xFFFFF80000001000);
    sample(1012, 19, 0x7FF600001300);
    sample(1013, 11, 0x7FF600001400);
    sample(1014, 40, 0x7FF600001500);
    interval(74, 1020, 19, 65536, 65536, u"TotalCycles");
    BufferSpec cpu0{.cpu = 0};
    for (const KernelEvent &e : events) {
        cpu0.records.push_back(encode_kernel(e, ps));
    }
    KernelRecord counted;
    counted.form = KernelRecord::Form::PerfInfo;
    counted.hook_id = 0x0F33;
    counted.timestamp = 1021;
    counted.pmc_counters = {123456, 7890};
    counted.payload = KernelPayload(ps).pointer(0xFFFFF80000005000).bytes;
    cpu0.records.push_back(encode(counted));
    cpu0.records.push_back(encode_kernel({0x0F34, 2, 1022, kNone, kNone, KernelPayload(ps).u32(0).bytes}, ps));
    EtlFileBuilder builder(logfile);
    builder.add_buffer(cpu0);
    return builder.build();
}

} // namespace dtrace::etw::fixture
