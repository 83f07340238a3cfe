// user_stack_table_test.cpp: the process table a plugin keeps in the
// in-kernel ustack() walk's maps (live/fastpath_user_stacks.h,
// UserStackTable): filled with a process's executable mappings, refused for
// a second process on the same maps, written again after the process maps
// or unmaps a file (only what changed, read back as a full write), disabled
// by the marks before a mapping call returns (fastpath_user_stack_marks.h),
// and disabled (every walk to user space) when it cannot be written again.
// Creates BPF maps and attaches tracepoint programs (root; skipped
// otherwise, saying so).
#include "created_maps.h"
#include "fastpath/user_stacks.h"
#include "fastpath_user_stacks.h"
#include "process_maps.h"

#include <gtest/gtest.h>

#include <bpf/bpf.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace dtrace;
namespace stacks = dtrace::live::stacks;

namespace {

std::vector<stacks::Mapping> mappings_of(int64_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
    std::stringstream text;
    text << in.rdbuf();
    return stacks::parse_maps(text.str());
}

class UserStackTableTest : public ::testing::Test {
  protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "creating BPF maps needs root";
        fastpath::MapPlan plan;
        const fastpath::UserStackWalk walk = fastpath::plan_user_stack_walk(plan, 4, false);
        std::vector<int32_t> handles;
        ASSERT_EQ(test::create_maps(loader, plan, handles), "");
        maps = {handles[walk.rows_map], handles[walk.blocks_map], handles[walk.mappings_map]};
        std::string error;
        if (live::UserStackMarks::attach(loader.map_fd(maps.mappings), getpid(), error) == nullptr)
            GTEST_SKIP() << "the table's marks (tracepoint programs on the mapping calls) cannot attach here: "
                         << error;
    }

    // The mappings map's entries.
    std::vector<dtrace_fastpath_user_mapping> entries_of(const live::UserStackMaps &of) {
        std::vector<dtrace_fastpath_user_mapping> entries(DTRACE_UNWIND_MAPPINGS_MAX);
        read_entries(of.mappings, entries.data(), entries.size());
        return entries;
    }

    // The [start, end) of the mappings map's used entries, in its order.
    std::vector<std::pair<uint64_t, uint64_t>> table_mappings() {
        std::vector<std::pair<uint64_t, uint64_t>> used;
        for (const dtrace_fastpath_user_mapping &m : entries_of(maps))
            if (m.start != UINT64_MAX)
                used.emplace_back(m.start, m.end);
        return used;
    }

    // How many entries a walk can use (nrows not 0).
    size_t enabled_entries() {
        const std::vector<dtrace_fastpath_user_mapping> entries = entries_of(maps);
        return static_cast<size_t>(std::count_if(entries.begin(), entries.end(),
                                                 [](const dtrace_fastpath_user_mapping &m) { return m.nrows != 0; }));
    }

    // What a walk reads of the table, wherever the writes put each file:
    // by mapping, its range, bias, rows and block entries (from its first row).
    struct ReadMapping {
        uint64_t start = 0, end = 0, bias = 0;
        std::vector<dtrace_fastpath_unwind_row> rows;
        std::vector<uint32_t> blocks;
        bool operator==(const ReadMapping &o) const {
            return start == o.start && end == o.end && bias == o.bias && blocks == o.blocks &&
                   rows.size() == o.rows.size() &&
                   std::memcmp(rows.data(), o.rows.data(), rows.size() * sizeof rows[0]) == 0;
        }
    };
    std::vector<ReadMapping> read_table(const live::UserStackMaps &of) {
        std::vector<dtrace_fastpath_unwind_row> rows(DTRACE_UNWIND_ROWS_MAX);
        std::vector<uint32_t> blocks(DTRACE_UNWIND_BLOCKS_MAX);
        read_entries(of.rows, rows.data(), rows.size());
        read_entries(of.blocks, blocks.data(), blocks.size());
        std::vector<ReadMapping> table;
        for (const dtrace_fastpath_user_mapping &m : entries_of(of)) {
            if (m.start == UINT64_MAX)
                continue;
            ReadMapping read{m.start, m.end, 0, {}, {}};
            if (m.nrows != 0) {
                read.bias = m.bias;
                read.rows.assign(rows.begin() + m.first_row, rows.begin() + m.first_row + m.nrows);
                const uint64_t nblocks = (m.end - m.start + 255) / 256 + 1; // kernel_unwind_blocks()'s
                for (uint64_t b = 0; b < nblocks; b++)
                    read.blocks.push_back(blocks[m.first_block + b] - m.first_row);
            }
            table.push_back(std::move(read));
        }
        return table;
    }

