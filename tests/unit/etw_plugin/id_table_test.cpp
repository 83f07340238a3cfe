// id_table_test.cpp: the tables of threads and processes by id.
#include <gtest/gtest.h>

#include <string>

#include "kernel/kernel_state.h"
#include "process_table.h"

namespace dtrace::etw::plugin::kernel {
namespace {

TEST(IdTable, AThreadNoEventNamedHasNoEntry) {
    IdTable<ThreadInfo> table;
    EXPECT_EQ(table.find(4), nullptr);
    table[8].pid = 100;
    EXPECT_EQ(table.find(4), nullptr);
    ASSERT_NE(table.find(8), nullptr);
    EXPECT_EQ(table.find(8)->pid, 100u);
}

TEST(IdTable, ANewEntryHasDefaultValuesAndStaysTheThreads) {
    IdTable<ThreadInfo> table;
    ThreadInfo &t = table[12];
    EXPECT_EQ(t.pid, kUnknownId);
    EXPECT_EQ(t.cpu, -1);
    t.cpu = 3;
    EXPECT_EQ(table[12].cpu, 3);
}

TEST(IdTable, EntriesSurviveGrowthWhateverTheirIds) {
    IdTable<ThreadInfo> table;
    // Repeated-byte ids and multiples of large powers of two, which naive
    // hashes put together, and enough of them to grow the table many times.
    std::vector<uint32_t> ids;
    for (uint32_t b = 0; b < 256; ++b) {
        ids.push_back(b * 0x01010101u);
    }
    for (uint32_t i = 1; i <= 5000; ++i) {
        ids.push_back(i << 12);
    }
    for (uint32_t id : ids) {
        table[id].pid = id ^ 0x5A5A5A5Au;
    }
    for (uint32_t id : ids) {
        const ThreadInfo *t = table.find(id);
        ASSERT_NE(t, nullptr) << id;
        EXPECT_EQ(t->pid, id ^ 0x5A5A5A5Au) << id;
    }
    EXPECT_EQ(table.find(3), nullptr);
}

TEST(IdTable, ProcessesKeepTheirTextThroughGrowth) {
    IdTable<ProcessInfo> table;
    for (uint32_t pid = 4; pid < 4000; pid += 4) {
        table[pid].execname = "process-with-a-long-name-" + std::to_string(pid);
    }
    for (uint32_t pid = 4; pid < 4000; pid += 4) {
        ASSERT_NE(table.find(pid), nullptr) << pid;
        EXPECT_EQ(table.find(pid)->execname, "process-with-a-long-name-" + std::to_string(pid));
    }
}

} // namespace
} // namespace dtrace::etw::plugin::kernel
