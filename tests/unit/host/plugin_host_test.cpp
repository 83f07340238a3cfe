// plugin_host_test.cpp: PluginHost end to end against the fixture plugins:
// discovery and selection outcomes, probe registration, routing of per-probe
// calls, event delivery from plugin threads, and teardown order.
#include "fake_sink.h"
#include "host/plugin_host.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace dtrace::host::test {
namespace {

namespace fs = std::filesystem;

const fs::path kPluginDir = TEST_PLUGIN_DIR;
const fs::path kDupDir = TEST_DUP_DIR;

std::vector<std::string> names(const PluginHost &host) {
    std::vector<std::string> out;
    for (const auto &p : host.plugins())
        out.push_back(p->name());
    return out;
}

std::vector<std::string> messages(const std::vector<PluginDiagnostic> &diagnostics) {
    std::vector<std::string> out;
    for (const PluginDiagnostic &d : diagnostics)
        out.push_back(d.message);
    return out;
}

bool contains(const std::vector<std::string> &list, const std::string &item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

PluginConfig only_files(std::initializer_list<const char *> files) {
    PluginConfig config;
    config.discover = false;
    for (const char *f : files)
        config.files.push_back(kPluginDir / f);
    return config;
}

// The probe `name` of the provider `provider` (ids are indexes + 1 in the fake sink).
dtrace_probe_id probe_id(const FakeSink &sink, const std::string &provider, const std::string &name) {
    for (size_t i = 0; i < sink.probes.size(); ++i) {
        const RecordedProbe &p = sink.probes[i];
        if (p.info.name == name && sink.providers.at(p.provider - 1).name == provider)
            return static_cast<dtrace_probe_id>(i + 1);
    }
    return 0;
}

const RecordedProbe *good_probe(const FakeSink &sink, const std::string &name) {
    const dtrace_probe_id id = probe_id(sink, "goodprov", name);
    return id == 0 ? nullptr : &sink.probes[id - 1];
}

TEST(PluginHost, LoadsADirectoryAndReportsEachBrokenPluginInFileOrder) {
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config;
    config.search_dirs = {kPluginDir};
    const std::vector<PluginDiagnostic> diagnostics = host.load(config);

    EXPECT_EQ(names(host), (std::vector<std::string>{"good", "rogue", "startfail"}));
    const std::string prefix = "failed to load plugin " + kPluginDir.string() + "/";
    const std::vector<std::string> got = messages(diagnostics);
    ASSERT_EQ(got.size(), 6u);
    EXPECT_EQ(got[0], prefix + "bad_abi.so: ABI version 99 is not supported (this dtrace supports 1)");
    EXPECT_EQ(got[1], prefix + "declines.so: the plugin declined to load (dtrace_plugin_entry returned NULL)");
    EXPECT_EQ(got[2], prefix + "no_entry.so: no dtrace_plugin_entry symbol");
    EXPECT_TRUE(got[3].starts_with(prefix + "not_elf.so: ")) << got[3];
    EXPECT_TRUE(got[4].starts_with(prefix + "small_table.so: its ops table is 8 bytes")) << got[4];
    EXPECT_EQ(got[5], prefix + "init_fails.so: plugin's init failed: no widgets here");
    for (const PluginDiagnostic &d : diagnostics) {
        EXPECT_EQ(d.severity, Severity::Error);
        EXPECT_FALSE(d.requested) << "discovered, not named by the user";
    }
}

TEST(PluginHost, SelectsDiscoveredPluginsByName) {
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config;
    config.search_dirs = {kPluginDir};
    config.only = std::vector<std::string>{"startfail", "nope", "good"};
    const std::vector<PluginDiagnostic> diagnostics = host.load(config);
    EXPECT_EQ(names(host), (std::vector<std::string>{"good", "startfail"}));
    const auto unknown =
        std::find_if(diagnostics.begin(), diagnostics.end(), [](const PluginDiagnostic &d) { return d.requested; });
    ASSERT_NE(unknown, diagnostics.end());
    EXPECT_EQ(unknown->message, "unknown plugin 'nope' in -x plugins (available: good, init_fails, rogue, startfail)");
}

TEST(PluginHost, NoPluginsStillLoadsExplicitFiles) {
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config = only_files({"rogue.so"});
    config.search_dirs = {kPluginDir};
    EXPECT_TRUE(host.load(config).empty());
    EXPECT_EQ(names(host), std::vector<std::string>{"rogue"});
}

TEST(PluginHost, AnExplicitFileThatFailsIsARequestedFailure) {
    FakeSink sink;
    PluginHost host(sink);
    const std::vector<PluginDiagnostic> diagnostics = host.load(only_files({"not_elf.so", "init_fails.so"}));
    ASSERT_EQ(diagnostics.size(), 2u);
    EXPECT_TRUE(diagnostics[0].requested);
    EXPECT_TRUE(diagnostics[1].requested);
    EXPECT_TRUE(host.plugins().empty());
}

TEST(PluginHost, SelectionDoesNotApplyToExplicitFiles) {
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config = only_files({"rogue.so"});
    config.discover = true;
    config.search_dirs = {kPluginDir};
    config.only = std::vector<std::string>{"good"};
    const std::vector<std::string> got = messages(host.load(config));
    EXPECT_TRUE(std::none_of(got.begin(), got.end(), [](const std::string &m) { return m.starts_with("-x"); }));
    EXPECT_EQ(names(host), (std::vector<std::string>{"rogue", "good"}));
}

TEST(PluginHost, FirstPluginOfANameWinsWithANote) {
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config;
    config.search_dirs = {kDupDir, kPluginDir};
    config.only = std::vector<std::string>{"good"};
    const std::vector<PluginDiagnostic> diagnostics = host.load(config);
    ASSERT_EQ(host.plugins().size(), 1u);
    EXPECT_EQ(host.plugins()[0]->file(), kDupDir / "good_copy.so");
    const auto note = std::find_if(diagnostics.begin(), diagnostics.end(),
                                   [](const PluginDiagnostic &d) { return d.severity == Severity::Note; });
    ASSERT_NE(note, diagnostics.end());
    EXPECT_EQ(note->message, "plugin 'good' in " + (kPluginDir / "good.so").string() +
                                 " ignored: already loaded from " + (kDupDir / "good_copy.so").string());
}

TEST(PluginHost, AFileReachedTwiceIsLoadedOnce) {
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config = only_files({"good.so"});
    config.discover = true;
    config.search_dirs = {kPluginDir};
    const std::vector<PluginDiagnostic> diagnostics = host.load(config);
    EXPECT_TRUE(std::none_of(diagnostics.begin(), diagnostics.end(),
                             [](const PluginDiagnostic &d) { return d.severity == Severity::Note; }));
    EXPECT_EQ(names(host), (std::vector<std::string>{"good", "rogue", "startfail"}));
}

int builtin_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = "core";
    return ops->register_provider(host, &info) != 0 ? 0 : -1;
}

TEST(PluginHost, BuiltinsComeFirstAndNeedNoFile) {
    dtrace_plugin_ops builtin{};
    builtin.struct_size = sizeof builtin;
    builtin.abi_version = DTRACE_SDK_ABI_VERSION;
    builtin.name = "builtin";
    builtin.init = builtin_init;
    FakeSink sink;
    PluginHost host(sink);
    PluginConfig config = only_files({"good.so"});
    config.builtins = {&builtin};
    EXPECT_TRUE(host.load(config).empty());
    EXPECT_EQ(names(host), (std::vector<std::string>{"builtin", "good"}));
    EXPECT_TRUE(host.plugins()[0]->file().empty());
    EXPECT_EQ(sink.providers[0].name, "core");
    EXPECT_EQ(host.owner_of(1), host.plugins()[0].get());
}

TEST(PluginHost, AProviderNameClashFailsThatPluginOnly) {
    FakeSink sink;
    PluginHost host(sink);
    sink.providers.push_back({"goodprov", "", nullptr});
    EXPECT_EQ(messages(host.load(only_files({"good.so", "rogue.so"}))),
              std::vector<std::string>{"failed to load plugin " + (kPluginDir / "good.so").string() +
                                       ": plugin's init failed: cannot register provider 'goodprov': provider name "
                                       "already in use"});
    EXPECT_EQ(names(host), std::vector<std::string>{"rogue"});
}

TEST(PluginHost, ProvideRegistersTypedAndUntypedProbes) {
    FakeSink sink;
    PluginHost host(sink);
    ASSERT_TRUE(host.load(only_files({"good.so"})).empty());
    EXPECT_TRUE(host.provide_all().empty());

    ASSERT_EQ(sink.providers.size(), 1u);
    EXPECT_EQ(sink.providers[0].name, "goodprov");
    EXPECT_EQ(sink.providers[0].d_source, "typedef int good_t;");
    EXPECT_EQ(sink.providers[0].owner, host.find("good"));

    const RecordedProbe *hit = good_probe(sink, "hit");
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->info.module, "mod");
    EXPECT_EQ(hit->info.function, "func");
    EXPECT_TRUE(hit->info.args_known);
    ASSERT_EQ(hit->info.args.size(), 3u);
    EXPECT_EQ(hit->info.args[0].translated_type, "uint64_t") << "untranslated: same as native";
    EXPECT_EQ(hit->info.args[2].native_type, "int");
    EXPECT_EQ(hit->info.args[2].translated_type, "good_t");
    EXPECT_EQ(hit->info.args[2].native_index, 0);

