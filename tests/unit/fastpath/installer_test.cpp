// The installer against a plugin of the test's own (no kernel): what goes to
// the plugin, the fallback when the kernel refuses a program (with its log
// under explain), and kernel counts merged into the engine's aggregation.
#include "compiled_clauses.h"
#include "engine/engine.h"
#include "fastpath/installer.h"
#include "host/loaded_plugin.h"
#include "host/plugin_loader.h"

#include <cstring>

using namespace dtrace;

namespace {

// What the fake plugin was asked, and how it answers.
struct FakeKernel {
    bool refuse_programs = false;
    int maps = 0, programs = 0;
    std::vector<std::pair<int32_t, uint64_t>> attached; // program, cookie
    int64_t count = 0;                                  // the value of the aggregation map's one entry
};
FakeKernel kernel;
FakeKernel other_kernel; // the second plugin's (its state)

// A plugin whose state is its FakeKernel, with provider `name`.
int register_fake(dtrace_host *host, const dtrace_host_ops *ops, void **state, const char *name, FakeKernel &k) {
    *state = &k;
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = name;
    dtrace_provider_id provider = ops->register_provider(host, &info);
    dtrace_probe_desc desc{};
    desc.struct_size = sizeof desc;
    desc.module = "";
    desc.function = "f";
    desc.name = "event";
    desc.cookie = 7;
    return ops->register_probe(host, provider, &desc) == 0 ? -1 : 0;
}

int fake_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    return register_fake(host, ops, state, "fake", kernel);
}

int other_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    return register_fake(host, ops, state, "other", other_kernel);
}

int fake_layout(void *, dtrace_probe_id, uint64_t, dtrace_fastpath_probe *out) {
    out->nargs = 2;
    out->arg_offset = 16;
    return 0;
}

int32_t fake_create_map(void *state, const dtrace_bpf_map_spec *) {
    return static_cast<FakeKernel *>(state)->maps++;
}

int32_t fake_load(void *state, const dtrace_bpf_program *program) {
    FakeKernel &k = *static_cast<FakeKernel *>(state);
    if (k.refuse_programs) {
        std::strncpy(program->log, "R0 !read_ok (fake)", program->log_size);
        return -1;
    }
    return k.programs++;
}

int fake_attach(void *state, int32_t program, dtrace_probe_id, uint64_t cookie) {
    static_cast<FakeKernel *>(state)->attached.emplace_back(program, cookie);
    return 0;
}

// Every map but the aggregation's is empty; its one entry has no key (one
// zero word) and the count split over two CPUs.
int fake_read(void *state, int32_t map, dtrace_bpf_map_entry_fn fn, void *arg) {
    const FakeKernel &k = *static_cast<FakeKernel *>(state);
    if (map != 2)
        return 0;
    const uint64_t key = 0;
    const int64_t values[2] = {k.count - 1, 1};
    fn(arg, &key, values, 2);
    return 0;
}

const dtrace_fastpath_ops kFastpath = {sizeof kFastpath, fake_layout, fake_create_map,
                                       fake_load,        fake_attach, fake_read};

dtrace_plugin_ops fake_ops(const char *name, int (*init)(dtrace_host *, const dtrace_host_ops *, void **)) {
    dtrace_plugin_ops ops{};
    ops.struct_size = sizeof ops;
    ops.abi_version = DTRACE_SDK_ABI_VERSION;
    ops.name = name;
    ops.init = init;
    ops.fastpath = &kFastpath;
    return ops;
}
const dtrace_plugin_ops kOps = fake_ops("fake", fake_init);
const dtrace_plugin_ops kOtherOps = fake_ops("other", other_init);

class FastpathInstaller : public ::testing::Test {
  protected:
    void SetUp() override {
        kernel = FakeKernel{};
        other_kernel = FakeKernel{};
        plugin = load(kOps);
    }

    std::unique_ptr<host::LoadedPlugin> load(const dtrace_plugin_ops &ops) {
        host::Result<host::PluginModule> module = host::builtin_plugin(&ops);
        EXPECT_TRUE(module.ok()) << module.reason();
        if (!module.ok())
            return nullptr;
        auto loaded = host::LoadedPlugin::create(std::move(module.value()), engine);
        EXPECT_TRUE(loaded.ok()) << loaded.reason();
        return loaded.ok() ? std::move(loaded.value()) : nullptr;
    }

    void install(const std::string &source, const char *mode = "explain") {
        program = test::compile_d(source);
        ASSERT_TRUE(program);
        auto enabled = engine.enable(*program, false);
        ASSERT_TRUE(enabled) << enabled.error().reason;
        ASSERT_GT(*enabled, 0);
        ASSERT_EQ(options.set("fastpath", mode), std::nullopt);
        auto failed = fastpath::install(
            engine, options, [&](const std::string &line) { explained += line + "\n"; }, installation);
        ASSERT_EQ(failed, std::nullopt);
    }

