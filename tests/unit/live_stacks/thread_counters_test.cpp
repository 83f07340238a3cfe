// thread_counters_test.cpp: pmc["name"] as the pmc plugin resolves and reads
// it: the per-thread counts an event carries, and the refusals, each saying why.
#include "thread_counters.h"

#include <gtest/gtest.h>

namespace dtrace::pmc {
namespace {

dtrace_event_ctx event_with(const dtrace_thread_counts *counts) {
    dtrace_event_ctx ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.vtimestamp = 5000;
    ctx.thread_counts = counts;
    return ctx;
}

uint64_t resolved(const char *name) {
    std::string why;
    std::optional<uint64_t> cookie = resolve_thread_counter(name, why);
    EXPECT_TRUE(cookie) << name << ": " << why;
    return cookie.value_or(~0ull);
}

TEST(ThreadCounters, ReadTheCountsTheEventCarries) {
    const dtrace_thread_counts counts{sizeof counts, 7, 2, 11, 3, 5};
    const dtrace_event_ctx ctx = event_with(&counts);
    EXPECT_EQ(read_thread_counter(resolved("page-faults"), ctx), 9u);
    EXPECT_EQ(read_thread_counter(resolved("minor-faults"), ctx), 7u);
    EXPECT_EQ(read_thread_counter(resolved("major-faults"), ctx), 2u);
    EXPECT_EQ(read_thread_counter(resolved("context-switches"), ctx), 14u);
    EXPECT_EQ(read_thread_counter(resolved("cpu-migrations"), ctx), 5u);
    EXPECT_EQ(read_thread_counter(resolved("task-clock"), ctx), 5000u);
}

TEST(ThreadCounters, AnEventWithoutCountsReadsNothing) {
    EXPECT_FALSE(read_thread_counter(resolved("page-faults"), event_with(nullptr)));
    const dtrace_thread_counts counts{sizeof counts, 7, 2, 11, 3, 5};
    dtrace_event_ctx old = event_with(&counts);
    old.struct_size = offsetof(dtrace_event_ctx, thread_counts); // a plugin built before the field
    EXPECT_FALSE(read_thread_counter(resolved("page-faults"), old));
    EXPECT_FALSE(read_thread_counter(999, event_with(&counts)));
}

TEST(ThreadCounters, RefusalsSayWhy) {
    std::string why;
    EXPECT_FALSE(resolve_thread_counter("no-such-counter", why));
    EXPECT_NE(why.find("unknown counter"), std::string::npos) << why;
    EXPECT_NE(why.find("page-faults"), std::string::npos) << "lists the readable ones: " << why;
    why.clear();
    EXPECT_FALSE(resolve_thread_counter("alignment-faults", why))
        << "a perf counter the kernel keeps no per-thread count of";
    EXPECT_NE(why.find("only the kernel's per-thread counts"), std::string::npos) << why;
    why.clear();
    EXPECT_FALSE(resolve_thread_counter("instructions", why));
    EXPECT_TRUE(why.find("no PMU") != std::string::npos || why.find("only the kernel's") != std::string::npos) << why;
}

} // namespace
} // namespace dtrace::pmc
