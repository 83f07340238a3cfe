// real_files_test.cpp: the reader over the real traces in ../shared/data/etl.
//
// These files were recorded by Windows and .NET tools (see SOURCES.md there)
// and are not part of the repository, so every test skips with a message
// when the directory is absent. The counts were observed with this reader
// and cross-checked with an independent walker; where PerfView's baseline
// lists decoded events (gcevents, primitive-types), the tests parse it and
// compare its counts, times, pids, tids, CPUs, payload lengths and logfile
// header fields with what the reader delivers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "reader/etl_reader.h"
#include "reader/extended_items.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw {
namespace {

const std::string kDataDir = ETW_SHARED_DATA_DIR;

std::string etl_path(const std::string &name) {
    return kDataDir + "/etl/" + name;
}

#define SKIP_WITHOUT_SHARED_DATA()                                                                                     \
    if (!std::filesystem::exists(kDataDir + "/etl")) {                                                                 \
        GTEST_SKIP() << "no sample traces: " << kDataDir << "/etl is absent";                                          \
    }

struct Summary {
    ReaderStats stats;
    LogfileHeader header;
    std::vector<uint16_t> cpus;
    std::map<std::pair<std::string, uint16_t>, int> by_provider_and_id; // (GUID, id or opcode)
};

Summary summarize(const std::string &name) {
    Summary s;
    Result<EtlReader> reader = EtlReader::open(etl_path(name));
    EXPECT_TRUE(reader) << reader.error();
    if (!reader) {
        return s;
    }
    Event e;
    while (reader.value().next(e)) {
        uint16_t key = e.kind == RecordKind::EventHeader ? e.id : e.opcode;
        ++s.by_provider_and_id[{e.provider.to_string(), key}];
    }
    s.stats = reader.value().stats();
    s.header = reader.value().logfile();
    s.cpus = reader.value().cpus();
    return s;
}

void expect_clean(const Summary &s) {
    EXPECT_EQ(s.stats.corrupt_buffers, 0u);
    EXPECT_EQ(s.stats.problem_count, 0u);
    EXPECT_EQ(s.stats.out_of_order_events, 0u);
    EXPECT_EQ(s.stats.skipped_records, 0u);
}

int count(const Summary &s, const std::string &guid, uint16_t key) {
    auto it = s.by_provider_and_id.find({guid, key});
    return it == s.by_provider_and_id.end() ? 0 : it->second;
}

const std::string kEventTrace = "68fdd900-4a3e-11d1-84f4-0000f80464e3";
const std::string kDotNetRuntime = "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4";

TEST(RealFiles, AmsiTraceTraceLoggingEventsInBuffersOutOfSequence) {
    SKIP_WITHOUT_SHARED_DATA();
    Summary s = summarize("AMSITrace.etl");
    expect_clean(s);
    EXPECT_EQ(s.stats.events, 21u);
    EXPECT_EQ(s.stats.records_of(RecordKind::System), 2u);
    EXPECT_EQ(s.stats.records_of(RecordKind::EventHeader), 19u);
    EXPECT_EQ(s.stats.buffers, 6u);
    EXPECT_EQ(s.cpus, (std::vector<uint16_t>{0, 2, 3, 5, 7}));
    EXPECT_EQ(count(s, "8e805eb3-6a8f-4a1e-90fa-a831d94e54a1", 0), 19); // AmsiTrace (TraceLogging)
    EXPECT_EQ(s.header.logger_name, "AMSITraceSession");
    EXPECT_EQ(s.header.events_lost, 3u);
    EXPECT_EQ(s.header.buffer_size, 0x10000u);
}

TEST(RealFiles, SelfDescribingSingleEventHasCompressedRelogBuffers) {
    SKIP_WITHOUT_SHARED_DATA();
    Summary s = summarize("SelfDescribingSingleEvent.etl");
    expect_clean(s);
    EXPECT_EQ(s.stats.events, 23u);
    EXPECT_EQ(s.stats.records_of(RecordKind::System), 4u);
    EXPECT_EQ(s.stats.records_of(RecordKind::Classic), 18u);
    EXPECT_EQ(s.stats.records_of(RecordKind::EventHeader), 1u);
    EXPECT_EQ(s.stats.buffers, 3u);
    EXPECT_EQ(s.stats.compressed_buffers, 2u);
    EXPECT_EQ(s.header.logger_name, "Relogger");
    EXPECT_EQ(s.header.log_file_name, "[multiple files]");
    EXPECT_EQ(s.header.log_file_mode & 0x04010000u, 0x04010000u);        // RELOG | COMPRESSED
    EXPECT_EQ(count(s, "a61ea624-4944-55fc-c2a8-37838829438d", 3), 1);   // MySource (TraceLogging)
    EXPECT_EQ(count(s, "9b79ee91-b5fd-41c0-a243-4248e266e9d0", 35), 10); // SysConfig VolumeMapping
    EXPECT_EQ(count(s, kEventTrace, 80), 3);
}

TEST(RealFiles, ShutdownPerfDiagLoggerIsAKernelTrace) {
    SKIP_WITHOUT_SHARED_DATA();
    Summary s = summarize("ShutdownPerfDiagLogger.etl");
    expect_clean(s);
    EXPECT_EQ(s.stats.events, 17078u);
    EXPECT_EQ(s.stats.records_of(RecordKind::System), 8433u);
    EXPECT_EQ(s.stats.records_of(RecordKind::PerfInfo), 8645u);
    EXPECT_EQ(s.stats.buffers, 49u);
    EXPECT_EQ(s.cpus, (std::vector<uint16_t>{0, 1}));
    const std::string process = "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c";
    const std::string thread = "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c";
    const std::string image = "2cb15d1d-5fc1-11d2-abe1-00a0c911f518";
    EXPECT_EQ(count(s, process, 2), 60);  // Process/End
    EXPECT_EQ(count(s, process, 3), 94);  // Process/DCStart
    EXPECT_EQ(count(s, process, 11), 60); // Process/Terminate
    EXPECT_EQ(count(s, thread, 1), 350);  // Thread/Start
    EXPECT_EQ(count(s, thread, 2), 1032); // Thread/End
    EXPECT_EQ(count(s, thread, 3), 1175); // Thread/DCStart
    EXPECT_EQ(count(s, image, 10), 72);   // Image/Load (Process group hook 0x030A)
    EXPECT_EQ(count(s, image, 2), 4791);  // Image/Unload
    EXPECT_EQ(count(s, image, 3), 196 + 6549);
    EXPECT_EQ(s.header.logger_name, "PerfDiag Logger");
    EXPECT_EQ(s.header.number_of_processors, 2u);
}

TEST(RealFiles, PowershellManifestEvents) {
    SKIP_WITHOUT_SHARED_DATA();
    Summary s = summarize("powershell.etl");
    expect_clean(s);
    EXPECT_EQ(s.stats.events, 114u);
    EXPECT_EQ(s.stats.records_of(RecordKind::EventHeader), 112u);
    EXPECT_EQ(s.cpus, (std::vector<uint16_t>{0, 2, 4, 6, 7, 10, 11, 14}));
    const std::string powershell = "a0c1853b-5c40-4b15-8766-3cf1c58f985a";
    int total = 0;
    for (const auto &[key, n] : s.by_provider_and_id) {
        total += key.first == powershell ? n : 0;
    }
    EXPECT_EQ(total, 112);
    EXPECT_EQ(count(s, powershell, 7937), 101);
    EXPECT_EQ(count(s, powershell, 40961), 1);
    EXPECT_EQ(s.header.buffer_size, 0x2000u);
}

// ---- PerfView baselines ----

struct BaselineEvent {
    std::string type; // "Provider/Task/Opcode" as PerfView names it
    double ms = 0;    // relative to the trace header
    std::map<std::string, std::string> fields;
};

struct Baseline {
    std::vector<BaselineEvent> events;
    std::map<std::string, int> counts;
};

Baseline read_baseline(const std::string &name) {
    Baseline b;
    std::ifstream in(etl_path(name));
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("COUNT ", 0) == 0) {
            size_t colon = line.rfind(':');
            b.counts[line.substr(6, colon - 6)] = std::stoi(line.substr(colon + 1));
        } else if (line.rfind("EVENT ", 0) == 0) {
            BaselineEvent e;
            size_t colon = line.find(": ");
            std::string ms = line.substr(6, colon - 6);
            std::erase(ms, ',');
            e.ms = std::stod(ms);
            size_t fields = line.find(" PID=", colon);
            e.type = line.substr(colon + 2, fields - colon - 2);
            std::stringstream rest(line.substr(fields + 1));
            std::string field;
            while (std::getline(rest, field, ';')) {
                size_t eq = field.find('=');
                if (eq != std::string::npos) {
                    size_t start = field.find_first_not_of(' ');
                    e.fields[field.substr(start, eq - start)] = field.substr(eq + 1);
                }
            }
            b.events.push_back(std::move(e));
        }
    }
    return b;
}

