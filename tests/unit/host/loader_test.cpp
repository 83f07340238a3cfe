// loader_test.cpp: what open_plugin and LoadedPlugin::create say about each
// kind of broken plugin file, and that a good one gets through.
#include "fake_sink.h"
#include "host/abi.h"
#include "host/plugin_loader.h"

#include <gtest/gtest.h>

#include <string>

namespace dtrace::host::test {
namespace {

std::filesystem::path plugin(const char *file) {
    return std::filesystem::path(TEST_PLUGIN_DIR) / file;
}

std::string failure_of(const char *file) {
    Result<PluginModule> module = open_plugin(plugin(file));
    EXPECT_FALSE(module.ok()) << file;
    return module.ok() ? "" : module.reason();
}

TEST(Loader, OpensAGoodPlugin) {
    Result<PluginModule> module = open_plugin(plugin("good.so"));
    ASSERT_TRUE(module.ok()) << module.reason();
    EXPECT_STREQ(module.value().ops->name, "good");
    EXPECT_EQ(module.value().file, plugin("good.so"));
}

TEST(Loader, RefusesAFileWithoutTheEntrySymbol) {
    EXPECT_EQ(failure_of("no_entry.so"), "no dtrace_plugin_entry symbol");
}

TEST(Loader, RefusesAnUnknownAbiVersion) {
    EXPECT_EQ(failure_of("bad_abi.so"), "ABI version 99 is not supported (this dtrace supports 1)");
}

TEST(Loader, RefusesATableSmallerThanVersionOne) {
    EXPECT_EQ(failure_of("small_table.so"),
              "its ops table is 8 bytes, ABI version 1 needs " + std::to_string(abi::kPluginOpsV1Size));
}

TEST(Loader, ReportsAPluginThatDeclines) {
    EXPECT_EQ(failure_of("declines.so"), "the plugin declined to load (dtrace_plugin_entry returned NULL)");
}

TEST(Loader, PassesOnTheDynamicLoadersReasonWithoutRepeatingTheFile) {
    EXPECT_EQ(failure_of("not_elf.so"), "invalid ELF header");
    EXPECT_NE(failure_of("absent.so").find("No such file"), std::string::npos);
}

TEST(Loader, ChecksBuiltinTablesTheSameWay) {
    EXPECT_FALSE(builtin_plugin(nullptr).ok());
    dtrace_plugin_ops nameless{};
    nameless.struct_size = sizeof nameless;
    nameless.abi_version = DTRACE_SDK_ABI_VERSION;
    Result<PluginModule> module = builtin_plugin(&nameless);
    ASSERT_FALSE(module.ok());
    EXPECT_EQ(module.reason(), "its ops table has no name");
}

TEST(Loader, InitFailureCarriesWhatThePluginReported) {
    Result<PluginModule> module = open_plugin(plugin("init_fails.so"));
    ASSERT_TRUE(module.ok()) << module.reason();
    FakeSink sink;
    Result<std::unique_ptr<LoadedPlugin>> loaded = LoadedPlugin::create(std::move(module.value()), sink);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.reason(), "plugin's init failed: no widgets here");
    EXPECT_TRUE(sink.errors.empty()) << "a captured message must not also be printed";
    ASSERT_EQ(sink.providers.size(), 1u);
    EXPECT_EQ(sink.removed_providers, std::vector<dtrace_provider_id>{1}) << "its provider is withdrawn";
}

} // namespace
} // namespace dtrace::host::test