    const RecordedProbe *lazy = good_probe(sink, "lazy");
    ASSERT_NE(lazy, nullptr);
    EXPECT_FALSE(lazy->info.args_known);
    EXPECT_EQ(lazy->info.nargs, 2u);
    EXPECT_EQ(lazy->info.cookie, 2u);
}

TEST(PluginHost, RoutesArgInfoAndEnableToTheOwningPlugin) {
    FakeSink sink;
    PluginHost host(sink);
    ASSERT_TRUE(host.load(only_files({"good.so"})).empty());
    ASSERT_TRUE(host.provide_all().empty());
    const dtrace_probe_id hit = probe_id(sink, "goodprov", "hit");
    const dtrace_probe_id lazy = probe_id(sink, "goodprov", "lazy");
    ASSERT_NE(lazy, 0u);
    const dtrace_provider_id provider = sink.probes[lazy - 1].provider;

    Result<ArgType> arg = host.arg_info(provider, lazy, 2, 1);
    ASSERT_TRUE(arg.ok()) << arg.reason();
    EXPECT_EQ(arg.value().native_type, "char *");
    EXPECT_EQ(arg.value().translated_type, "char *");
    EXPECT_EQ(arg.value().native_index, 1);
    Result<ArgType> missing = host.arg_info(provider, lazy, 2, 5);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.reason(), "no such argument");

    EXPECT_TRUE(host.enable(provider, hit, 1).ok());
    Status refused = host.enable(provider, lazy, 2);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.reason(), "lazy probes cannot be enabled");
    Status unowned = host.enable(provider + 7, hit, 1);
    ASSERT_FALSE(unowned.ok());
    EXPECT_EQ(unowned.reason(), "no plugin registered provider id " + std::to_string(provider + 7));
    EXPECT_TRUE(sink.errors.empty()) << "failure reasons are returned, not printed";
}

