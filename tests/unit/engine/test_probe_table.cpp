// The probe table: ids, deduplication, matching in id order.
#include "engine/probe_table.h"
#include "engine_test_util.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace dtrace::engine;
using dtrace::test::add_provider;

namespace {

dtrace::host::ProbeInfo probe(const char *mod, const char *func, const char *name) {
    dtrace::host::ProbeInfo p;
    p.module = mod;
    p.function = func;
    p.name = name;
    return p;
}

} // namespace

TEST(ProbeTable, IdsAreDenseAndDuplicatesReuseTheirId) {
    ProbeTable t;
    dtrace_provider_id dt = add_provider(t, "dtrace");
    EXPECT_EQ(t.add_probe(dt, probe("", "", "BEGIN")), 1u);
    EXPECT_EQ(t.add_probe(dt, probe("", "", "END")), 2u);
    EXPECT_EQ(t.add_probe(dt, probe("", "", "BEGIN")), 1u);
    EXPECT_EQ(t.probe_count(), 2u);
    EXPECT_EQ(t.lookup(dt, "", "", "END"), 2u);
    EXPECT_EQ(t.lookup(dt, "", "", "nope"), 0u);
}

TEST(ProbeTable, DuplicateProviderNamesAreRefused) {
    ProbeTable t;
    EXPECT_NE(add_provider(t, "x"), 0u);
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = "x";
    auto again = t.add_provider(nullptr, info);
    ASSERT_FALSE(again);
    EXPECT_NE(again.reason().find("already"), std::string::npos);
}

TEST(ProbeTable, MatchingVisitsInIdOrder) {
    ProbeTable t;
    dtrace_provider_id sys = add_provider(t, "syscall");
    t.add_probe(sys, probe("", "read", "entry"));
    t.add_probe(sys, probe("", "read", "return"));
    t.add_probe(sys, probe("", "write", "entry"));
    std::vector<dtrace_probe_id> seen;
    auto desc = parse_probe_description("syscall::*:entry", SpecKind::Name);
    t.for_each_match(*desc, [&](Probe &p) { seen.push_back(p.id); });
    EXPECT_EQ(seen, (std::vector<dtrace_probe_id>{1, 3}));
    seen.clear();
    desc = parse_probe_description("2", SpecKind::Name);
    t.for_each_match(*desc, [&](Probe &p) { seen.push_back(p.id); });
    EXPECT_EQ(seen, (std::vector<dtrace_probe_id>{2}));
}

TEST(ProbeTable, ModuleAliasesMatchWhenSpelledExactly) {
    // pid123:libc:malloc:entry names the probe registered as libc.so.6 (as
    // DTrace's pid provider rewrites it); a glob matches the real name only.
    ProbeTable t;
    dtrace_provider_id pid = add_provider(t, "pid123");
    dtrace::host::ProbeInfo malloc_entry = probe("libc.so.6", "malloc", "entry");
    malloc_entry.module_aliases = {"libc", "libc.so"};
    t.add_probe(pid, malloc_entry);
    t.add_probe(pid, probe("prog", "main", "entry"));
    auto count = [&](const char *text) {
        int n = 0;
        t.for_each_match(*parse_probe_description(text, SpecKind::Name), [&](Probe &) { ++n; });
        return n;
    };
    EXPECT_EQ(count("pid123:libc:malloc:entry"), 1);
    EXPECT_EQ(count("pid123:libc.so:malloc:entry"), 1);
    EXPECT_EQ(count("pid123:libc.so.6:malloc:entry"), 1);
    EXPECT_EQ(count("pid123:libc*:malloc:entry"), 1); // the real name
    EXPECT_EQ(count("pid123:li?c:malloc:entry"), 0);  // an alias is matched exactly, never as a glob
    EXPECT_EQ(count("pid123:prog::entry"), 1);
    EXPECT_EQ(count("pid123:libc::entry"), 1);
    EXPECT_EQ(t.probe(1)->module, "libc.so.6");
}

TEST(ProbeTable, GrowsPastManyChunksWhileReadersLookUpById) {
    ProbeTable t;
    dtrace_provider_id dt = add_provider(t, "many");
    constexpr int kProbes = 5000; // several StableVector chunks
    std::atomic<bool> done{false};
    std::atomic<uint64_t> seen{0};
    std::thread reader([&] {
        while (!done.load()) {
            size_t n = t.probe_count();
            if (n > 0) {
                const Probe *p = t.probe(static_cast<dtrace_probe_id>(n));
                ASSERT_NE(p, nullptr);
                ASSERT_EQ(p->id, n);
                seen++;
            }
        }
    });
    for (int i = 0; i < kProbes; i++)
        ASSERT_EQ(t.add_probe(dt, probe("m", "f", ("p" + std::to_string(i)).c_str())), static_cast<uint32_t>(i + 1));
    done.store(true);
    reader.join();
    EXPECT_EQ(t.probe_count(), static_cast<size_t>(kProbes));
    EXPECT_EQ(t.probe(kProbes)->name, "p" + std::to_string(kProbes - 1));
    EXPECT_EQ(t.probe(kProbes + 1), nullptr);
}

TEST(ProbeTable, SharedLibraryRegisteredOnceAndRefusedWithOtherText) {
    ProbeTable t;
    ASSERT_TRUE(t.add_library("linux/process.d", "typedef int a_t;").ok());
    ASSERT_TRUE(t.add_library("other.d", "typedef int b_t;").ok());
    // The second plugin shipping the same library: a no-op.
    EXPECT_TRUE(t.add_library("linux/process.d", "typedef int a_t;").ok());
    dtrace::Status refused = t.add_library("linux/process.d", "typedef long a_t;");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.reason(), "library linux/process.d is already registered with other text");
    std::vector<std::string> seen;
    t.for_each_library(
        [&](const std::string &name, const std::string &source) { seen.push_back(name + ":" + source); });
    EXPECT_EQ(seen, (std::vector<std::string>{"linux/process.d:typedef int a_t;", "other.d:typedef int b_t;"}));
}
