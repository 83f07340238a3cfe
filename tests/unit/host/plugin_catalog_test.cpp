// plugin_catalog_test.cpp: what the host learns of a plugin before init (its
// version, declared -x options and provider patterns), the checks on those
// declarations, and the catalogue's record of which plugins loaded and why
// the others did not.
#include "fake_sink.h"
#include "host/abi.h"
#include "host/plugin_host.h"

#include <gtest/gtest.h>

namespace dtrace::host::test {
namespace {

namespace fs = std::filesystem;

int quiet_init(dtrace_host *, const dtrace_host_ops *, void **) {
    return 0;
}

const dtrace_option_desc kTwoOptions[] = {
    {sizeof(dtrace_option_desc), "cat_path", DTRACE_OPTION_STRING, nullptr, "a file"},
    {sizeof(dtrace_option_desc), "cat_depth", DTRACE_OPTION_INTEGER, "3", "how deep"},
};

dtrace_plugin_ops table(const char *name) {
    dtrace_plugin_ops ops{};
    ops.struct_size = sizeof ops;
    ops.abi_version = DTRACE_SDK_ABI_VERSION;
    ops.name = name;
    ops.description = "catalogue test";
    ops.init = quiet_init;
    return ops;
}

TEST(PluginCatalog, ReadsVersionOptionsAndProvidersBeforeInit) {
    dtrace_plugin_ops ops = table("cat");
    ops.version = "2.5";
    ops.noptions = 2;
    ops.options = kTwoOptions;
    ops.providers = " cat  cat_* ";
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config;
    config.builtins = {&ops};
    config.discover = false;
    EXPECT_TRUE(host.discover(config).empty());
    ASSERT_EQ(host.catalogue().size(), 1u);
    const PluginEntry &entry = host.catalogue()[0];
    EXPECT_EQ(entry.state, PluginState::Selected);
    EXPECT_EQ(entry.version, "2.5");
    EXPECT_EQ(entry.origin, "built-in");
    ASSERT_EQ(entry.options.size(), 2u);
    EXPECT_EQ(entry.options[0].name, "cat_path");
    EXPECT_EQ(entry.options[0].kind, DTRACE_OPTION_STRING);
    EXPECT_FALSE(entry.options[0].default_value.has_value());
    EXPECT_EQ(entry.options[1].default_value, "3");
    EXPECT_EQ(entry.options[1].description, "how deep");
    EXPECT_EQ(entry.provider_patterns, (std::vector<std::string>{"cat", "cat_*"}));
    EXPECT_TRUE(host.plugins().empty()); // nothing initialised yet
    EXPECT_TRUE(host.initialise().empty());
    EXPECT_EQ(host.catalogue()[0].state, PluginState::Loaded);
    EXPECT_EQ(host.plugins().size(), 1u);
}

TEST(PluginCatalog, ATableOlderThanTheFieldsHasNone) {
    dtrace_plugin_ops ops = table("old");
    ops.version = "9";
    ops.noptions = 2;
    ops.options = kTwoOptions;
    ops.struct_size = abi::kPluginOpsConsumeActionSize; // built before version/options existed
    EXPECT_EQ(abi::plugin_version(ops), "");
    EXPECT_TRUE(abi::plugin_options(ops).empty());
    EXPECT_TRUE(abi::plugin_provider_patterns(ops).empty());
    EXPECT_TRUE(abi::check_plugin_ops(&ops).ok());
}

// Options declared by a plugin built with a later header (larger entries)
// are walked by their own struct_size.
TEST(PluginCatalog, OptionEntriesAreWalkedByTheirOwnSize) {
    struct LaterOption {
        dtrace_option_desc v1;
        uint64_t appended;
    };
    const LaterOption later[] = {
        {{sizeof(LaterOption), "first", DTRACE_OPTION_FLAG, nullptr, ""}, 0},
        {{sizeof(LaterOption), "second", DTRACE_OPTION_LIST, nullptr, ""}, 0},
    };
    dtrace_plugin_ops ops = table("later");
    ops.noptions = 2;
    ops.options = &later[0].v1;
    ASSERT_TRUE(abi::check_plugin_ops(&ops).ok());
    std::vector<abi::PluginOption> options = abi::plugin_options(ops);
    ASSERT_EQ(options.size(), 2u);
    EXPECT_EQ(options[1].name, "second");
    EXPECT_EQ(options[1].kind, DTRACE_OPTION_LIST);
}

std::string refusal(const dtrace_option_desc *options, uint32_t count) {
    dtrace_plugin_ops ops = table("bad");
    ops.noptions = count;
    ops.options = options;
    Status status = abi::check_plugin_ops(&ops);
    return status.ok() ? "accepted" : status.reason();
}

TEST(PluginCatalog, MalformedOptionDeclarationsAreRefusedWithTheirReason) {
    const dtrace_option_desc spaced[] = {{sizeof(dtrace_option_desc), "two words", DTRACE_OPTION_STRING, nullptr, ""}};
    EXPECT_EQ(refusal(spaced, 1), "its option #1 has a name that is not an identifier: 'two words'");
    const dtrace_option_desc nameless[] = {{sizeof(dtrace_option_desc), "", DTRACE_OPTION_STRING, nullptr, ""}};
    EXPECT_EQ(refusal(nameless, 1), "its option #1 has no name");
    const dtrace_option_desc odd_kind[] = {{sizeof(dtrace_option_desc), "x", 77, nullptr, ""}};
    EXPECT_EQ(refusal(odd_kind, 1), "its option #1 ('x') has an unknown kind 77");
    const dtrace_option_desc tiny[] = {{4, "x", DTRACE_OPTION_STRING, nullptr, ""}};
    EXPECT_EQ(refusal(tiny, 1), "its option #1 has a malformed descriptor");
    EXPECT_EQ(refusal(nullptr, 3), "its ops table declares 3 options but gives none");
    EXPECT_EQ(refusal(kTwoOptions, 2), "accepted");
}

TEST(PluginCatalog, PluginsLeftOutSayWhy) {
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config;
    config.search_dirs = {TEST_PLUGIN_DIR};
    config.only = std::vector<std::string>{"init_fails"};
    (void)host.discover(config);
    (void)host.initialise();
    bool saw_left_out = false, saw_failed = false;
    for (const PluginEntry &entry : host.catalogue()) {
        if (entry.name == "good") {
            EXPECT_EQ(entry.state, PluginState::NotSelected);
            EXPECT_EQ(entry.reason, "not named in -x plugins");
            saw_left_out = true;
        } else if (entry.name == "init_fails") {
            EXPECT_EQ(entry.state, PluginState::Failed);
            EXPECT_NE(entry.reason.find("plugin's init failed"), std::string::npos) << entry.reason;
            saw_failed = true;
        }
    }
    EXPECT_TRUE(saw_left_out);
    EXPECT_TRUE(saw_failed);
}

TEST(PluginCatalog, ReplayLeavesLivePluginsOutAndSaysSo) {
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config;
    config.files = {fs::path(TEST_PLUGIN_DIR) / "good.so"};
    config.discover = false;
    config.required_capabilities = DTRACE_PLUGIN_REPLAY;
    (void)host.load(config);
    ASSERT_EQ(host.catalogue().size(), 1u);
    EXPECT_EQ(host.catalogue()[0].state, PluginState::NotSelected);
    EXPECT_EQ(host.catalogue()[0].reason, "it does not replay trace files (-E loads only plugins that do)");
}

} // namespace
} // namespace dtrace::host::test
