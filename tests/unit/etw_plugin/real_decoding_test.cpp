// real_decoding_test.cpp: payloads of real traces decoded, against PerfView's
// decoded baselines: .NET runtime events with the runtime's manifest, and
// TraceLogging events with their own schemas.
//
// The traces and ClrEtwAll.man are in ../shared/data, not in the
// repository: the tests skip with a message when they are absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "etw_plugin.h"
#include "recording_host.h"

namespace dtrace::etw::plugin {
namespace {

const std::string kDataDir = ETW_SHARED_DATA_DIR;
const std::string kTrace = kDataDir + "/etl/gcevents.etl.zip";
const std::string kBaseline = kDataDir + "/etl/gcevents.baseline.txt";
const std::string kPrimitiveTrace = kDataDir + "/etl/primitive-types.etl.zip";
const std::string kPrimitiveBaseline = kDataDir + "/etl/primitive-types.baseline.txt";
const std::string kManifest = kDataDir + "/manifests/ClrEtwAll.man";
const std::string kClr = "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4";
const std::string kEverything = "0xff_0xffffffffffffffff";

#define SKIP_WITHOUT_SHARED_DATA()                                                                                     \
    if (!std::filesystem::exists(kTrace) || !std::filesystem::exists(kManifest)) {                                     \
        GTEST_SKIP() << "no sample trace or manifest under " << kDataDir;                                              \
    }

// The fields of PerfView's "EVENT ...: <type> A=1; B=x; ..." lines of one type.
std::vector<std::map<std::string, std::string>> baseline_events(const std::string &type,
                                                                const std::string &file = kBaseline) {
    std::vector<std::map<std::string, std::string>> out;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        size_t at = line.find(": " + type + " ");
        if (line.rfind("EVENT ", 0) != 0 || at == std::string::npos) {
            continue;
        }
        std::map<std::string, std::string> fields;
        std::string rest = line.substr(at + type.size() + 3);
        for (size_t start = 0; start < rest.size();) {
            size_t end = rest.find("; ", start);
            end = end == std::string::npos ? rest.size() : end;
            std::string item = rest.substr(start, end - start);
            size_t eq = item.find('=');
            if (eq != std::string::npos) {
                fields[item.substr(0, eq)] = item.substr(eq + 1);
            }
            start = end + 2;
        }
        out.push_back(std::move(fields));
    }
    return out;
}

uint64_t number(std::string text) {
    std::erase(text, ',');
    return std::stoull(text, nullptr, 0);
}

std::string text_at(const test::Firing &f, size_t arg) {
    const std::vector<uint8_t> &m = f.memory.at(arg);
    return std::string(m.begin(), std::find(m.begin(), m.end(), 0));
}

class GcEvents : public ::testing::Test {
  protected:
    void SetUp() override {
        host.options["replay"] = kTrace;
        host.options["etwmanifest"] = kManifest;
    }
    void replay(const std::vector<dtrace_probe_id> &probes) {
        for (dtrace_probe_id id : probes) {
            ASSERT_NE(id, 0u);
            ASSERT_EQ(plugin.set_enabled(host.probes.at(id - 1).cookie, true), 0);
        }
        ASSERT_EQ(plugin.start(), 0);
        ASSERT_TRUE(host.wait_finished());
        plugin.stop();
    }
    test::RecordingHost host;
    EtwPlugin plugin{host.host(), host.ops()};
};

TEST_F(GcEvents, AllocationTickFieldsMatchPerfViewsBaseline) {
    SKIP_WITHOUT_SHARED_DATA();
    ASSERT_EQ(plugin.init(), 0) << (host.errors.empty() ? "" : host.errors[0]);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    const dtrace_probe_id tick = host.probe("etw", kClr, kEverything, "10");
    ASSERT_NE(tick, 0u);
    EXPECT_EQ(host.probes[tick - 1].nargs, 8u) << "args[] are the template's eight fields";
    replay({tick});
    const std::vector<test::Firing> fired = host.firings_of(tick);
    const auto baseline = baseline_events("Microsoft-Windows-DotNETRuntime/GC/AllocationTick");
    ASSERT_EQ(fired.size(), 12u);
    ASSERT_FALSE(baseline.empty());
    for (size_t i = 0; i < baseline.size(); ++i) {
        const auto &b = baseline[i];
        const test::Firing &f = fired[i];
        // args[0..7] are arg2..arg9: AllocationAmount, AllocationKind, ClrInstanceID,
        // AllocationAmount64, TypeID, TypeName, HeapIndex, Address (template V3).
        EXPECT_EQ(f.args[2], number(b.at("AllocationAmount"))) << i;
        EXPECT_EQ(f.args[4], number(b.at("ClrInstanceID"))) << i;
        EXPECT_EQ(f.args[5], number(b.at("AllocationAmount64"))) << i;
        EXPECT_EQ(f.args[6], number(b.at("TypeID"))) << i;
        std::string type = b.at("TypeName");
        type = type.substr(0, type.find("...")); // PerfView shortens long names
        EXPECT_EQ(text_at(f, 7).rfind(type, 0), 0u) << text_at(f, 7) << " vs " << type;
        EXPECT_EQ(f.args[8], number(b.at("HeapIndex"))) << i;
        EXPECT_EQ(f.args[9], number(b.at("Address"))) << i;
    }
}

TEST_F(GcEvents, ManifestsNameKeywordsAndTheirProviders) {
    SKIP_WITHOUT_SHARED_DATA();
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    const dtrace_probe_id gc = host.probe("microsoft-windows-dotnetruntime", "", "", "GCKeyword");
    const dtrace_probe_id exceptions = host.probe("microsoft-windows-dotnetruntime", "", "", "ExceptionKeyword");
    const dtrace_probe_id all = host.probe("microsoft-windows-dotnetruntime", "", "", "events");
    // Providers of the manifest that the trace does not hold are listed too.
    EXPECT_NE(host.probe("microsoft-windows-dotnetruntimerundown", "", "", "events"), 0u);
    EXPECT_NE(host.probe("etw", "a669021c-c450-4609-a035-5af59af4df18", kEverything, "generic_event"), 0u);
    replay({gc, exceptions, all});
    EXPECT_EQ(host.firings_of(all).size(), 69u);
    EXPECT_EQ(host.firings_of(exceptions).size(), 0u);
    // Every GC event has the GC keyword; Runtime/Start (187) does not.
    EXPECT_EQ(host.firings_of(gc).size(), 68u);
}

TEST(PrimitiveTypes, TraceLoggingFieldsMatchPerfViewsBaseline) {
    if (!std::filesystem::exists(kPrimitiveTrace)) {
        GTEST_SKIP() << "no sample trace " << kPrimitiveTrace;
    }
    test::RecordingHost host;
    host.options["replay"] = kPrimitiveTrace;
    EtwPlugin plugin(host.host(), host.ops());
    ASSERT_EQ(plugin.init(), 0);
    ASSERT_EQ(plugin.provide(nullptr), 0); // the catalog pass, as for dtrace -l
    const dtrace_probe_id probe =
        host.probe("etw", "d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615", kEverything, "PrimitiveTypesTest");
    ASSERT_NE(probe, 0u);
    ASSERT_EQ(plugin.set_enabled(host.probes.at(probe - 1).cookie, true), 0);
    ASSERT_EQ(plugin.start(), 0);
    ASSERT_TRUE(host.wait_finished());
    plugin.stop();
    const std::vector<test::Firing> fired = host.firings_of(probe);
    const auto baseline = baseline_events("solar_system/PrimitiveTypesTest", kPrimitiveBaseline);
    ASSERT_EQ(fired.size(), baseline.size());
    ASSERT_EQ(fired.size(), 5u);
    for (size_t i = 0; i < fired.size(); ++i) {
        const auto &b = baseline[i];
        const test::Firing &f = fired[i];
        // args[0..7]: string, boolean (UInt8), char (UInt8), int16, int32, uint16,
        // uint32, int64 (logged as UInt64 by this test program: compare the bits).
        EXPECT_EQ(text_at(f, 2), b.at("string_type"));
        EXPECT_EQ(f.args[3], b.at("boolean_type") == "True" ? 1u : 0u);
        EXPECT_EQ(f.args[4], number(b.at("char_type")));
        EXPECT_EQ(static_cast<int16_t>(f.args[5]), std::stoi(b.at("int16_type")));
        EXPECT_EQ(static_cast<int32_t>(f.args[6]), std::stoi(b.at("int32_type")));
        EXPECT_EQ(f.args[7], number(b.at("uint16_type")));
        EXPECT_EQ(f.args[8], number(b.at("uint32_type")));
        EXPECT_EQ(static_cast<int64_t>(f.args[9]), std::stoll(b.at("int64_type")));
    }
}

TEST(ManifestOption, ABadManifestFailsInitNamingTheFile) {
    SKIP_WITHOUT_SHARED_DATA();
    test::RecordingHost host;
    host.options["replay"] = kTrace;
    host.options["etwmanifest"] = kBaseline; // not XML
    EtwPlugin plugin(host.host(), host.ops());
    EXPECT_EQ(plugin.init(), -1);
    ASSERT_EQ(host.errors.size(), 1u);
    EXPECT_EQ(host.errors[0].rfind(kBaseline + ": line 1: malformed XML", 0), 0u) << host.errors[0];
}

} // namespace
} // namespace dtrace::etw::plugin
