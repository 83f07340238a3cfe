// symbol_lookup_test.cpp: the plugins' lookup_symbol entry as the host routes
// it: the recording plugin first, other plugins only for kernel addresses,
// tables too small to hold the entry never called, answers copied.
#include "fake_sink.h"
#include "host/abi.h"
#include "host/plugin_host.h"

#include <gtest/gtest.h>

#include <string>

namespace dtrace::host::test {
namespace {

int quiet_init(dtrace_host *, const dtrace_host_ops *, void **) {
    return 0;
}

// "kern" knows the kernel address 0x1000 (and any address of pid 7 below 0x100).
int kern_lookup(void *, uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    if (space == DTRACE_SYMBOL_KERNEL && address >= 0x1000 && address < 0x1100) {
        out->module = "genunix";
        out->function = "cv_wait";
        out->offset = address - 0x1000;
        return 0;
    }
    if (space == DTRACE_SYMBOL_USER && pid == 7 && address < 0x100) {
        out->module = "libc.so.1";
        out->function = nullptr; // module only
        return 0;
    }
    return -1;
}

// "user" knows user addresses of any process, and claims every kernel address
// with an empty module (which the host must treat as unknown).
int user_lookup(void *, uint32_t space, int64_t, uint64_t address, dtrace_symbol *out) {
    if (space == DTRACE_SYMBOL_KERNEL) {
        out->module = "";
        return 0;
    }
    thread_local std::string name; // valid until the next call, as the SDK allows
    name = "f" + std::to_string(address);
    out->module = "a.out";
    out->function = name.c_str();
    out->offset = 4;
    return 0;
}

dtrace_plugin_ops table(const char *name, decltype(dtrace_plugin_ops::lookup_symbol) lookup) {
    dtrace_plugin_ops ops{};
    ops.struct_size = sizeof ops;
    ops.abi_version = DTRACE_SDK_ABI_VERSION;
    ops.name = name;
    ops.init = quiet_init;
    ops.lookup_symbol = lookup;
    return ops;
}

struct Loaded {
    FakeSink sink;
    PluginHost host{sink};
    LoadedPlugin *kern = nullptr;
    LoadedPlugin *user = nullptr;

    Loaded(const dtrace_plugin_ops &first, const dtrace_plugin_ops &second) {
        PluginConfig config;
        config.discover = false;
        config.builtins = {&first, &second};
        EXPECT_TRUE(host.load(config).empty());
        kern = host.find("kern");
        user = host.find("user");
    }
};

TEST(SymbolLookup, TheRecordingPluginAnswersAndItsStringsAreCopied) {
    const dtrace_plugin_ops kern = table("kern", kern_lookup), user = table("user", user_lookup);
    Loaded loaded(kern, user);
    auto first = loaded.host.lookup_symbol(loaded.user, DTRACE_SYMBOL_USER, 12, 0x40);
    auto second = loaded.host.lookup_symbol(loaded.user, DTRACE_SYMBOL_USER, 12, 0x41);
    ASSERT_TRUE(first && second);
    EXPECT_EQ(first->module, "a.out");
    EXPECT_EQ(first->function, "f64");
    EXPECT_EQ(first->offset, 4u);
    EXPECT_EQ(second->function, "f65");
}

TEST(SymbolLookup, UserAddressesAreAskedOfTheRecordingPluginOnly) {
    const dtrace_plugin_ops kern = table("kern", kern_lookup), user = table("user", user_lookup);
    Loaded loaded(kern, user);
    EXPECT_FALSE(loaded.host.lookup_symbol(loaded.kern, DTRACE_SYMBOL_USER, 12, 0x40));
    auto module_only = loaded.host.lookup_symbol(loaded.kern, DTRACE_SYMBOL_USER, 7, 0x40);
    ASSERT_TRUE(module_only);
    EXPECT_EQ(module_only->module, "libc.so.1");
    EXPECT_EQ(module_only->function, "");
    EXPECT_EQ(module_only->offset, 0u);
}

TEST(SymbolLookup, WithoutARecorderEveryPluginIsAsked) {
    const dtrace_plugin_ops kern = table("kern", kern_lookup), user = table("user", user_lookup);
    Loaded loaded(kern, user);
    auto found = loaded.host.lookup_symbol(nullptr, DTRACE_SYMBOL_USER, 12, 0x40);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->module, "a.out");
}

TEST(SymbolLookup, KernelAddressesFallBackToEveryPluginAndIgnoreEmptyModules) {
    const dtrace_plugin_ops kern = table("kern", kern_lookup), user = table("user", user_lookup);
    Loaded loaded(kern, user);
    auto found = loaded.host.lookup_symbol(loaded.user, DTRACE_SYMBOL_KERNEL, -1, 0x1010);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->module, "genunix");
    EXPECT_EQ(found->function, "cv_wait");
    EXPECT_EQ(found->offset, 0x10u);
    EXPECT_TRUE(loaded.host.lookup_symbol(nullptr, DTRACE_SYMBOL_KERNEL, -1, 0x1000));
    EXPECT_FALSE(loaded.host.lookup_symbol(loaded.user, DTRACE_SYMBOL_KERNEL, -1, 0x2000));
}

TEST(SymbolLookup, ATableOfTheFirstSizeIsNeverAskedBeyondItsEnd) {
    dtrace_plugin_ops old = table("kern", kern_lookup); // entry set, but outside the declared size
    old.struct_size = abi::kPluginOpsV1Size;
    const dtrace_plugin_ops user = table("user", nullptr);
    Loaded loaded(old, user);
    ASSERT_NE(loaded.kern, nullptr);
    EXPECT_FALSE(loaded.host.lookup_symbol(loaded.kern, DTRACE_SYMBOL_KERNEL, -1, 0x1000));
}

} // namespace
} // namespace dtrace::host::test
