// plugin_counters_test.cpp: pmc["name"] as the host serves it (cli/plugin_counters):
// names resolved once by the plugin that declares the array, a plugin that
// declines handing over to the next one, refusals and an unloaded plugin
// explained, and counts read through the plugin with the firing's context.
#include "cli/plugin_counters.h"

#include "fake_sink.h"
#include "host/plugin_host.h"

#include <gtest/gtest.h>

#include <cstring>

namespace dtrace::cli {
namespace {

int init_nothing(dtrace_host *, const dtrace_host_ops *, void **) {
    return 0;
}

// Serves "faults" (cookie 7): the firing's pid times 10.
int resolve_faults(void *, const char *name, uint64_t *cookie, const char **why) {
    if (std::strcmp(name, "faults") == 0) {
        *cookie = 7;
        return 0;
    }
    *why = "unknown counter";
    return -1;
}
int read_faults(void *, uint64_t cookie, const dtrace_event_ctx *ctx, uint64_t *value) {
    if (cookie != 7 || ctx->pid < 0)
        return -1;
    *value = static_cast<uint64_t>(ctx->pid) * 10;
    return 0;
}
// Serves nothing in this session.
int decline(void *, const char *, uint64_t *, const char **why) {
    *why = nullptr;
    return -1;
}

dtrace_plugin_ops table(const char *name, decltype(dtrace_plugin_ops::resolve_counter) resolve) {
    dtrace_plugin_ops ops{};
    ops.struct_size = sizeof ops;
    ops.abi_version = DTRACE_SDK_ABI_VERSION;
    ops.name = name;
    ops.init = init_nothing;
    ops.counter_array = "pmc";
    ops.resolve_counter = resolve;
    ops.read_counter = read_faults;
    return ops;
}

struct Fixture {
    explicit Fixture(std::vector<const dtrace_plugin_ops *> builtins) : host(sink), counters(host) {
        host::PluginConfig config;
        config.discover = false;
        config.builtins = std::move(builtins);
        EXPECT_TRUE(host.load(config).empty());
        counters.install(options);
    }
    host::test::FakeSink sink;
    host::PluginHost host;
    PluginCounters counters;
    compiler::CompileOptions options;
};

TEST(PluginCounters, ADecliningPluginHandsTheNameToTheNextAndReadsGoToTheResolver) {
    const dtrace_plugin_ops first = table("declines", decline), second = table("serves", resolve_faults);
    Fixture f({&first, &second});
    EXPECT_TRUE(f.options.is_counter_array("pmc"));
    EXPECT_FALSE(f.options.is_counter_array("other"));
    const compiler::PluginCounter faults = f.options.resolve_counter("pmc", "faults");
    EXPECT_EQ(faults.error, "");
    EXPECT_EQ(f.options.resolve_counter("pmc", "faults").id, faults.id) << "one id per name";
    dtrace_event_ctx ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.pid = 4;
    uint64_t value = 0;
    ASSERT_TRUE(f.counters.read_counter(faults.id, ctx, value));
    EXPECT_EQ(value, 40u);
    ctx.pid = -1;
    EXPECT_FALSE(f.counters.read_counter(faults.id, ctx, value)) << "the plugin's -1 is a failed read";
    EXPECT_FALSE(f.counters.read_counter(faults.id + 1, ctx, value)) << "an id nobody handed out";
}

TEST(PluginCounters, RefusalsSayWhy) {
    const dtrace_plugin_ops serves = table("serves", resolve_faults), declines = table("declines", decline);
    Fixture refusing({&serves});
    EXPECT_EQ(refusing.options.resolve_counter("pmc", "cycles").error, "unknown counter");
    Fixture declining({&declines});
    EXPECT_EQ(declining.options.resolve_counter("pmc", "faults").error,
              "no loaded plugin serves these counters in this session");
}

} // namespace
} // namespace dtrace::cli
