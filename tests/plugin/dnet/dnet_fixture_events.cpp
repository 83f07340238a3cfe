// dnet_fixture_events.cpp: the events of dnet_fixture_events.h and their two files.
#include "dnet_fixture_events.h"

#include <string>

#include "etl_file_builder.h"
#include "nettrace_builder.h"
#include "record_encoder.h"

namespace dtrace::dnet::fixture {

namespace {

using Bytes = std::vector<uint8_t>;
using etw::nettrace::fixture::put_u16;
using etw::nettrace::fixture::put_u32;
using etw::nettrace::fixture::put_u64;
using etw::nettrace::fixture::put_utf16z;

constexpr uint16_t kClrInstance = 7;
constexpr uint64_t kGcKeyword = 0x1;
constexpr uint64_t kJitKeyword = 0x10;
constexpr uint64_t kExceptionKeyword = 0x8000;

void put_pointer(Bytes &b, uint8_t pointer_size, uint64_t value) {
    if (pointer_size == 4) {
        put_u32(b, static_cast<uint32_t>(value));
    } else {
        put_u64(b, value);
    }
}

// GCStart v2: Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber.
RuntimeEvent gc_start(int64_t t, uint32_t count, uint32_t depth, uint32_t reason) {
    RuntimeEvent e{t, 1, 2, kGcKeyword, 4, {}};
    put_u32(e.payload, count);
    put_u32(e.payload, depth);
    put_u32(e.payload, reason);
    put_u32(e.payload, 0);
    put_u16(e.payload, kClrInstance);
    put_u64(e.payload, 0);
    return e;
}

// GCEnd v1: Count, Depth, ClrInstanceID.
RuntimeEvent gc_end(int64_t t, uint32_t count, uint32_t depth) {
    RuntimeEvent e{t, 2, 1, kGcKeyword, 4, {}};
    put_u32(e.payload, count);
    put_u32(e.payload, depth);
    put_u16(e.payload, kClrInstance);
    return e;
}

// GCAllocationTick v2: AllocationAmount, AllocationKind, ClrInstanceID,
// AllocationAmount64, TypeID, TypeName, HeapIndex; v3 adds Address; v4 (newer
// than the manifest) adds ObjectSize.
RuntimeEvent allocation_tick(uint8_t ps, int64_t t, uint8_t version, uint32_t amount, const std::string &type) {
    RuntimeEvent e{t, 10, version, kGcKeyword, 5, {}};
    put_u32(e.payload, amount);
    put_u32(e.payload, 0);
    put_u16(e.payload, kClrInstance);
    put_u64(e.payload, amount);
    put_pointer(e.payload, ps, 0x7000 + amount);
    put_utf16z(e.payload, type);
    put_u32(e.payload, 0);
    if (version >= 3) {
        put_pointer(e.payload, ps, 0x20001000);
    }
    if (version >= 4) {
        put_u64(e.payload, 24);
    }
    return e;
}

// ExceptionThrown v1: ExceptionType, ExceptionMessage, ExceptionEIP,
// ExceptionHRESULT, ExceptionFlags, ClrInstanceID.
RuntimeEvent exception(uint8_t ps, int64_t t, const std::string &type, const std::string &message, uint32_t hresult) {
    RuntimeEvent e{t, 80, 1, kExceptionKeyword, 2, {}};
    put_utf16z(e.payload, type);
    put_utf16z(e.payload, message);
    put_pointer(e.payload, ps, 0x40001234);
    put_u32(e.payload, hresult);
    put_u16(e.payload, 16);
    put_u16(e.payload, kClrInstance);
    return e;
}

// MethodLoadVerbose v1: MethodID, ModuleID, MethodStartAddress, MethodSize,
// MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature,
// ClrInstanceID.
RuntimeEvent method_load(int64_t t, uint64_t start, const std::string &space, const std::string &name) {
    RuntimeEvent e{t, 143, 1, kJitKeyword, 5, {}};
    put_u64(e.payload, 0x1000 + start);
    put_u64(e.payload, 0x77);
    put_u64(e.payload, start);
    put_u32(e.payload, 0x80);
    put_u32(e.payload, 0x06000001);
    put_u32(e.payload, 0);
    put_utf16z(e.payload, space);
    put_utf16z(e.payload, name);
    put_utf16z(e.payload, "void  ()");
    put_u16(e.payload, kClrInstance);
    return e;
}

} // namespace

std::vector<RuntimeEvent> runtime_events(uint8_t ps) {
    return {
        method_load(500, 0x40010000, "Contoso.Shop.Cart", "Checkout"),
        allocation_tick(ps, 900, 3, 102400, "System.String"),
        allocation_tick(ps, 950, 2, 204800, "System.Byte[]"),
        allocation_tick(ps, 960, 4, 51200, "System.String"),
        gc_start(1000, 1, 0, 0),
        gc_end(1250, 1, 0),
        exception(ps, 2000, "System.InvalidOperationException", "the cart is empty", 0x80131509),
        exception(ps, 2500, "System.IO.FileNotFoundException", "Could not find file 'a.txt'.", 0x80070002),
        allocation_tick(ps, 2800, 3, 409600, "Contoso.Shop.Item[]"),
        gc_start(3000, 2, 1, 1),
        gc_end(3900, 2, 1),
        gc_start(5000, 3, 2, 1),
        allocation_tick(ps, 5100, 3, 102400, "System.String"),
        gc_end(9100, 3, 2),
    };
}

std::vector<uint8_t> runtime_nettrace(uint32_t version, uint8_t ps) {
    using namespace etw::nettrace::fixture;
    TraceSpec spec;
    spec.version = version;
    spec.pointer_size = ps;
    spec.process_id = kPid;
    spec.frequency = 1000000000; // ns ticks
    spec.sync_ticks = 0;
    NetTraceBuilder b(spec);
    const bool v6 = version >= 6;
    const uint64_t thread = v6 ? 1 : kTid;
    if (v6) {
        b.threads({{1, kPid, kTid}});
    }
    const std::vector<RuntimeEvent> events = runtime_events(ps);
    std::vector<MetadataSpec> metadata;
    std::vector<EventSpec> rows;
    for (const RuntimeEvent &e : events) {
        uint32_t id = 0;
        for (const MetadataSpec &m : metadata) {
            id = m.event_id == e.id && m.version == e.version ? m.id : id;
        }
        if (id == 0) {
            id = static_cast<uint32_t>(metadata.size() + 1);
            metadata.push_back(
                {id, "Microsoft-Windows-DotNETRuntime", e.id, "", e.keywords, e.version, e.level, 0, {}, {}});
        }
        EventSpec row;
        row.metadata_id = id;
        row.thread = thread;
        row.timestamp = e.time_us * 1000;
        row.payload = e.payload;
        rows.push_back(std::move(row));
    }
    b.metadata(metadata);
    b.events(rows);
    return b.finish();
}

std::vector<uint8_t> runtime_etl(uint8_t ps) {
    using namespace etw::fixture;
    LogfileSpec logfile;
    logfile.pointer_size = ps;
    logfile.number_of_processors = 1;
    BufferSpec cpu0{.cpu = 0};
    for (const RuntimeEvent &e : runtime_events(ps)) {
        EventHeaderSpec h;
        h.pointer_size = ps;
        h.provider = *etw::Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
        h.id = e.id;
        h.version = e.version;
        h.level = e.level;
        h.keyword = e.keywords;
        h.timestamp = 1000 + e.time_us * 10; // QPC at 10 MHz
        h.pid = kPid;
        h.tid = kTid;
        h.payload = e.payload;
        cpu0.records.push_back(encode(h));
    }
    EtlFileBuilder builder(logfile);
    builder.add_buffer(cpu0);
    return builder.build();
}

} // namespace dtrace::dnet::fixture
