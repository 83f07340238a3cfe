// live_timer_test.cpp: the SDK's live timers as the host routes them: an
// asking plugin's add_live_timer reaches the first other plugin that takes
// it, remove_live_timer gives it back, and the taker names the user
// addresses the asker's probes recorded.
#include "fake_sink.h"
#include "host/abi.h"
#include "host/plugin_host.h"

#include <gtest/gtest.h>

#include <vector>

namespace dtrace::host::test {
namespace {

// What the fixtures' plugins saw, and the asker's host handle.
struct Seen {
    const dtrace_host_ops *asker_ops = nullptr;
    dtrace_host *asker_host = nullptr;
    std::vector<dtrace_probe_id> taken, removed;
    uint64_t interval = 0;
    uint32_t flags = 0;
} seen;

int asker_init(dtrace_host *host, const dtrace_host_ops *ops, void **) {
    seen.asker_host = host;
    seen.asker_ops = ops;
    return 0;
}
int quiet_init(dtrace_host *, const dtrace_host_ops *, void **) {
    return 0;
}
int declines(void *, dtrace_probe_id, uint64_t, uint32_t) {
    return -1;
}
int takes(void *, dtrace_probe_id probe, uint64_t interval, uint32_t flags) {
    seen.taken.push_back(probe);
    seen.interval = interval;
    seen.flags = flags;
    return 0;
}
void gives_back(void *, dtrace_probe_id probe) {
    seen.removed.push_back(probe);
}
int names_user(void *, uint32_t space, int64_t, uint64_t, dtrace_symbol *out) {
    if (space != DTRACE_SYMBOL_USER)
        return -1;
    out->module = "prog";
    out->function = "main";
    return 0;
}

dtrace_plugin_ops table(const char *name, decltype(dtrace_plugin_ops::init) init) {
    dtrace_plugin_ops ops{};
    ops.struct_size = sizeof ops;
    ops.abi_version = DTRACE_SDK_ABI_VERSION;
    ops.name = name;
    ops.init = init;
    return ops;
}

struct Loaded {
    FakeSink sink;
    PluginHost host{sink};
    explicit Loaded(std::vector<const dtrace_plugin_ops *> plugins) {
        seen = {};
        PluginConfig config;
        config.discover = false;
        config.builtins = std::move(plugins);
        EXPECT_TRUE(host.load(config).empty());
    }
};

TEST(LiveTimer, TheFirstPluginThatTakesItFiresAndNamesTheAskersAddresses) {
    const dtrace_plugin_ops asker = table("asker", asker_init);
    dtrace_plugin_ops decliner = table("decliner", quiet_init);
    decliner.add_live_timer = declines;
    dtrace_plugin_ops taker = table("taker", quiet_init);
    taker.add_live_timer = takes;
    taker.remove_live_timer = gives_back;
    taker.lookup_symbol = names_user;
    Loaded loaded({&asker, &decliner, &taker});
    LoadedPlugin *asking = loaded.host.find("asker");

    EXPECT_FALSE(loaded.host.lookup_symbol(asking, DTRACE_SYMBOL_USER, 5, 0x40)) << "nothing taken yet";
    ASSERT_EQ(seen.asker_ops->add_live_timer(seen.asker_host, 17, 1003009, DTRACE_TIMER_PER_CPU), 0);
    EXPECT_EQ(seen.taken, std::vector<dtrace_probe_id>{17});
    EXPECT_EQ(seen.interval, 1003009u);
    EXPECT_EQ(seen.flags, DTRACE_TIMER_PER_CPU);
    auto named = loaded.host.lookup_symbol(asking, DTRACE_SYMBOL_USER, 5, 0x40);
    ASSERT_TRUE(named);
    EXPECT_EQ(named->module, "prog");
    EXPECT_EQ(named->function, "main");

    seen.asker_ops->remove_live_timer(seen.asker_host, 17);
    EXPECT_EQ(seen.removed, std::vector<dtrace_probe_id>{17});
    EXPECT_FALSE(loaded.host.lookup_symbol(asking, DTRACE_SYMBOL_USER, 5, 0x40));
    seen.asker_ops->remove_live_timer(seen.asker_host, 17); // twice: nothing more happens
    EXPECT_EQ(seen.removed.size(), 1u);
}

TEST(LiveTimer, NobodyTakesItWhenNoPluginCanOrOnlyTheAskerCould) {
    dtrace_plugin_ops asker = table("asker", asker_init);
    asker.add_live_timer = takes; // a plugin is never offered its own timer
    dtrace_plugin_ops old = table("old", quiet_init);
    old.add_live_timer = takes;
    old.struct_size = abi::kPluginOpsConsumeActionSize; // built before the entry existed
    Loaded loaded({&asker, &old});
    EXPECT_EQ(seen.asker_ops->add_live_timer(seen.asker_host, 3, 1000000, 0), -1);
    EXPECT_TRUE(seen.taken.empty());
}

} // namespace
} // namespace dtrace::host::test
