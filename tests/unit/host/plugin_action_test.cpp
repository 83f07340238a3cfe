// plugin_action_test.cpp: plugin actions as the host keeps and performs them:
// registered during init with a consume_action entry, numbered across
// plugins, and handed back with their cookie and the recorded values.
#include "fake_sink.h"
#include "host/plugin_host.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dtrace::host::test {
namespace {

struct Seen {
    uint64_t cookie = 0;
    uint64_t timestamp = 0;
    std::vector<std::string> values;
};
thread_local std::vector<Seen> g_seen;

int consume(void *, const dtrace_action_call *call) {
    Seen seen{call->cookie, call->timestamp, {}};
    for (uint32_t i = 0; i < call->nvalues; ++i) {
        const dtrace_action_value &v = call->values[i];
        seen.values.push_back(v.kind == DTRACE_VALUE_STRING ? static_cast<const char *>(v.bytes)
                                                            : std::to_string(v.integer));
    }
    g_seen.push_back(seen);
    return seen.values.empty() ? -1 : 0;
}

int register_two(dtrace_host *host, const dtrace_host_ops *ops, void **) {
    dtrace_action_desc desc{sizeof desc, "first_action", "void(string, ...)", 11};
    if (ops->register_action(host, &desc) != 0)
        return -1;
    desc = {sizeof desc, "second_action", "void(int)", 22};
    return ops->register_action(host, &desc);
}

int register_twice(dtrace_host *host, const dtrace_host_ops *ops, void **) {
    const dtrace_action_desc desc{sizeof desc, "twice", "void()", 1};
    if (ops->register_action(host, &desc) != 0)
        return -1;
    return ops->register_action(host, &desc);
}

int register_other(dtrace_host *host, const dtrace_host_ops *ops, void **) {
    const dtrace_action_desc desc{sizeof desc, "third_action", "void()", 33};
    return ops->register_action(host, &desc);
}

dtrace_plugin_ops table(const char *name, decltype(dtrace_plugin_ops::init) init, bool with_consume = true) {
    dtrace_plugin_ops ops{};
    ops.struct_size = sizeof ops;
    ops.abi_version = DTRACE_SDK_ABI_VERSION;
    ops.name = name;
    ops.init = init;
    ops.consume_action = with_consume ? consume : nullptr;
    return ops;
}

std::vector<PluginDiagnostic> load(PluginHost &host, std::vector<const dtrace_plugin_ops *> builtins) {
    PluginConfig config;
    config.discover = false;
    config.builtins = std::move(builtins);
    return host.load(config);
}

TEST(PluginActions, AreNumberedAcrossPluginsAndCalledWithTheirCookieAndValues) {
    const dtrace_plugin_ops a = table("a", register_two), b = table("b", register_other);
    FakeSink sink;
    PluginHost host(sink);
    ASSERT_TRUE(load(host, {&a, &b}).empty());
    EXPECT_EQ(host.find_action("first_action"), 1u);
    EXPECT_EQ(host.find_action("second_action"), 2u);
    EXPECT_EQ(host.find_action("third_action"), 3u);
    EXPECT_EQ(host.find_action("printf"), 0u);
    ASSERT_NE(host.action(2), nullptr);
    EXPECT_EQ(host.action(2)->prototype, "void(int)");
    EXPECT_EQ(host.action(4), nullptr);

    g_seen.clear();
    const char *text = "hello";
    dtrace_action_value values[2] = {{sizeof(dtrace_action_value), DTRACE_VALUE_STRING, 5, 0, 0, text},
                                     {sizeof(dtrace_action_value), DTRACE_VALUE_INTEGER, 8, 1, 42, nullptr}};
    dtrace_action_call call{sizeof call, 0, 1234, 0, 2, values};
    EXPECT_TRUE(host.consume_action(3, call).ok());
    ASSERT_EQ(g_seen.size(), 1u);
    EXPECT_EQ(g_seen[0].cookie, 33u) << "the cookie of the action, not the caller's";
    EXPECT_EQ(g_seen[0].timestamp, 1234u);
    EXPECT_EQ(g_seen[0].values, (std::vector<std::string>{"hello", "42"}));
    EXPECT_FALSE(host.consume_action(9, call).ok());
}

TEST(PluginActions, AFailedCallGivesThePluginsReason) {
    const dtrace_plugin_ops a = table("a", register_two);
    FakeSink sink;
    PluginHost host(sink);
    ASSERT_TRUE(load(host, {&a}).empty());
    dtrace_action_call call{sizeof call, 0, 0, 0, 0, nullptr};
    Status status = host.consume_action(1, call);
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(status.reason().rfind("a: ", 0), 0u) << status.reason();
}

TEST(PluginActions, ANameTwiceOrNoConsumeEntryFailsInit) {
    const dtrace_plugin_ops twice = table("twice", register_twice);
    const dtrace_plugin_ops mute = table("mute", register_other, false);
    FakeSink sink;
    PluginHost host(sink);
    std::vector<PluginDiagnostic> diagnostics = load(host, {&twice, &mute});
    ASSERT_EQ(diagnostics.size(), 2u);
    EXPECT_NE(diagnostics[0].message.find("'twice' is already registered"), std::string::npos)
        << diagnostics[0].message;
    EXPECT_NE(diagnostics[1].message.find("no consume_action entry"), std::string::npos) << diagnostics[1].message;
    EXPECT_EQ(host.find_action("third_action"), 0u);
}

} // namespace
} // namespace dtrace::host::test