    // Fresh maps, written in full with this process's table.
    std::vector<ReadMapping> full_write() {
        fastpath::MapPlan plan;
        const fastpath::UserStackWalk walk = fastpath::plan_user_stack_walk(plan, 4, false);
        std::vector<int32_t> handles;
        EXPECT_EQ(test::create_maps(loader, plan, handles), "");
        const live::UserStackMaps full{handles[walk.rows_map], handles[walk.blocks_map], handles[walk.mappings_map]};
        std::string error;
        EXPECT_TRUE(live::write_user_stack_table(loader, full, getpid(), images, error)) << error;
        return read_table(full);
    }

    static std::vector<std::pair<uint64_t, uint64_t>> expected(int64_t pid) {
        std::vector<std::pair<uint64_t, uint64_t>> out;
        for (const stacks::Mapping &m : mappings_of(pid))
            out.emplace_back(m.start, m.end);
        return out;
    }

    // Reads `count` values of an array map with keys 0.. (BPF_MAP_LOOKUP_BATCH).
    void read_entries(int32_t map, void *values, size_t count) {
        std::vector<uint32_t> keys(count);
        uint32_t batch = 0, n = static_cast<uint32_t>(count);
        ASSERT_EQ(bpf_map_lookup_batch(loader.map_fd(map), nullptr, &batch, keys.data(), values, &n, nullptr) == 0 ||
                      errno == ENOENT,
                  true)
            << std::strerror(errno);
        ASSERT_EQ(n, count);
    }

    live::FastpathLoader loader;
    live::UserStackMaps maps;
    stacks::ImageCache images;
    live::UserStackTable table;
};

// A child that waits to be killed.
pid_t idle_child() {
    const pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    return child;
}

} // namespace

TEST_F(UserStackTableTest, HoldsTheProcessMappingsAndOneProcessOnly) {
    std::string error;
    ASSERT_TRUE(table.fill(loader, maps, getpid(), images, error)) << error;
    EXPECT_FALSE(expected(getpid()).empty());
    EXPECT_EQ(table_mappings(), expected(getpid()));
    EXPECT_TRUE(table.fill(loader, maps, getpid(), images, error)) << "the same process again: " << error;

    const pid_t other = getppid();
    EXPECT_FALSE(table.fill(loader, maps, other, images, error));
    EXPECT_NE(error.find("process " + std::to_string(getpid())), std::string::npos) << error;
    EXPECT_EQ(table_mappings(), expected(getpid())) << "a refused process writes nothing";
}

TEST_F(UserStackTableTest, RefreshFollowsAFileMappedAndUnmapped) {
    std::string error;
    ASSERT_TRUE(table.fill(loader, maps, getpid(), images, error)) << error;
    const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    void *code = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
    close(fd);
    ASSERT_NE(code, MAP_FAILED);
    const auto start = reinterpret_cast<uint64_t>(code);
    auto holds = [&](const std::vector<std::pair<uint64_t, uint64_t>> &table) {
        return std::find(table.begin(), table.end(), std::make_pair(start, start + 4096)) != table.end();
    };
    EXPECT_FALSE(holds(table_mappings())) << "not written again yet";
    EXPECT_TRUE(table.refresh(loader, getppid(), images, error)) << "another process: nothing to do";
    EXPECT_FALSE(holds(table_mappings()));
    ASSERT_TRUE(table.refresh(loader, getpid(), images, error)) << error;
    EXPECT_TRUE(holds(table_mappings()));
    EXPECT_EQ(table_mappings(), expected(getpid()));
    munmap(code, 4096);
    ASSERT_TRUE(table.refresh(loader, getpid(), images, error)) << error;
    EXPECT_FALSE(holds(table_mappings()));
    EXPECT_EQ(table_mappings(), expected(getpid()));
}

