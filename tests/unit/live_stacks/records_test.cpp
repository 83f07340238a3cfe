// records_test.cpp: decoding perf ring records, and refusing malformed ones.
#include "mapping_tracker.h"
#include "records.h"
#include "user_regs.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace dtrace::live::perf {
namespace {

// Builds a record of `type` from 8-byte words (then `tail` bytes).
std::vector<uint8_t> record(uint32_t type, uint16_t misc, const std::vector<uint64_t> &words,
                            const std::vector<uint8_t> &tail = {}) {
    std::vector<uint8_t> bytes(sizeof(perf_event_header) + words.size() * 8 + tail.size());
    perf_event_header header{type, misc, static_cast<uint16_t>(bytes.size())};
    std::memcpy(bytes.data(), &header, sizeof header);
    std::memcpy(bytes.data() + sizeof header, words.data(), words.size() * 8);
    std::memcpy(bytes.data() + sizeof header + words.size() * 8, tail.data(), tail.size());
    return bytes;
}

const RecordLayout kLayout{kSampleType, stacks::kPerfRegsMask};

std::vector<uint64_t> sample_words(uint64_t stack_size, uint64_t dynamic_size) {
    std::vector<uint64_t> w = {0x401000,                  // ip
                               (uint64_t(12) << 32) | 11, // pid 11, tid 12
                               5000,                      // time
                               1,                         // cpu 1
                               10000,                     // period
                               3,
                               PERF_CONTEXT_KERNEL,
                               0xffffffff81000010,
                               0xffffffff81000020,
                               PERF_SAMPLE_REGS_ABI_64};
    for (int i = 0; i < 17; i++)
        w.push_back(100 + i); // the 17 registers of the mask, in perf's order
    w.push_back(stack_size);
    for (uint64_t i = 0; i < stack_size / 8; i++)
        w.push_back(0xabcd);
    if (stack_size != 0)
        w.push_back(dynamic_size);
    return w;
}

TEST(Records, DecodesASample) {
    auto bytes = record(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, sample_words(32, 16));
    auto s = parse_sample(bytes, kLayout);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ip, 0x401000u);
    EXPECT_EQ(s->pid, 11u);
    EXPECT_EQ(s->tid, 12u);
    EXPECT_EQ(s->time, 5000u);
    EXPECT_EQ(s->cpu, 1u);
    EXPECT_TRUE(s->kernel_mode);
    EXPECT_EQ(s->user_regs.size(), 17u);
    EXPECT_EQ(s->user_stack.size(), 16u); // the dynamic size: what was really copied
    uint64_t frames[4];
    ASSERT_EQ(kernel_frames(s->callchain, frames), 2u);
    EXPECT_EQ(frames[1], 0xffffffff81000020u);
    const stacks::UserRegs regs = stacks::from_perf(s->user_regs);
    EXPECT_EQ(regs.value[stacks::kDwarfIp], 108u); // perf's 9th register is ip
    EXPECT_EQ(regs.value[stacks::kDwarfSp], 107u);
    EXPECT_EQ(regs.value[3], 101u); // rbx is perf's second
    EXPECT_EQ(record_time(bytes, kLayout), 5000u);
}

TEST(Records, RefusesEveryTruncation) {
    auto bytes = record(PERF_RECORD_SAMPLE, 0, sample_words(32, 32));
    for (size_t size = 0; size < bytes.size(); size += 8) {
        std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + size);
        if (size >= sizeof(perf_event_header)) {
            perf_event_header header{PERF_RECORD_SAMPLE, 0, static_cast<uint16_t>(size)};
            std::memcpy(cut.data(), &header, sizeof header);
        }
        EXPECT_FALSE(parse_sample(cut, kLayout)) << "size " << size;
    }
}

TEST(Records, RefusesAnAbsurdCallchainLength) {
    auto words = sample_words(0, 0);
    words[5] = ~0ull; // callchain nr
    EXPECT_FALSE(parse_sample(record(PERF_RECORD_SAMPLE, 0, words), kLayout));
}

