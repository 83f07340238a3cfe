// dispatch_test.cpp: registration, enabling and firing, through a recording host.
//
// The plugin's pieces run as in dtrace (EtwPlugin over the fixture trace,
// written to a temporary file) but the host is a recorder, so the tests see
// every probe registered and every firing with its arguments, context and
// the memory its pointer arguments lead to.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>
#include <unistd.h>

#include "etl_file_builder.h"
#include "etw_plugin.h"
#include "event_header_image.h"
#include "reader/le_bytes.h"
#include "reader/trace_clock.h"
#include "recording_host.h"
#include "replay_traces.h"

namespace dtrace::etw::plugin {
namespace {

using test::Firing;
using test::RecordingHost;

const std::string kClr = "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4";
const std::string kEverything = "0xff_0xffffffffffffffff";
// replay.etl's clock: FILETIME 133000000000000000 at raw 100, 100 ns ticks.
constexpr int64_t kStartNs = (133000000000000000LL - kFiletimeUnixEpoch) * 100;

uint64_t time_of(int64_t raw) {
    return static_cast<uint64_t>(kStartNs + (raw - 100) * 100);
}

std::string text_at(const Firing &f, size_t arg) {
    const std::vector<uint8_t> &m = f.memory.at(arg);
    return std::string(m.begin(), std::find(m.begin(), m.end(), 0));
}

class TempTrace {
  public:
    explicit TempTrace(const fixture::Bytes &bytes, const char *name = "replay.etl")
        : path_(std::filesystem::temp_directory_path() /
                ("etw_plugin_test_" + std::to_string(::getpid()) + "_" + name)) {
        fixture::write_file(path_, bytes);
    }
    ~TempTrace() { std::filesystem::remove(path_); }
    const std::string &path() const { return path_; }

  private:
    std::string path_;
};

class Replay : public ::testing::Test {
  protected:
    void SetUp() override { host.options["replay"] = trace.path(); }

    // init(), then the probes' enabling, then a whole replay.
    void run(const std::vector<dtrace_probe_id> &enable, const std::vector<dtrace_probe_spec> &specs = {}) {
        for (dtrace_probe_id id : enable) {
            ASSERT_NE(id, 0u);
            ASSERT_EQ(plugin.set_enabled(host.probes.at(id - 1).cookie, true), 0);
        }
        ASSERT_EQ(plugin.start(), 0);
        ASSERT_TRUE(host.wait_finished());
        plugin.stop();
    }

    dtrace_probe_id id(const std::string &provider, const std::string &module, const std::string &function,
                       const std::string &name) {
        return host.probe(provider, module, function, name);
    }