int64_t number(const std::string &text) {
    std::string digits = text;
    std::erase(digits, ',');
    return std::stoll(digits);
}

// The TraceLogging event name from an EVENT_SCHEMA_TL item: u16 size, tag
// bytes (while the high bit is set), then the name.
std::string tracelogging_event_name(const ExtendedItem &schema) {
    size_t at = sizeof(uint16_t);
    while (at < schema.data.size() && (schema.data[at] & 0x80)) {
        ++at;
    }
    ++at;
    std::string name;
    while (at < schema.data.size() && schema.data[at] != 0) {
        name.push_back(static_cast<char>(schema.data[at++]));
    }
    return name;
}

// What PerfView calls an event, for the providers of the two baselines.
std::string perfview_type(const Event &e) {
    static const std::map<uint16_t, std::string> kClrEvents = {{1, "GC/Start"},
                                                               {2, "GC/Stop"},
                                                               {3, "GC/RestartEEStop"},
                                                               {4, "GC/HeapStats"},
                                                               {5, "GC/CreateSegment"},
                                                               {7, "GC/RestartEEStart"},
                                                               {8, "GC/SuspendEEStop"},
                                                               {9, "GC/SuspendEEStart"},
                                                               {10, "GC/AllocationTick"},
                                                               {13, "GC/FinalizersStop"},
                                                               {14, "GC/FinalizersStart"},
                                                               {29, "GC/FinalizeObject"},
                                                               {33, "GC/PinObjectAtGCTime"},
                                                               {35, "GC/Triggered"},
                                                               {187, "Runtime/Start"},
                                                               {202, "GC/MarkWithType"},
                                                               {204, "GC/PerHeapHistory"},
                                                               {205, "GC/GlobalHeapHistory"},
                                                               {208, "GC/LOHCompact"},
                                                               {209, "GC/FitBucketInfo"}}; // ClrEtwAll.man event values
    if (e.kind == RecordKind::System && e.hook_id == 0) {
        return "Windows Kernel/EventTrace";
    }
    if (e.provider.to_string() == kDotNetRuntime) {
        auto it = kClrEvents.find(e.id);
        return it == kClrEvents.end() ? "" : "Microsoft-Windows-DotNETRuntime/" + it->second;
    }
    std::optional<ExtendedItem> traits = find_extended_item(e, ext_type::kProvTraits);
    std::optional<ExtendedItem> schema = find_extended_item(e, ext_type::kEventSchemaTl);
    if (traits && schema) {
        return std::string(provider_traits_name(*traits).value_or("")) + "/" + tracelogging_event_name(*schema);
    }
    return "";
}

