// Probes registered after enable() and from several threads at once: they
// are matched against the clauses already enabled, fire at once, and the
// probe table stays consistent while it grows under firing threads.
#include "compiler/compile.h"
#include "compiler/parser.h"
#include "engine/engine.h"
#include "engine_test_util.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace dtrace::test {
namespace {

class LateProbes : public ::testing::Test {
  protected:
    void SetUp() override {
        core = add_provider(engine.probes(), "dtrace");
        for (const char *name : {"BEGIN", "END", "ERROR"})
            engine.add_probe(core, probe_info(name));
        engine.set_core_probes(1, 2, 3);
        late = add_provider(engine.probes(), "late");
        first = engine.add_probe(late, probe_info("p-first"));
        engine.set_enable_hook([this](engine::Probe &probe) {
            armed.push_back(probe.name);
            if (on_arm)
                on_arm(probe);
            return Status{};
        });
    }

    int enable(const char *source) {
        auto parsed = compiler::parse_program(source, {});
        EXPECT_TRUE(parsed.program) << parsed.error->message;
        auto compiled = compiler::compile(*parsed.program, {});
        EXPECT_TRUE(compiled.program) << compiled.error->message;
        program = std::move(*compiled.program);
        auto enabled = engine.enable(program, true); // as -Z: some descriptions match only later
        EXPECT_TRUE(enabled) << enabled.error().reason;
        int matched = enabled ? *enabled : -1;
        EXPECT_GT(matched, 0);
        engine.go();
        return matched;
    }

    void fire(dtrace_probe_id probe) {
        dtrace_event_ctx ctx{};
        ctx.struct_size = sizeof ctx;
        ctx.pid = ctx.tid = 1;
        engine.fire(probe, ctx);
    }

    int64_t count_of(const char *aggregation) { return test::count_of(engine, aggregation); }