    TempTrace trace{fixture::replay_trace()};
    RecordingHost host;
    EtwPlugin plugin{host.host(), host.ops()};
};

TEST(EtwPluginInit, WithoutReplayItRegistersNothing) {
    RecordingHost host;
    EtwPlugin plugin(host.host(), host.ops());
    EXPECT_EQ(plugin.init(), 0);
    EXPECT_EQ(plugin.provide(nullptr), 0);
    EXPECT_EQ(plugin.start(), 0);
    plugin.stop();
    EXPECT_TRUE(host.providers.empty());
    EXPECT_TRUE(host.firings.empty());
    EXPECT_EQ(host.finished, 0);
}

TEST(EtwPluginInit, AMissingFileSaysLiveEtwNeedsWindows) {
    RecordingHost host;
    host.options["replay"] = "/nonexistent/trace.etl";
    EtwPlugin plugin(host.host(), host.ops());
    EXPECT_EQ(plugin.init(), -1);
    ASSERT_EQ(host.errors.size(), 1u);
    EXPECT_EQ(host.errors[0], "/nonexistent/trace.etl: No such file or directory (recording live ETW needs "
                              "Windows; -E takes an existing .etl, .etl.zip, .nettrace or .nettrace.zip file)");
}

TEST(EtwPluginInit, AFileThatIsNoTraceIsRefusedWithTheReadersReason) {
    TempTrace junk(fixture::Bytes(0x1000, 0x5A), "junk.etl");
    RecordingHost host;
    host.options["replay"] = junk.path();
    EtwPlugin plugin(host.host(), host.ops());
    EXPECT_EQ(plugin.init(), -1);
    ASSERT_EQ(host.errors.size(), 1u);
    EXPECT_EQ(host.errors[0].rfind(junk.path() + ": buffer at offset 0x0: ", 0), 0u) << host.errors[0];
}

TEST_F(Replay, RegistersTheProvidersAndProbesOfTheFile) {
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    EXPECT_EQ(host.providers, (std::vector<std::string>{"etw", "diag",
                                                        // the kernel providers, whatever the file
                                                        "proc", "sched", "io", "fsinfo", "reg", "pf", "tcpip", "udpip",
                                                        "dpc", "isr", "syscall", "sampled", "pmc",
                                                        // the file's, from the catalog pass
                                                        "eventtrace", "process", "thread",
                                                        "microsoft-windows-dotnetruntime", "kerneltracecontrol-imageid",
                                                        "fixture.provider", "perfinfo", "stackwalk", "rt_lostevent"}));
    for (const char *name : {"events", "lostevent", "missed-stack"}) {
        EXPECT_NE(id("diag", "", "", name), 0u) << name;
    }
    for (const char *name : {"generic_event", "1", "2", "3", "4", "10"}) {
        EXPECT_NE(id("etw", kClr, kEverything, name), 0u) << name;
    }
    EXPECT_EQ(id("etw", kClr, kEverything, "5"), 0u);
    EXPECT_NE(id("microsoft-windows-dotnetruntime", "", "", "events"), 0u);
    EXPECT_NE(id("fixture.provider", "", "", "events"), 0u);
    // 3 diag + (generic + ids) per provider: 2+2+2+6+2+2+2+2+2, the TraceLogging
    // event name, the 9 named providers' events, and the kernel providers' probes.
    EXPECT_EQ(host.probes.size(), 3u + 22u + 1u + 9u + kernel::kernel_probe_table().size());
    EXPECT_NE(id("etw", "4f50731a-89cf-4782-b3e0-dce8c90476ba", kEverything, "Greeting"), 0u);
    EXPECT_TRUE(host.errors.empty());
}

TEST_F(Replay, DiagProbesAloneNeedNoCatalogPass) {
    ASSERT_EQ(plugin.init(), 0);
    const dtrace_probe_spec diag = {sizeof diag, "diag", "", "", "events"};
    ASSERT_EQ(plugin.provide(&diag), 0);
    EXPECT_EQ(host.providers, (std::vector<std::string>{"etw", "diag", "proc", "sched", "io", "fsinfo", "reg", "pf",
                                                        "tcpip", "udpip", "dpc", "isr", "syscall", "sampled", "pmc"}))
        << "the file was not read for its providers (only the kernel providers, which it always has, are there)";
    const dtrace_probe_id events = id("diag", "", "", "events");
    run({events});
    const std::vector<Firing> fired = host.firings_of(events);
    ASSERT_EQ(fired.size(), fixture::kReplayRecords);
    // Providers are still named, and each name keeps one address (@[arg0] keys on it).
    std::map<std::string, std::set<uint64_t>> addresses;
    for (const Firing &f : fired) {
        addresses[text_at(f, 0)].insert(f.args[0]);
    }
    for (const char *name : {"EventTrace", "Process", "Microsoft-Windows-DotNETRuntime", "Fixture.Provider"}) {
        ASSERT_EQ(addresses.count(name), 1u) << name;
        EXPECT_EQ(addresses[name].size(), 1u) << name;
    }
}

TEST_F(Replay, ADescriptionOfOtherProbesReadsTheCatalog) {
    ASSERT_EQ(plugin.init(), 0);
    EXPECT_EQ(id("etw", kClr, kEverything, "10"), 0u);
    const dtrace_probe_spec etw = {sizeof etw, "etw", "", "", ""};
    ASSERT_EQ(plugin.provide(&etw), 0);
    EXPECT_NE(id("etw", kClr, kEverything, "10"), 0u);
}

TEST_F(Replay, DiagEventsFiresForEveryRecordInTimeOrderWithItsContext) {
    ASSERT_EQ(plugin.init(), 0);
    const dtrace_probe_id events = id("diag", "", "", "events");
    run({events});
    std::vector<Firing> fired = host.firings_of(events);
    ASSERT_EQ(fired.size(), fixture::kReplayRecords);
    EXPECT_EQ(host.firings.size(), fired.size());
    EXPECT_EQ(host.finished, 1);
    for (size_t i = 1; i < fired.size(); ++i) {
        EXPECT_LE(fired[i - 1].timestamp, fired[i].timestamp);
    }
    const Firing &header = fired[0];
    EXPECT_EQ(text_at(header, 0), "EventTrace");
    EXPECT_EQ(header.timestamp, time_of(100));

    const Firing &gc_start = fired[4]; // raw 1010
    EXPECT_EQ(text_at(gc_start, 0), "Microsoft-Windows-DotNETRuntime");
    EXPECT_EQ(gc_start.args[1], 1u); // id
    EXPECT_EQ(gc_start.args[2], 1u); // opcode
    EXPECT_EQ(gc_start.args[3], 6u); // payload length
    EXPECT_EQ(gc_start.memory[4], (std::vector<uint8_t>{1, 0, 0, 0, 7, 0}));
    EXPECT_EQ(gc_start.timestamp, time_of(1010));
    EXPECT_EQ(gc_start.walltimestamp, gc_start.timestamp);
    EXPECT_EQ(gc_start.cpu, 0u);
    EXPECT_EQ(gc_start.pid, 100);
    EXPECT_EQ(gc_start.tid, 101);
    EXPECT_EQ(gc_start.execname, "app.exe");
    EXPECT_EQ(gc_start.ppid, 4);
    EXPECT_EQ(gc_start.flags, DTRACE_EVENT_REPLAYED);
    EXPECT_EQ(gc_start.payload_size, 6u);

    // raw 1035, PERFINFO: no ids in the record, but its stack (which the
    // replay attaches though the file was not read for its providers) is
    // thread 101's of process 100.
    const Firing &sample = fired[9];
    EXPECT_EQ(text_at(sample, 0), "PerfInfo");
    EXPECT_EQ(sample.args[2], 46u);
    EXPECT_EQ(sample.pid, 100);
    EXPECT_EQ(sample.tid, 101);
    EXPECT_EQ(sample.execname, "app.exe");
    EXPECT_EQ(sample.cpu, 1u);
    EXPECT_EQ(sample.kernel_stack.size(), 2u);
}

TEST_F(Replay, UnenabledDiagEventsStillFiresWithoutArgumentsForTraceTime) {
    ASSERT_EQ(plugin.init(), 0);
    run({});
    const std::vector<Firing> fired = host.firings_of(id("diag", "", "", "events"));
    ASSERT_EQ(fired.size(), fixture::kReplayRecords);
    EXPECT_TRUE(fired[0].args.empty());
    EXPECT_EQ(host.firings.size(), fired.size());
}

// Clauses that read no argument of diag:::events (`@ = count()`, as the
// host's probe_usage says) get none: the event's provider label and payload
// are not made for them. It fires for the same events at the same times, and
// diag:::lostevent still gets its arguments.
TEST_F(Replay, DiagEventsReadWithoutArgumentsFiresWithout) {
    ASSERT_EQ(plugin.init(), 0);
    const dtrace_probe_id events = id("diag", "", "", "events");
    const dtrace_probe_id lost = id("diag", "", "", "lostevent");
    host.usage_flags[events] = DTRACE_USAGE_TIMESTAMP;
    host.usage_flags[lost] = 0;
    run({events, lost});
    const std::vector<Firing> fired = host.firings_of(events);
    ASSERT_EQ(fired.size(), fixture::kReplayRecords);
    for (const Firing &f : fired) {
        EXPECT_TRUE(f.args.empty());
    }
    EXPECT_EQ(fired[4].timestamp, time_of(1010));
    EXPECT_EQ(fired[4].pid, 100);
    const std::vector<Firing> lost_fired = host.firings_of(lost);
    ASSERT_EQ(lost_fired.size(), 1u);
    EXPECT_EQ(text_at(lost_fired[0], 0), "RT_LostEvent");
    // diag:::events first, then diag:::lostevent, for the lost event as for any other.
    const auto lost_at =
        std::find_if(host.firings.begin(), host.firings.end(), [&](const Firing &f) { return f.probe == lost; });
    ASSERT_NE(lost_at, host.firings.begin());
    EXPECT_EQ((lost_at - 1)->probe, events);
    EXPECT_EQ((lost_at - 1)->timestamp, lost_at->timestamp);
}

TEST_F(Replay, DiagEventsReadWithArgumentsHasThem) {
    ASSERT_EQ(plugin.init(), 0);
    const dtrace_probe_id events = id("diag", "", "", "events");
    host.usage_flags[events] = DTRACE_USAGE_ARGS;
    run({events});
    const std::vector<Firing> fired = host.firings_of(events);
    ASSERT_EQ(fired.size(), fixture::kReplayRecords);
    ASSERT_EQ(fired[4].args.size(), 5u);
    EXPECT_EQ(text_at(fired[4], 0), "Microsoft-Windows-DotNETRuntime");
}

TEST_F(Replay, OnlyTheHeaderRecordsComeBeforeTheDataInTraceTime) {
    ASSERT_EQ(plugin.init(), 0);
    run({id("diag", "", "", "events")});
    const std::vector<Firing> fired = host.firings_of(id("diag", "", "", "events"));
    ASSERT_EQ(fired.size(), fixture::kReplayRecords);
    EXPECT_EQ(fired[0].flags, DTRACE_EVENT_REPLAYED | DTRACE_EVENT_BEFORE_DATA) << "the logfile header";
    for (size_t i = 1; i < fired.size(); ++i) {
        EXPECT_EQ(fired[i].flags, DTRACE_EVENT_REPLAYED) << "record " << i;
    }
}

TEST_F(Replay, EtwProbesByIdAndGenericEventHandOutTheEventHeader) {
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    const dtrace_probe_id alloc = id("etw", kClr, kEverything, "10");
    const dtrace_probe_id generic = id("etw", kClr, kEverything, "generic_event");
    run({alloc, generic});
    const std::vector<Firing> ticks = host.firings_of(alloc);
    ASSERT_EQ(ticks.size(), 2u);
    EXPECT_EQ(host.firings_of(generic).size(), 6u);
    const Firing &f = ticks[1];
    EXPECT_EQ(f.args[1], kEventHeaderImageSize + 6);
    const std::vector<uint8_t> &image = f.memory[0];
    ASSERT_EQ(image.size(), kEventHeaderImageSize + 6);
    namespace L = event_header_layout;
    EXPECT_EQ(load_u16(image.data() + L::kId), 10);
    EXPECT_EQ(image[L::kLevel], 5);
    EXPECT_EQ(load_u64(image.data() + L::kKeyword), 0x8001u);
    EXPECT_EQ(load_u32(image.data() + L::kThreadId), 102u);
    EXPECT_EQ(load_u32(image.data() + kEventHeaderImageSize), 2000u);
}

TEST_F(Replay, SpecsWithALevelAndKeywordMakeFilteredProbes) {
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    const dtrace_probe_spec verbose_exceptions = {sizeof(dtrace_probe_spec), "etw", "", "0x05_0x0000000000008000",
                                                  "generic_event"};
    const dtrace_probe_spec informational_gc = {sizeof(dtrace_probe_spec), "etw", "e13c*", "0x04_0x0000000000000001",
                                                ""};
    const dtrace_probe_spec glob = {sizeof(dtrace_probe_spec), "etw", "", "0x*", ""};
    const size_t before = host.probes.size();
    ASSERT_EQ(plugin.provide(&glob), 0);
    EXPECT_EQ(host.probes.size(), before) << "a glob in the function field only matches listed probes";
    ASSERT_EQ(plugin.provide(&verbose_exceptions), 0);
    ASSERT_EQ(plugin.provide(&informational_gc), 0);
    const dtrace_probe_id exceptions = id("etw", kClr, "0x05_0x0000000000008000", "generic_event");
    const dtrace_probe_id gc_alloc = id("etw", kClr, "0x04_0x0000000000000001", "10");
    const dtrace_probe_id gc_all = id("etw", kClr, "0x04_0x0000000000000001", "generic_event");
    const dtrace_probe_id tracelogging =
        id("etw", "4f50731a-89cf-4782-b3e0-dce8c90476ba", "0x05_0x0000000000008000", "generic_event");
    run({exceptions, gc_alloc, gc_all, tracelogging});
    EXPECT_EQ(host.firings_of(exceptions).size(), 1u);   // the AllocationTick with keyword 0x8001
    EXPECT_EQ(host.firings_of(tracelogging).size(), 1u); // keyword 0 passes any mask
    EXPECT_EQ(host.firings_of(gc_alloc).size(), 0u);     // both AllocationTicks are level 5
    EXPECT_EQ(host.firings_of(gc_all).size(), 4u);       // GCStart, GCEnd, GCHeapStats, GCRestartEEStop
}

TEST_F(Replay, ProviderNameProbesFollowTheDtraceEtwConvention) {
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    const dtrace_probe_id clr = id("microsoft-windows-dotnetruntime", "", "", "events");
    const dtrace_probe_id tl = id("fixture.provider", "", "", "events");
    run({clr, tl});
    const std::vector<Firing> fired = host.firings_of(clr);
    ASSERT_EQ(fired.size(), 6u);
    EXPECT_EQ(fired[1].args[0], 2u); // GCEnd
    EXPECT_EQ(fired[1].args[1], 2u);
    EXPECT_EQ(fired[1].args[3], 6u);
    EXPECT_EQ(fired[1].memory[2], (std::vector<uint8_t>{1, 0, 0, 0, 7, 0}));
    const std::vector<Firing> hello = host.firings_of(tl);
    ASSERT_EQ(hello.size(), 1u);
    EXPECT_EQ(hello[0].args[3], 32u); // "hello", 7, {300, 400} and a GUID
    EXPECT_EQ(text_at(hello[0], 2), "hello");
    EXPECT_EQ(hello[0].execname, "tool.exe");
    EXPECT_EQ(hello[0].ppid, 100);
}

TEST_F(Replay, TraceLoggingEventsAreTypedAndDecodedFromTheirOwnSchema) {
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    const dtrace_probe_id greeting = id("etw", "4f50731a-89cf-4782-b3e0-dce8c90476ba", kEverything, "Greeting");
    ASSERT_NE(greeting, 0u);
    EXPECT_EQ(host.probes[greeting - 1].nargs, 4u); // text, count, values, id
    run({greeting});
    const std::vector<Firing> fired = host.firings_of(greeting);
    ASSERT_EQ(fired.size(), 1u);
    const Firing &f = fired[0];
    ASSERT_EQ(f.args.size(), 2u + 4u);
    EXPECT_EQ(text_at(f, 2), "hello");
    EXPECT_EQ(f.args[3], 7u);
    EXPECT_EQ(f.memory[4].size() >= 4 ? load_u16(f.memory[4].data() + 2) : 0, 400);
    ASSERT_GE(f.memory[5].size(), Guid::kSize);
    EXPECT_EQ(Guid::from_bytes(f.memory[5].data()), fixture::kImageId);
}

TEST_F(Replay, LostEventsAndStacksAttachedToTheirEvents) {
    ASSERT_EQ(plugin.init(), 0);
    // As dtrace asks for sampled:::profile: the file is read for its providers
    // (and its StackWalk events, which stacks are attached from).
    const dtrace_probe_spec sampled = {sizeof sampled, "sampled", "", "", "profile"};
    ASSERT_EQ(plugin.provide(&sampled), 0);
    const dtrace_probe_id lost = id("diag", "", "", "lostevent");
    const dtrace_probe_id stack = id("diag", "", "", "missed-stack");
    const dtrace_probe_id sample = id("sampled", "MSNT_SystemTrace", "PerfInfo", "profile");
    run({lost, stack, sample});
    const std::vector<Firing> lost_fired = host.firings_of(lost);
    ASSERT_EQ(lost_fired.size(), 1u);
    EXPECT_EQ(text_at(lost_fired[0], 0), "RT_LostEvent");
    EXPECT_EQ(lost_fired[0].timestamp, time_of(1040));
    // The sample's stack follows it: it goes to the sample, not to missed-stack.
    EXPECT_TRUE(host.firings_of(stack).empty());
    const std::vector<Firing> samples = host.firings_of(sample);
    ASSERT_EQ(samples.size(), 1u);
    EXPECT_EQ(samples[0].timestamp, time_of(1035));
    EXPECT_EQ(samples[0].tid, 101);
    EXPECT_EQ(samples[0].kernel_stack, (std::vector<uint64_t>{0xFFFFF80000001000, 0xFFFFF80000002000}));
    EXPECT_EQ(samples[0].user_stack, (std::vector<uint64_t>{0x00007FF600001000}));
}

TEST_F(Replay, ADisabledProbeStopsFiring) {
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    const dtrace_probe_id generic = id("etw", kClr, kEverything, "generic_event");
    ASSERT_EQ(plugin.set_enabled(host.probes.at(generic - 1).cookie, true), 0);
    ASSERT_EQ(plugin.set_enabled(host.probes.at(generic - 1).cookie, false), 0);
    run({});
    EXPECT_TRUE(host.firings_of(generic).empty());
    EXPECT_EQ(plugin.set_enabled(1u << 20, true), -1);
    EXPECT_EQ(host.errors.back(), "no such etw probe");
}

TEST(EtwPluginReplay, ACorruptBufferIsReportedAndTheReplayGoesOn) {
    TempTrace corrupt(fixture::corrupt_trace(), "corrupt.etl");
    RecordingHost host;
    host.options["replay"] = corrupt.path();
    EtwPlugin plugin(host.host(), host.ops());
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.start(), 0);
    ASSERT_TRUE(host.wait_finished());
    plugin.stop();
    EXPECT_EQ(host.finished, 1);
    ASSERT_EQ(host.drops.size(), 1u);
    EXPECT_EQ(host.drops[0], (std::pair<uint64_t, dtrace_drop_kind>{1, DTRACE_DROP_CORRUPT}));
    ASSERT_EQ(host.errors.size(), 1u);
    EXPECT_EQ(host.errors[0].rfind(corrupt.path() + ": buffer at offset 0xc00: ", 0), 0u) << host.errors[0];
    const size_t per_cpu_buffer = 10; // 0x58-byte events in 0x400-byte buffers
    EXPECT_EQ(host.firings.size(), 1 + fixture::kCorruptCpus * fixture::kCorruptPerCpu - per_cpu_buffer);
}

TEST(EtwPluginReplay, StopEndsAReplayEarlyWithoutEndingTheInput) {
    TempTrace big(fixture::corrupt_trace(), "stopped.etl");
    RecordingHost host;
    host.options["replay"] = big.path();
    EtwPlugin plugin(host.host(), host.ops());
    ASSERT_EQ(plugin.init(), 0);
    plugin.stop(); // before start: harmless
    ASSERT_EQ(plugin.start(), 0);
    plugin.stop();
    EXPECT_LE(host.finished, 1);
    EXPECT_LE(host.firings.size(), 1 + fixture::kCorruptCpus * fixture::kCorruptPerCpu);
}

} // namespace
} // namespace dtrace::etw::plugin