struct Seen {
    double ms;
    Event event; // spans cleared
};

void check_against_baseline(const std::string &trace, const std::string &baseline_name) {
    Baseline baseline = read_baseline(baseline_name);
    ASSERT_FALSE(baseline.counts.empty());
    Result<EtlReader> opened = EtlReader::open(etl_path(trace));
    ASSERT_TRUE(opened) << opened.error();
    EtlReader &reader = opened.value();
    std::map<std::string, int> counts;
    std::multimap<std::string, Seen> seen;
    Event e;
    while (reader.next(e)) {
        std::string type = perfview_type(e);
        if (type.empty()) {
            continue;
        }
        ++counts[type];
        Event copy = e;
        copy.record = copy.payload = copy.extended = copy.pmc_counters = {};
        seen.emplace(type, Seen{reader.clock().since_start_ns(e.timestamp) / 1e6, copy});
    }
    EXPECT_EQ(reader.stats().corrupt_buffers, 0u);
    EXPECT_EQ(counts, baseline.counts);

    // Every event PerfView lists is delivered with its context.
    for (const BaselineEvent &b : baseline.events) {
        auto [from, to] = seen.equal_range(b.type);
        const Seen *match = nullptr;
        for (auto it = from; it != to; ++it) {
            if (std::abs(it->second.ms - b.ms) < 0.0015) {
                match = &it->second;
            }
        }
        ASSERT_NE(match, nullptr) << b.type << " at " << b.ms << " ms";
        EXPECT_EQ(match->event.pid, number(b.fields.at("PID"))) << b.type << " at " << b.ms;
        EXPECT_EQ(match->event.tid, number(b.fields.at("TID"))) << b.type << " at " << b.ms;
        EXPECT_EQ(match->event.cpu, number(b.fields.at("ProceNum"))) << b.type << " at " << b.ms;
    }
    // Payload lengths (DataLen) of the events of each type PerfView shows first.
    Event first;
    Result<EtlReader> again = EtlReader::open(etl_path(trace));
    ASSERT_TRUE(again);
    std::map<std::string, uint64_t> first_len;
    while (again.value().next(first)) {
        std::string type = perfview_type(first);
        if (!type.empty()) {
            first_len.emplace(type, first.payload.size());
        }
    }
    std::map<std::string, bool> checked;
    for (const BaselineEvent &b : baseline.events) {
        if (!checked[b.type]) {
            checked[b.type] = true;
            EXPECT_EQ(first_len[b.type], static_cast<uint64_t>(number(b.fields.at("DataLen")))) << b.type;
        }
    }

    // The logfile header fields PerfView prints for the EventTrace event.
    const BaselineEvent &h = baseline.events.front();
    ASSERT_EQ(h.type, "Windows Kernel/EventTrace");
    const LogfileHeader &lf = reader.logfile();
    uint32_t version =
        lf.major_version | (lf.minor_version << 8) | (lf.sub_version << 16) | (uint32_t{lf.sub_minor_version} << 24);
    EXPECT_EQ(lf.buffer_size, number(h.fields.at("BufferSize")));
    EXPECT_EQ(version, number(h.fields.at("Version")));
    EXPECT_EQ(lf.provider_version, number(h.fields.at("ProviderVersion")));
    EXPECT_EQ(lf.number_of_processors, number(h.fields.at("NumberOfProcessors")));
    EXPECT_EQ(lf.timer_resolution, number(h.fields.at("TimerResolution")));
    EXPECT_EQ(lf.maximum_file_size, number(h.fields.at("MaxFileSize")));
    EXPECT_EQ(lf.log_file_mode, number(h.fields.at("LogFileMode")));
    EXPECT_EQ(lf.buffers_written, number(h.fields.at("BuffersWritten")));
    EXPECT_EQ(lf.start_buffers, number(h.fields.at("StartBuffers")));
    EXPECT_EQ(lf.pointer_size, number(h.fields.at("PointerSize")));
    EXPECT_EQ(lf.events_lost, number(h.fields.at("EventsLost")));
    EXPECT_EQ(lf.cpu_speed_mhz, number(h.fields.at("CPUSpeed")));
    EXPECT_EQ(lf.perf_freq, number(h.fields.at("PerfFreq")));
    EXPECT_EQ(lf.clock_type, number(h.fields.at("ReservedFlags")));
    EXPECT_EQ(lf.buffers_lost, number(h.fields.at("BuffersLost")));
    EXPECT_EQ(lf.time_zone_bias_minutes, number(h.fields.at("UtcOffsetMinutes")));
    EXPECT_EQ(lf.logger_name, h.fields.at("SessionName"));
    std::string file_prefix = h.fields.at("LogFileName");
    file_prefix = file_prefix.substr(0, file_prefix.find("..."));
    EXPECT_EQ(lf.log_file_name.rfind(file_prefix, 0), 0u) << lf.log_file_name;
}

TEST(RealFiles, GcEventsMatchPerfViewsBaseline) {
    SKIP_WITHOUT_SHARED_DATA();
    check_against_baseline("gcevents.etl.zip", "gcevents.baseline.txt");
    Summary s = summarize("gcevents.etl.zip");
    expect_clean(s);
    EXPECT_EQ(s.stats.events, 71u);
    EXPECT_EQ(s.stats.records_of(RecordKind::EventHeader), 69u);
    EXPECT_EQ(s.cpus, (std::vector<uint16_t>{0, 2, 4, 6, 7}));
    EXPECT_EQ(s.header.log_file_mode, 0x08000002u); // circular
}

TEST(RealFiles, PrimitiveTypesMatchPerfViewsBaseline) {
    SKIP_WITHOUT_SHARED_DATA();
    check_against_baseline("primitive-types.etl.zip", "primitive-types.baseline.txt");
    Summary s = summarize("primitive-types.etl.zip");
    expect_clean(s);
    EXPECT_EQ(s.stats.events, 7u);
    EXPECT_EQ(s.stats.records_of(RecordKind::EventHeader), 5u);
}

} // namespace
} // namespace dtrace::etw