TEST(Records, DecodesSideBandRecords) {
    const uint64_t trailer[] = {(uint64_t(3) << 32) | 3, 777, 0}; // sample_id: pid/tid, time, cpu
    std::vector<uint8_t> name = {'p', 'r', 'o', 'g', 0, 0, 0, 0};
    auto comm = record(PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, {(uint64_t(3) << 32) | 3}, name);
    comm.insert(comm.end(), reinterpret_cast<const uint8_t *>(trailer),
                reinterpret_cast<const uint8_t *>(trailer) + 24);
    reinterpret_cast<perf_event_header *>(comm.data())->size = static_cast<uint16_t>(comm.size());
    auto c = parse_comm(comm);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->comm, "prog");
    EXPECT_TRUE(c->exec);
    EXPECT_EQ(record_time(comm, kLayout), 777u);

    std::vector<uint8_t> path = {'/', 'l', 'i', 'b', 0, 0, 0, 0};
    auto mmap = record(PERF_RECORD_MMAP2, 0, {(uint64_t(3) << 32) | 3, 0x1000, 0x2000, 0x40, 0, 0, 0, 0}, path);
    auto m = parse_mmap2(mmap);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->start, 0x1000u);
    EXPECT_EQ(m->length, 0x2000u);
    EXPECT_EQ(m->pgoff, 0x40u);
    EXPECT_EQ(m->path, "/lib");

    auto lost = parse_lost(record(PERF_RECORD_LOST, 0, {1, 42}));
    ASSERT_TRUE(lost);
    EXPECT_EQ(lost->lost, 42u);
    EXPECT_FALSE(parse_lost(record(PERF_RECORD_LOST, 0, {1})));
    EXPECT_FALSE(parse_comm(mmap)); // wrong type
}

TEST(Records, DecodesForkAndExit) {
    auto fork = parse_task(record(PERF_RECORD_FORK, 0, {(uint64_t(4) << 32) | 9, (uint64_t(4) << 32) | 9, 555}));
    ASSERT_TRUE(fork);
    EXPECT_EQ(fork->pid, 9u);
    EXPECT_EQ(fork->ppid, 4u);
    EXPECT_FALSE(fork->exit);
    auto exit = parse_task(record(PERF_RECORD_EXIT, 0, {(uint64_t(4) << 32) | 9, (uint64_t(4) << 32) | 9}));
    ASSERT_TRUE(exit);
    EXPECT_TRUE(exit->exit);
    EXPECT_FALSE(parse_task(record(PERF_RECORD_FORK, 0, {9})));    // truncated
    EXPECT_FALSE(parse_task(record(PERF_RECORD_COMM, 0, {9, 9}))); // wrong type
}

// The tracker's records, in order, on a process that exits before it is
// looked up, and on one looked up before it exits.
TEST(Records, SideBandRecordsFollowAProcess) {
    stacks::ProcessMaps maps("/nonexistent");
    std::vector<uint8_t> name = {'p', 0, 0, 0, 0, 0, 0, 0};
    std::vector<uint8_t> path = {'/', 'p', 0, 0, 0, 0, 0, 0};
    const uint64_t ids = (uint64_t(5) << 32) | 5;
    stacks::apply_side_band(record(PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, {ids}, name), maps);
    stacks::apply_side_band(record(PERF_RECORD_MMAP2, 0, {ids, 0x1000, 0x1000, 0x2000, 0, 0, 0, 0}, path), maps);
    // pid 6 forked from 5: the same mappings.
    stacks::apply_side_band(record(PERF_RECORD_FORK, 0, {(uint64_t(5) << 32) | 6, (uint64_t(5) << 32) | 6}), maps);
    ASSERT_TRUE(maps.find(5, 0x1800));
    EXPECT_EQ(maps.find(5, 0x1800)->file_offset, 0x2000u);
    // 5 was looked up: kept after its exit. 6 was not: forgotten.
    stacks::apply_side_band(record(PERF_RECORD_EXIT, 0, {ids, ids}), maps);
    stacks::apply_side_band(record(PERF_RECORD_EXIT, 0, {(uint64_t(5) << 32) | 6, (uint64_t(5) << 32) | 6}), maps);
    EXPECT_TRUE(maps.find(5, 0x1800));
    EXPECT_FALSE(maps.find(6, 0x1800));
}

} // namespace
} // namespace dtrace::live::perf
