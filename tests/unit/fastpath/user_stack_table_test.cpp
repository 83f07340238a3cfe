// user_stack_table_test.cpp: the process table a plugin keeps in the
// in-kernel ustack() walk's maps (live/fastpath_user_stacks.h,
// UserStackTable): filled with a process's executable mappings, refused for
// a second process on the same maps, written again after the process maps
// or unmaps a file, and emptied (every walk to user space) when it cannot
// be written again. Creates BPF maps (root; skipped otherwise, saying so).
#include "created_maps.h"
#include "fastpath/user_stacks.h"
#include "fastpath_user_stacks.h"
#include "process_maps.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

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
        const fastpath::UserStackWalk walk = fastpath::plan_user_stack_walk(plan, 4);
        std::vector<int32_t> handles;
        ASSERT_EQ(test::create_maps(loader, plan, handles), "");
        maps = {handles[walk.rows_map], handles[walk.blocks_map], handles[walk.mappings_map]};
    }

    // The [start, end) of the mappings map's used entries, in its order.
    std::vector<std::pair<uint64_t, uint64_t>> table_mappings() {
        std::vector<dtrace_fastpath_user_mapping> entries(DTRACE_UNWIND_MAPPINGS_MAX);
        auto entry = [](void *arg, const void *key, const void *values, uint32_t) {
            uint32_t index = 0;
            std::memcpy(&index, key, sizeof index);
            std::memcpy(&(*static_cast<std::vector<dtrace_fastpath_user_mapping> *>(arg))[index], values,
                        sizeof(dtrace_fastpath_user_mapping));
        };
        std::string error;
        EXPECT_TRUE(loader.read_map(maps.mappings, entry, &entries, error)) << error;
        std::vector<std::pair<uint64_t, uint64_t>> used;
        for (const dtrace_fastpath_user_mapping &m : entries)
            if (m.start != UINT64_MAX)
                used.emplace_back(m.start, m.end);
        return used;
    }

    static std::vector<std::pair<uint64_t, uint64_t>> expected(int64_t pid) {
        std::vector<std::pair<uint64_t, uint64_t>> out;
        for (const stacks::Mapping &m : mappings_of(pid))
            out.emplace_back(m.start, m.end);
        return out;
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

TEST_F(UserStackTableTest, AProcessGoneLeavesNoMapping) {
    const pid_t child = idle_child();
    ASSERT_GT(child, 0);
    std::string error;
    const bool filled = table.fill(loader, maps, child, images, error);
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    ASSERT_TRUE(filled) << error;
    EXPECT_FALSE(table_mappings().empty());
    EXPECT_FALSE(table.refresh(loader, child, images, error));
    EXPECT_NE(error.find("is gone"), std::string::npos) << error;
    EXPECT_TRUE(table_mappings().empty()) << "a table not written again must send every walk to user space";
}

TEST_F(UserStackTableTest, NewMapsReplaceTheBinding) {
    std::string error;
    ASSERT_TRUE(table.fill(loader, maps, getpid(), images, error)) << error;
    fastpath::MapPlan plan;
    const fastpath::UserStackWalk walk = fastpath::plan_user_stack_walk(plan, 4);
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