    engine::Options options;
    engine::Engine engine{options};
    std::unique_ptr<host::LoadedPlugin> plugin;
    std::unique_ptr<compiler::Program> program;
    std::unique_ptr<fastpath::Installation> installation;
    std::string explained;
};

} // namespace

TEST_F(FastpathInstaller, HandsTheProgramToThePluginAndMergesWhatItCounted) {
    install("fake:::event /arg1 == 3/ { @ = count(); }");
    ASSERT_TRUE(installation);
    EXPECT_EQ(kernel.attached, (std::vector<std::pair<int32_t, uint64_t>>{{0, 7}}));
    EXPECT_EQ(kernel.maps, 3); // drops, the zero value, the aggregation
    EXPECT_NE(explained.find("clause at line 1 (fake:::event) runs in the kernel on 1 probe"), std::string::npos)
        << explained;
    engine.go();
    kernel.count = 5;
    auto snapshot = engine.snapshot_aggregations();
    ASSERT_EQ(snapshot.size(), 1u);
    ASSERT_EQ(snapshot[0].entries.size(), 1u);
    EXPECT_EQ(snapshot[0].entries[0].first, "");
    EXPECT_EQ(snapshot[0].entries[0].second, (std::vector<int64_t>{5}));
    kernel.count = 8; // three more: merged once, not again
    engine.snapshot_aggregations();
    EXPECT_EQ(engine.snapshot_aggregations()[0].entries[0].second, (std::vector<int64_t>{8}));
}

TEST_F(FastpathInstaller, EachPluginsProbesRunProgramsWithMapsOfTheirOwn) {
    std::unique_ptr<host::LoadedPlugin> other = load(kOtherOps);
    ASSERT_TRUE(other);
    install("fake:::event { @a = count(); } other:::event { @b = count(); }");
    ASSERT_TRUE(installation);
    EXPECT_EQ(kernel.attached, (std::vector<std::pair<int32_t, uint64_t>>{{0, 7}}));
    EXPECT_EQ(other_kernel.attached, (std::vector<std::pair<int32_t, uint64_t>>{{0, 7}}));
    EXPECT_EQ(kernel.maps, 3); // drops, the zero value, @a
    EXPECT_EQ(other_kernel.maps, 3);
    engine.go();
    kernel.count = 5;
    other_kernel.count = 2;
    auto snapshot = engine.snapshot_aggregations();
    ASSERT_EQ(snapshot.size(), 2u);
    for (const auto &agg : snapshot) {
        ASSERT_EQ(agg.entries.size(), 1u);
        EXPECT_EQ(agg.entries[0].second, (std::vector<int64_t>{agg.decl->name == "a" ? 5 : 2})) << agg.decl->name;
    }
}

TEST_F(FastpathInstaller, WhatTwoPluginsShareStaysInUserSpace) {
    std::unique_ptr<host::LoadedPlugin> other = load(kOtherOps);
    ASSERT_TRUE(other);
    install("fake:::event { self->n++; } other:::event { self->n++; } fake:::event, other:::event { @ = count(); }");
    EXPECT_FALSE(installation);
    EXPECT_TRUE(kernel.attached.empty());
    EXPECT_TRUE(other_kernel.attached.empty());
    EXPECT_NE(explained.find("self->n is used on the probes of two plugins"), std::string::npos) << explained;
    EXPECT_NE(explained.find("its probes belong to two plugins"), std::string::npos) << explained;
}

TEST_F(FastpathInstaller, AProgramTheKernelRefusesLeavesItsClausesInUserSpaceWithTheLog) {
    kernel.refuse_programs = true;
    install("fake:::event { @ = count(); }");
    EXPECT_FALSE(installation);
    EXPECT_TRUE(kernel.attached.empty());
    EXPECT_NE(explained.find("the kernel refused the program of the clause at line 1 (fake:::event); its clauses "
                             "stay in user space. The kernel said:\nR0 !read_ok (fake)"),
              std::string::npos)
        << explained;
    EXPECT_NE(explained.find("stays in user space: the kernel refused its program"), std::string::npos) << explained;
}

TEST_F(FastpathInstaller, OffInstallsNothingAndOnSaysNothing) {
    install("fake:::event { @ = count(); }", "off");
    EXPECT_FALSE(installation);
    EXPECT_EQ(kernel.maps, 0);
    installation.reset();
    kernel = FakeKernel{};
    ASSERT_EQ(options.set("fastpath", "on"), std::nullopt);
    auto failed = fastpath::install(
        engine, options, [&](const std::string &line) { explained += line; }, installation);
    EXPECT_EQ(failed, std::nullopt);
    EXPECT_TRUE(installation);
    EXPECT_TRUE(explained.empty()) << explained;
}