    engine::Options options;
    engine::Engine engine{options};
    compiler::Program program;
    dtrace_provider_id core = 0, late = 0;
    dtrace_probe_id first = 0;
    std::vector<std::string> armed;
    std::function<void(engine::Probe &)> on_arm;
};

TEST_F(LateProbes, AProbeRegisteredAfterEnableGainsTheMatchingClauses) {
    EXPECT_EQ(enable("late:::p-* { @n = count(); } late:::other { @o = count(); }"), 1);
    dtrace_probe_id second = engine.add_probe(late, probe_info("p-second"));
    dtrace_probe_id unmatched = engine.add_probe(late, probe_info("q-third"));
    EXPECT_EQ(armed, (std::vector<std::string>{"p-first", "p-second"})) << "only the matching probe is armed";
    fire(first);
    fire(second);
    fire(second);
    fire(unmatched);
    EXPECT_EQ(count_of("n"), 3);
    const engine::Probe *p = engine.probes().probe(second);
    ASSERT_EQ(p->ecbs.size(), 1u);
    EXPECT_EQ(engine.ecb(p->ecbs[0]->epid), p->ecbs[0]) << "the late ECB is found by its epid";
    EXPECT_TRUE(engine.probes().probe(unmatched)->ecbs.empty());
}

TEST_F(LateProbes, ALateProbeGainsEveryMatchingClauseInEnablingOrder) {
    enable("late:::p-* { @a = count(); } late::: { @b = count(); } late:::nothing-else { @c = count(); }");
    dtrace_probe_id second = engine.add_probe(late, probe_info("p-second"));
    const engine::Probe *p = engine.probes().probe(second);
    ASSERT_EQ(p->ecbs.size(), 2u);
    EXPECT_LT(p->ecbs[0]->epid, p->ecbs[1]->epid);
    fire(second);
    EXPECT_EQ(count_of("a"), 1);
    EXPECT_EQ(count_of("b"), 1);
    EXPECT_EQ(count_of("c"), 0);
}

TEST_F(LateProbes, AProbeRegisteredWhileArmingAnotherIsMatchedOnce) {
    // A plugin that registers more probes from its enable(), on the same
    // thread (a pid provider finding a library as it arms a probe).
    on_arm = [this](engine::Probe &probe) {
        if (probe.name == "p-first")
            engine.add_probe(late, probe_info("p-from-enable"));
    };
    EXPECT_EQ(enable("late:::p-* { @n = count(); }"), 2) << "the probe registered during enable() counts as matched";
    dtrace_probe_id extra = engine.probes().lookup(late, "", "", "p-from-enable");
    ASSERT_NE(extra, 0u);
    EXPECT_EQ(engine.probes().probe(extra)->ecbs.size(), 1u) << "matched by the walk or by add_probe, not both";
    fire(extra);
    EXPECT_EQ(count_of("n"), 1);
}

TEST_F(LateProbes, TheLateProbeHookHearsAProbeOnceWithAllItsClauses) {
    enable("late:::p-* { @a = count(); } late::: { @b = count(); }");
    std::vector<std::pair<std::string, size_t>> heard; // probe, its ECBs then
    engine.set_late_probe_hook([&](engine::Probe &probe) {
        heard.emplace_back(probe.name, probe.ecbs.size());
        return Status{};
    });
    engine.add_probe(late, probe_info("p-second"));
    engine.add_probe(late, probe_info("p-second")); // registered again: nothing new
    engine.add_probe(core, probe_info("unmatched"));
    EXPECT_EQ(heard, (std::vector<std::pair<std::string, size_t>>{{"p-second", 2}}));
    EXPECT_EQ(armed.back(), "p-second") << "armed before the hook runs";
}

TEST_F(LateProbes, ALateProbeHookFailureIsReportedAndTheProbeStillFires) {
    enable("late:::p-* { @n = count(); }");
    engine.set_late_probe_hook([](engine::Probe &) { return Status{Failure{"no filters for you"}}; });
    testing::internal::CaptureStderr();
    dtrace_probe_id second = engine.add_probe(late, probe_info("p-second"));
    std::string said = testing::internal::GetCapturedStderr();
    EXPECT_NE(said.find("no filters for you"), std::string::npos) << said;
    fire(second);
    EXPECT_EQ(count_of("n"), 1);
}

TEST_F(LateProbes, ARefusedLateProbeStaysUnarmedAndDoesNotFire) {
    enable("late:::p-* { @n = count(); }");
    engine.set_enable_hook([](engine::Probe &) { return Status{Failure{"the plugin refuses"}}; });
    testing::internal::CaptureStderr();
    dtrace_probe_id refused = engine.add_probe(late, probe_info("p-refused"));
    std::string said = testing::internal::GetCapturedStderr();
    EXPECT_NE(said.find("the plugin refuses"), std::string::npos) << said;
    EXPECT_TRUE(engine.probes().probe(refused)->ecbs.empty());
    fire(refused);
    EXPECT_EQ(count_of("n"), 0);
}

// Two threads register probes and fire them while a third fires an old one:
// every firing after a registration returned is counted. (The ThreadSanitizer
// build runs this to find races the counts cannot show.)
TEST_F(LateProbes, ThreadsRegisterAndFireConcurrently) {
    enable("late:::p-* { @n = count(); }");
    constexpr int kProbesPerThread = 300, kFiresPerProbe = 5, kOldFires = 2000;
    std::atomic<bool> go{false};
    auto worker = [&](int t) {
        while (!go.load())
            std::this_thread::yield();
        for (int i = 0; i < kProbesPerThread; i++) {
            dtrace_probe_id id = engine.add_probe(late, probe_info("p-" + std::to_string(t) + "-" + std::to_string(i)));
            for (int k = 0; k < kFiresPerProbe; k++)
                fire(id);
        }
    };
    std::thread a(worker, 1), b(worker, 2);
    std::thread old([&] {
        while (!go.load())
            std::this_thread::yield();
        for (int i = 0; i < kOldFires; i++)
            fire(first);
    });
    go.store(true);
    a.join();
    b.join();
    old.join();
    EXPECT_EQ(count_of("n"), 2 * kProbesPerThread * kFiresPerProbe + kOldFires);
    EXPECT_EQ(engine.probes().probe_count(), 3u + 1u + 2u * kProbesPerThread);
}

} // namespace
} // namespace dtrace::test