// The process's end disables its table at once (a process given the pid
// later has other mappings, announced by no mark), and the table cannot be
// written again.
TEST_F(UserStackTableTest, AProcessGoneLeavesNoMapping) {
    const pid_t child = idle_child();
    ASSERT_GT(child, 0);
    std::string error;
    const bool filled = table.fill(loader, maps, child, images, error);
    const size_t enabled = enabled_entries();
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    ASSERT_TRUE(filled) << error;
    EXPECT_FALSE(table_mappings().empty());
    EXPECT_GT(enabled, 0u);
    EXPECT_EQ(enabled_entries(), 0u) << "the child's end, with no write since";
    EXPECT_FALSE(table.refresh(loader, child, images, error));
    EXPECT_NE(error.find("is gone"), std::string::npos) << error;
    EXPECT_EQ(enabled_entries(), 0u) << "a table not written again must send every walk to user space";
}

// A thread's end (not the leader's) leaves the table as it is.
TEST_F(UserStackTableTest, AThreadEndLeavesTheTable) {
    std::string error;
    ASSERT_TRUE(table.fill(loader, maps, getpid(), images, error)) << error;
    const size_t enabled = enabled_entries();
    ASSERT_GT(enabled, 0u);
    std::thread([] {}).join();
    EXPECT_EQ(enabled_entries(), enabled);
}

TEST_F(UserStackTableTest, NewMapsReplaceTheBinding) {
    std::string error;
    ASSERT_TRUE(table.fill(loader, maps, getpid(), images, error)) << error;
    fastpath::MapPlan plan;
    const fastpath::UserStackWalk walk = fastpath::plan_user_stack_walk(plan, 4, false);
    std::vector<int32_t> handles;
    ASSERT_EQ(test::create_maps(loader, plan, handles), "");
    const live::UserStackMaps next{handles[walk.rows_map], handles[walk.blocks_map], handles[walk.mappings_map]};
    const pid_t child = idle_child();
    ASSERT_GT(child, 0);
    const bool filled = table.fill(loader, next, child, images, error);
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    EXPECT_TRUE(filled) << "the installer's next attempt creates new maps: " << error;
}