TEST(PluginHost, MessagesOfASucceedingCallArePrefixedWithThePluginName) {
    FakeSink sink;
    PluginHost host(sink);
    ASSERT_TRUE(host.load(only_files({"good.so"})).empty());
    EXPECT_TRUE(host.provide({"goodprov", "", "", "complain"}).empty());
    EXPECT_EQ(sink.errors, std::vector<std::string>{"good: complaint"});

    EXPECT_EQ(messages(host.provide({"", "", "", "fail"})),
              std::vector<std::string>{"plugin 'good' failed to provide probes: cannot provide that"});
    EXPECT_EQ(sink.errors.size(), 1u);
}

class TempLog {
  public:
    TempLog() : path_(fs::temp_directory_path() / ("dtrace_host_test_" + std::to_string(getpid()) + ".log")) {
        fs::remove(path_);
    }
    ~TempLog() { fs::remove(path_); }
    const fs::path &path() const { return path_; }
    std::string text() const {
        std::ifstream in(path_);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }

  private:
    fs::path path_;
};

TEST(PluginHost, DeliversFiresFromPluginThreadsAndTearsDownInOrder) {
    TempLog log;
    FakeSink sink;
    sink.options["test_log"] = log.path().string();
    {
        PluginHost host(sink);
        ASSERT_TRUE(host.load(only_files({"start_fails.so", "good.so"})).empty());
        ASSERT_TRUE(host.provide_all().empty());
        EXPECT_EQ(messages(host.start_all()),
                  std::vector<std::string>{"failed to start plugin 'startfail': device busy"});
        host.stop_all();

        ASSERT_EQ(sink.fires.size(), 1u);
        const RecordedFire &f = sink.fires[0];
        EXPECT_EQ(f.probe, probe_id(sink, "goodprov", "hit"));
        EXPECT_EQ(f.cpu, 3u);
        EXPECT_EQ(f.timestamp, 1234u);
        EXPECT_EQ(f.pid, 42);
        EXPECT_EQ(f.tid, 43);
        EXPECT_EQ(f.execname, "goodexec");
        ASSERT_EQ(f.args.size(), 3u);
        EXPECT_EQ(f.args[0], 7u);
        EXPECT_EQ(f.args[2], 5u);
        EXPECT_EQ(f.arg_strings, (std::vector<std::string>{"", "hello", ""}));
        EXPECT_EQ(f.flags, DTRACE_EVENT_LIVE_TARGET);
        EXPECT_EQ(sink.drops, 2u);
        EXPECT_TRUE(contains(sink.errors, "good: from thread"));
        EXPECT_EQ(log.text(), "good start\ngood stop\n");
    }
    EXPECT_EQ(log.text(), "good start\ngood stop\ngood destroy\nstartfail destroy\n") << "last loaded, first destroyed";
}

TEST(PluginHost, ARoguePluginCannotHurtTheHost) {
    FakeSink sink;
    PluginHost host(sink);
    ASSERT_TRUE(host.load(only_files({"rogue.so"})).empty());
    EXPECT_TRUE(host.provide_all().empty());
    EXPECT_EQ(sink.probes.size(), 2u) << "only the well-formed probes";
    EXPECT_TRUE(host.start_all().empty());
    host.stop_all();
    EXPECT_TRUE(sink.fires.empty());
    EXPECT_EQ(sink.errors,
              (std::vector<std::string>{
                  "rogue: register_probe: malformed probe description",
                  "rogue: register_probe: provider id 1001 is not one of this plugin's",
                  "rogue: fire() called with probe id 0 or a malformed event context; such events are ignored"}));
}

} // namespace
} // namespace dtrace::host::test
