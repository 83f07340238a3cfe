// tickprov_test.cpp: the SDK's example provider (sdk/examples/tickprov),
// loaded by the host like any third-party plugin: its provider, D source,
// both ways of typing arguments, glob matching, and live delivery from its
// timer thread with a label readable through the event's memory reader.
#include "fake_sink.h"
#include "host/plugin_host.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <unistd.h>

namespace dtrace::host::test {
namespace {

using namespace std::chrono_literals;

constexpr auto kDeliveryTimeout = 5s;
constexpr auto kPollInterval = 5ms;
constexpr size_t kTicksToSee = 3;
constexpr uint64_t kFastIntervalMs = 10;

class TickProv : public ::testing::Test {
  protected:
    void SetUp() override {
        PluginConfig config;
        config.discover = false;
        config.files = {TICKPROV_PLUGIN};
        ASSERT_TRUE(host.load(config).empty());
        ASSERT_NE(host.find("tickprov"), nullptr);
    }

    dtrace_probe_id probe(const std::string &function) const {
        for (size_t i = 0; i < sink.probes.size(); ++i)
            if (sink.probes[i].info.function == function)
                return static_cast<dtrace_probe_id>(i + 1);
        return 0;
    }

    FakeSink sink;
    PluginHost host{sink};
};

TEST_F(TickProv, RegistersItsProviderWithTypesAndATranslator) {
    ASSERT_EQ(sink.providers.size(), 1u);
    EXPECT_EQ(sink.providers[0].name, "tick_example");
    EXPECT_NE(sink.providers[0].d_source.find("} tickinfo_t;"), std::string::npos);
    EXPECT_NE(sink.providers[0].d_source.find("translator tickinfo_t < uint64_t c >"), std::string::npos);
}

TEST_F(TickProv, TypesFastAtRegistrationAndSlowOnDemand) {
    ASSERT_TRUE(host.provide_all().empty());
    ASSERT_EQ(sink.probes.size(), 2u);
    const ProbeInfo &fast = sink.probes[probe("fast") - 1].info;
    EXPECT_EQ(fast.module, "timer");
    EXPECT_EQ(fast.name, "tick");
    ASSERT_EQ(fast.args.size(), 4u);
    EXPECT_EQ(fast.args[0].native_type, "uint64_t");
    EXPECT_EQ(fast.args[1].native_type, "int");
    EXPECT_EQ(fast.args[2].native_type, "char *");
    EXPECT_EQ(fast.args[3].translated_type, "tickinfo_t");
    EXPECT_EQ(fast.args[3].native_index, 0);

    const dtrace_probe_id slow = probe("slow");
    const RecordedProbe &slow_probe = sink.probes[slow - 1];
    EXPECT_FALSE(slow_probe.info.args_known);
    EXPECT_EQ(slow_probe.info.nargs, 4u);
    Result<ArgType> translated = host.arg_info(slow_probe.provider, slow, slow_probe.info.cookie, 3);
    ASSERT_TRUE(translated.ok()) << translated.reason();
    EXPECT_EQ(translated.value().native_type, "uint64_t");
    EXPECT_EQ(translated.value().translated_type, "tickinfo_t");
    Result<ArgType> beyond = host.arg_info(slow_probe.provider, slow, slow_probe.info.cookie, 4);
    ASSERT_FALSE(beyond.ok());
    EXPECT_EQ(beyond.reason(), "tick probes have four arguments");
}

TEST_F(TickProv, ProvidesOnlyWhatTheDescriptionMatches) {
    ASSERT_TRUE(host.provide({"other", "", "", ""}).empty());
    EXPECT_TRUE(sink.probes.empty());
    ASSERT_TRUE(host.provide({"tick_*", "timer", "s*", "tick"}).empty());
    ASSERT_EQ(sink.probes.size(), 1u);
    EXPECT_EQ(sink.probes[0].info.function, "slow");
}

TEST_F(TickProv, FiresEnabledTicksFromItsTimerThread) {
    ASSERT_TRUE(host.provide_all().empty());
    const dtrace_probe_id fast = probe("fast");
    const RecordedProbe &fast_probe = sink.probes[fast - 1];
    ASSERT_TRUE(host.enable(fast_probe.provider, fast, fast_probe.info.cookie).ok());
    ASSERT_TRUE(host.start_all().empty());
    const auto deadline = std::chrono::steady_clock::now() + kDeliveryTimeout;
    while (sink.fire_count() < kTicksToSee && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(kPollInterval);
    host.stop_all();
    const size_t after_stop = sink.fire_count();
    std::this_thread::sleep_for(kFastIntervalMs * 3ms);
    EXPECT_EQ(sink.fire_count(), after_stop) << "no fire() after stop()";

    ASSERT_GE(sink.fires.size(), kTicksToSee);
    for (size_t i = 0; i < sink.fires.size(); ++i) {
        const RecordedFire &f = sink.fires[i];
        EXPECT_EQ(f.probe, fast) << "only the enabled probe fires";
        ASSERT_EQ(f.args.size(), 3u);
        EXPECT_EQ(f.args[0], i + 1) << "count";
        EXPECT_EQ(f.args[1], kFastIntervalMs);
        EXPECT_EQ(f.arg_strings[2], "fast timer, 10 ms");
        EXPECT_EQ(f.arg_strings[0], "") << "a count is not an address the reader accepts";
        EXPECT_EQ(f.pid, getpid());
        EXPECT_EQ(f.flags, DTRACE_EVENT_LIVE_TARGET);
        if (i > 0) {
            EXPECT_GT(f.timestamp, sink.fires[i - 1].timestamp);
        }
    }
}

// set_filters: with both timers enabled and a filter only the slow timer's
// interval (arg1 == 100) passes, only slow ticks are fired.
TEST_F(TickProv, HonoursAFilterOnItsIntervalArgument) {
    ASSERT_TRUE(host.provide_all().empty());
    const dtrace_filter_term term{sizeof(dtrace_filter_term), DTRACE_FILTER_ARG, 1, DTRACE_FILTER_EQ, 100, nullptr};
    const dtrace_filter filter{sizeof(dtrace_filter), 1, &term};
    for (const char *function : {"fast", "slow"}) {
        const dtrace_probe_id id = probe(function);
        const RecordedProbe &p = sink.probes[id - 1];
        ASSERT_TRUE(host.enable(p.provider, id, p.info.cookie).ok());
        ASSERT_TRUE(host.set_filters(p.provider, id, p.info.cookie, 1, &filter).ok());
    }
    ASSERT_TRUE(host.start_all().empty());
    const auto deadline = std::chrono::steady_clock::now() + kDeliveryTimeout;
    while (sink.fire_count() < 2 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(kPollInterval);
    host.stop_all();
    ASSERT_GE(sink.fires.size(), 2u) << "the slow timer fires every 100 ms";
    for (const RecordedFire &f : sink.fires)
        EXPECT_EQ(f.probe, probe("slow")) << "the fast timer's interval (10) fails arg1 == 100";
}

} // namespace
} // namespace dtrace::host::test