// A library loaded since: only its rows and blocks are written (batched),
// and the table reads back as a full write of the process's table.
TEST_F(UserStackTableTest, ALibraryLoadWritesOnlyWhatChangedAndReadsBackAsAFullWrite) {
    std::string error;
    ASSERT_TRUE(table.fill(loader, maps, getpid(), images, error)) << error;
    const live::UserStackTable::WriteCounts first = table.last_write();
    EXPECT_GT(first.rows, 0u);
    EXPECT_EQ(read_table(maps), full_write());

    void *library = dlopen("libresolv.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr)
        GTEST_SKIP() << "libresolv.so.2 (Debian's libc6) cannot be loaded: " << dlerror();
    EXPECT_EQ(enabled_entries(), 0u) << "the library's mmap() disabled the table";
    ASSERT_TRUE(table.follow_marks(loader, images, error)) << error;
    const live::UserStackTable::WriteCounts load = table.last_write();
    EXPECT_GT(load.rows, 0u) << "the library's rows";
    EXPECT_LT(load.rows, first.rows / 2) << "the other files' rows stay";
    EXPECT_EQ(read_table(maps), full_write());
    EXPECT_GT(enabled_entries(), 0u);

    dlclose(library);
    ASSERT_TRUE(table.follow_marks(loader, images, error)) << error;
    EXPECT_EQ(table.last_write().rows, 0u) << "an unload writes no rows";
    EXPECT_EQ(read_table(maps), full_write());
}

// munmap() and mmap() of another file at the same address: the table is
// disabled when each call returns, before anyone writes it again, and then
// reads back as a full write with the second file's rows there.
TEST_F(UserStackTableTest, AMappingCallDisablesTheTableBeforeItReturns) {
    std::string error;
    ASSERT_TRUE(table.fill(loader, maps, getpid(), images, error)) << error;
    const int exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    const std::vector<stacks::Mapping> now = mappings_of(getpid());
    const auto libc_mapping = std::find_if(
        now.begin(), now.end(), [](const stacks::Mapping &m) { return m.path.find("/libc.so") != std::string::npos; });
    ASSERT_NE(libc_mapping, now.end()) << "the test's libc";
    const int libc = open(libc_mapping->path.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(exe, 0);
    ASSERT_GE(libc, 0);
    void *code = mmap(nullptr, 4 * 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, exe, 0);
    ASSERT_NE(code, MAP_FAILED);
    EXPECT_EQ(enabled_entries(), 0u) << "an mmap() of code disables the table";
    ASSERT_TRUE(table.follow_marks(loader, images, error)) << error;
    EXPECT_EQ(read_table(maps), full_write());
    const size_t enabled = enabled_entries();
    EXPECT_GT(enabled, 0u);

    // Data mapped and unmapped elsewhere leaves the table as it is.
    void *data = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(data, MAP_FAILED);
    ASSERT_EQ(munmap(data, 1 << 20), 0);
    EXPECT_EQ(enabled_entries(), enabled) << "a call away from the table's code";

    ASSERT_EQ(munmap(code, 4 * 4096), 0);
    EXPECT_EQ(enabled_entries(), 0u) << "munmap() of code the table holds disables it before returning";
    void *again = mmap(code, 4 * 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, libc, 0);
    ASSERT_EQ(again, code);
    EXPECT_EQ(enabled_entries(), 0u);
    ASSERT_TRUE(table.follow_marks(loader, images, error)) << error;
    const std::vector<ReadMapping> read = read_table(maps);
    EXPECT_EQ(read, full_write());
    const auto there = std::find_if(read.begin(), read.end(),
                                    [&](const ReadMapping &m) { return m.start == reinterpret_cast<uint64_t>(code); });
    ASSERT_NE(there, read.end());
    EXPECT_FALSE(there->rows.empty());

    // mprotect() taking the execution right away.
    ASSERT_EQ(mprotect(code, 4096, PROT_READ), 0);
    EXPECT_EQ(enabled_entries(), 0u) << "mprotect() of code the table holds";
    munmap(code, 4 * 4096);
    close(exe);
    close(libc);
    ASSERT_TRUE(table.follow_marks(loader, images, error)) << error;
    EXPECT_EQ(read_table(maps), full_write());
}

// The publisher refuses a table read before a mapping call: the sequence
// read then has moved, and nothing is enabled.
TEST_F(UserStackTableTest, APublishAfterAMappingCallIsRefused) {
    std::string error;
    std::unique_ptr<live::UserStackMarks> marks =
        live::UserStackMarks::attach(loader.map_fd(maps.mappings), getpid(), error);
    ASSERT_NE(marks, nullptr) << error;
    std::array<uint32_t, DTRACE_UNWIND_MAPPINGS_MAX> nrows{};
    nrows.fill(7);
    const uint64_t before = marks->sequence();
    void *data = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(data, MAP_FAILED);
    munmap(data, 4096);
    EXPECT_NE(marks->sequence(), before);
    EXPECT_EQ(marks->publish(before, nrows, error), live::UserStackMarks::Publish::Raced) << error;
    EXPECT_EQ(enabled_entries(), 0u);
    EXPECT_EQ(marks->publish(marks->sequence(), nrows, error), live::UserStackMarks::Publish::Done) << error;
    EXPECT_EQ(enabled_entries(), DTRACE_UNWIND_MAPPINGS_MAX);
}

// The marks' programs, maps and links are the table's file descriptors
// (the images' open files are the cache's): none stays once it is destroyed.
TEST_F(UserStackTableTest, NothingStaysAttached) {
    auto bpf_objects = [] {
        size_t count = 0;
        for (const auto &fd : std::filesystem::directory_iterator("/proc/self/fd")) {
            std::error_code ignored;
            const std::string target = std::filesystem::read_symlink(fd.path(), ignored).string();
            count += target.starts_with("anon_inode:") &&
                     (target.find("perf_event") != std::string::npos || target.find("bpf") != std::string::npos);
        }
        return count;
    };
    const size_t before = bpf_objects();
    {
        live::UserStackTable followed;
        std::string error;
        ASSERT_TRUE(followed.fill(loader, maps, getpid(), images, error)) << error;
        EXPECT_GT(bpf_objects(), before);
    }
    EXPECT_EQ(bpf_objects(), before);
}
