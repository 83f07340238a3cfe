// user_stack_walk_test.cpp: the in-kernel ustack() walk (fastpath/user_stacks.h)
// run by this kernel (root; skipped otherwise, saying so) on this test's own
// stack, with the rows of the files it maps in the walk's maps
// (live/stacks/kernel_unwind_table.h), against the user-space unwinder
// (live/stacks/cfi_unwinder.h) over the copy the user-space path would make:
// the same frames, through this program's functions and libc (qsort's
// comparator, -O2, no frame pointers); the same stop at a shallow copy and
// at a frame limit; the fallback to user space at a signal frame (libc's
// __restore_rt has a DWARF expression), in a file without rows and at an
// event of another process than the table's; the walk from the current
// task's registers (a tracepoint's).
//
// The walk runs as a raw tracepoint program by BPF_PROG_TEST_RUN
// (user_stack_walk_program.h).
#include "cfi_unwinder.h"
#include "kernel_unwind_table.h"
#include "user_stack_walk_program.h"

#include <gtest/gtest.h>

#include <asm/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace dtrace;
namespace stacks = dtrace::live::stacks;

namespace {

constexpr uint64_t kWalked = test::UserStackWalkProgram::kWalked, kFellBack = test::UserStackWalkProgram::kFellBack;

// Where both walks are compared: what each found.
struct Outcome {
    uint64_t status = 0;          // kWalked, kFellBack
    std::vector<uint64_t> kernel; // the kernel's frames, zero-padded
    std::vector<uint64_t> user;   // the user-space unwinder's, zero-padded
    size_t user_frames = 0;
};

std::vector<stacks::Mapping> own_mappings() {
    std::ifstream in("/proc/self/maps");
    std::stringstream text;
    text << in.rdbuf();
    return stacks::parse_maps(text.str());
}

std::string own_executable() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string("?");
}

class UserStackWalk : public ::testing::Test {
  protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "loading BPF programs needs root";
        mappings = own_mappings();
    }

    std::shared_ptr<stacks::ElfImage> image_of(const std::string &path) { return images.image_for(path, getpid()); }

    // The walk of `frames` frames (user_stack_walk_program.h). False with the reason.
    ::testing::AssertionResult load(uint32_t frames, uint32_t stack_bytes,
                                    const fastpath::UserRegisterPlace &place = {0, 8, 16}) {
        if (std::string error = program.load(loader, images, frames, stack_bytes, place); !error.empty())
            return ::testing::AssertionFailure() << error;
        walk_frames = frames;
        walk_stack_bytes = stack_bytes;
        return ::testing::AssertionSuccess();
    }

  public:
    // Both walks from `regs`, on the stack as it is now (the caller's frame live).
    void walk_both(const uint64_t (&regs)[3]) {
        const uint64_t ip = regs[0], sp = regs[1], bp = regs[2];
        // The user-space path's copy: the largest of its sizes readable from rsp.
        std::vector<uint8_t> copy;
        for (size_t size : {8192u, 4096u, 2048u, 1024u, 512u, 256u}) {
            if (size > walk_stack_bytes)
                continue;
            copy.resize(size);
            iovec local{copy.data(), size}, remote{reinterpret_cast<void *>(sp), size};
            if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size))
                break;
            copy.clear();
        }
        stacks::UserRegs user_regs;
        user_regs.value[stacks::kDwarfIp] = ip;
        user_regs.value[stacks::kDwarfSp] = sp;
        user_regs.value[6] = bp;
        user_regs.known[stacks::kDwarfIp] = user_regs.known[stacks::kDwarfSp] = user_regs.known[6] = true;
        outcome.user.assign(walk_frames, 0);
        outcome.user_frames = stacks::unwind(
            user_regs, {sp, copy},
            [this](uint64_t pc, uint64_t &link) -> stacks::ElfImage * {
                for (const stacks::Mapping &m : mappings) {
                    if (pc < m.start || pc >= m.end)
                        continue;
                    std::shared_ptr<stacks::ElfImage> image = image_of(m.path);
                    std::optional<uint64_t> at =
                        image ? image->address_of_offset(pc - m.start + m.file_offset) : std::optional<uint64_t>();
                    if (!at)
                        return nullptr;
                    link = *at;
                    return image.get();
                }
                return nullptr;
            },
            outcome.user);

        std::string error;
        std::optional<test::UserStackWalkProgram::Result> result = program.run(regs, error);
        ASSERT_TRUE(result) << error;
        outcome.status = result->status;
        outcome.kernel = result->frames;
    }

  protected:
    live::FastpathLoader loader;
    std::vector<stacks::Mapping> mappings;
    stacks::ImageCache images;
    test::UserStackWalkProgram program;
    uint32_t walk_frames = 0, walk_stack_bytes = 0;
    Outcome outcome;
};

// The registers here (rip of the instruction after the lea), and both walks.
UserStackWalk *current = nullptr;

__attribute__((noinline)) void capture_and_walk() {
    uint64_t regs[3];
    test::take_registers(regs);
    current->walk_both(regs);
}

void walk_in_handler(int) {
    capture_and_walk();
}

} // namespace

TEST_F(UserStackWalk, FindsTheFramesTheUserSpaceUnwinderFinds) {
    ASSERT_TRUE(load(20, fastpath::kUserStackCopyBytes));
    current = this;
    test::call_from_qsort(4, capture_and_walk);
    EXPECT_EQ(outcome.status, kWalked);
    EXPECT_EQ(outcome.kernel, outcome.user);
    // capture_and_walk, compare_and_call, libc's sort (one or more), qsort, call_from_qsort x5, the test...
    EXPECT_GE(outcome.user_frames, 10u);
}

TEST_F(UserStackWalk, StopsAtTheFrameLimitAndAtTheEndOfAShallowCopy) {
    for (auto [frames, bytes] : {std::pair{4u, fastpath::kUserStackCopyBytes}, std::pair{20u, 256u}}) {
        SCOPED_TRACE(std::to_string(frames) + " frames, " + std::to_string(bytes) + " bytes");
        ASSERT_TRUE(load(frames, bytes));
        current = this;
        test::call_from_qsort(6, capture_and_walk);
        EXPECT_EQ(outcome.status, kWalked);
        EXPECT_EQ(outcome.kernel, outcome.user);
        EXPECT_GE(outcome.user_frames, 2u);
        EXPECT_LT(outcome.user_frames, 20u); // the limit or the copy ended it
    }
}

TEST_F(UserStackWalk, GoesToUserSpaceAtASignalFrame) {
    ASSERT_TRUE(load(20, fastpath::kUserStackCopyBytes));
    current = this;
    struct sigaction action {
    }, previous{};
    action.sa_handler = walk_in_handler;
    ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
    raise(SIGUSR1);
    sigaction(SIGUSR1, &previous, nullptr);
    EXPECT_EQ(outcome.status, kFellBack);
    // The user-space unwinder evaluates __restore_rt's expressions and goes on to raise's caller.
    EXPECT_GE(outcome.user_frames, 5u);
}

TEST_F(UserStackWalk, GoesToUserSpaceInAFileWithoutRows) {
    ASSERT_TRUE(load(20, fastpath::kUserStackCopyBytes));
    // This program's mapping, as the table has it (parse_maps()'s order), without rows.
    const auto here = reinterpret_cast<uint64_t>(&capture_and_walk);
    uint32_t index = 0;
    while (index < mappings.size() && !(here >= mappings[index].start && here < mappings[index].end))
        index++;
    ASSERT_LT(index, mappings.size());
    std::string error;
    dtrace_fastpath_user_mapping without_rows{mappings[index].start, mappings[index].end, 0, 0, 0, 0, 0};
    ASSERT_TRUE(loader.update_map(program.mappings_map, &index, &without_rows, error)) << error;
    current = this;
    test::call_from_qsort(1, capture_and_walk);
    EXPECT_EQ(outcome.status, kFellBack);
}

// A stack none of whose bytes can be read (a thread past its exit_mm() at
// sched:::off-cpu) is declined: the user-space path shows no frame there,
// where the walk alone would show the pc's.
TEST_F(UserStackWalk, GoesToUserSpaceWhenNoStackCanBeRead) {
    ASSERT_TRUE(load(20, fastpath::kUserStackCopyBytes));
    current = this;
    test::call_from_qsort(1, capture_and_walk);
    ASSERT_EQ(outcome.status, kWalked);
    const uint64_t regs[3] = {reinterpret_cast<uint64_t>(&capture_and_walk), 8, 0}; // rsp in page 0
    std::string error;
    std::optional<test::UserStackWalkProgram::Result> result = program.run(regs, error);
    ASSERT_TRUE(result) << error;
    EXPECT_EQ(result->status, kFellBack);
}

// The table names its process; another process's event is declined
// before anything is read (a system call's probe fires in every process).
TEST_F(UserStackWalk, DeclinesAnEventOfAnotherProcess) {
    ASSERT_TRUE(load(20, fastpath::kUserStackCopyBytes));
    current = this;
    test::call_from_qsort(1, capture_and_walk);
    EXPECT_EQ(outcome.status, kWalked);
    const uint32_t key = DTRACE_UNWIND_PROCESS_ENTRY;
    std::string error;
    for (const int64_t process : {int64_t{getppid()}, int64_t{0}}) {
        SCOPED_TRACE("the table's process " + std::to_string(process));
        const dtrace_fastpath_user_mapping other{uint64_t(process), uint64_t(process), 0, 0, 0, 0, 0};
        ASSERT_TRUE(loader.update_map(program.mappings_map, &key, &other, error)) << error;
        test::call_from_qsort(1, capture_and_walk);
        EXPECT_EQ(outcome.status, kFellBack);
    }
    const dtrace_fastpath_user_mapping own{uint64_t(getpid()), uint64_t(getpid()), 0, 0, 0, 0, 0};
    ASSERT_TRUE(loader.update_map(program.mappings_map, &key, &own, error)) << error;
    test::call_from_qsort(1, capture_and_walk);
    EXPECT_EQ(outcome.status, kWalked);
}

// At a tracepoint the user registers are the current task's struct
// pt_regs: here, this thread's at its bpf() system call (the test run's),
// from libc's wrapper up through this program.
TEST_F(UserStackWalk, StartsFromTheCurrentTasksRegisters) {
    ASSERT_TRUE(load(
        20, fastpath::kUserStackCopyBytes,
        {int16_t(offsetof(pt_regs, rip)), int16_t(offsetof(pt_regs, rsp)), int16_t(offsetof(pt_regs, rbp)), true}));
    const uint64_t ignored[3] = {0, 0, 0}; // the context: not read
    std::string error;
    std::optional<test::UserStackWalkProgram::Result> result = program.run(ignored, error);
    ASSERT_TRUE(result) << error;
    EXPECT_EQ(result->status, kWalked);
    auto mapped_from = [&](uint64_t pc, const std::string &name) {
        for (const stacks::Mapping &m : mappings)
            if (pc >= m.start && pc < m.end && m.path.find(name) != std::string::npos)
                return true;
        return false;
    };
    ASSERT_FALSE(result->frames.empty());
    EXPECT_TRUE(mapped_from(result->frames[0], "libc.so.6")) << std::hex << result->frames[0];
    const std::string self = own_executable();
    EXPECT_TRUE(std::any_of(result->frames.begin(), result->frames.end(),
                            [&](uint64_t pc) { return pc != 0 && mapped_from(pc, self); }))
        << "no frame of " << self;
}

TEST_F(UserStackWalk, AVerifiedWalkTakesAtMost64Frames) {
    EXPECT_TRUE(load(fastpath::kMaxUserStackFrames, fastpath::kUserStackCopyBytes));
    fastpath::MapPlan plan;
    fastpath::BpfEmitter out;
    EXPECT_THROW(fastpath::emit_user_stack_walk(out, fastpath::plan_user_stack_walk(plan, 65, true), {0, 8, 16}, 65,
                                                fastpath::kUserStackCopyBytes, out.new_label()),
                 fastpath::Refusal);
}

// Nearly every row of libc takes the kernel's compact form.
TEST_F(UserStackWalk, LibcRowsAreNearlyAllCompact) {
    size_t compact = 0, other = 0;
    for (const stacks::Mapping &m : mappings) {
        if (m.path.find("libc.so.6") == std::string::npos)
            continue;
        std::shared_ptr<stacks::ElfImage> image = image_of(m.path);
        ASSERT_NE(image, nullptr);
        const uint64_t start = *image->address_of_offset(m.file_offset);
        for (const dtrace_fastpath_unwind_row &row : stacks::kernel_unwind_rows(*image, start, start + m.end - m.start))
            (row.kind == DTRACE_UNWIND_ROW_COMPACT ? compact : other) += row.kind != DTRACE_UNWIND_ROW_NONE;
    }
    if (compact + other == 0)
        GTEST_SKIP() << "no libc.so.6 mapped in this process";
    EXPECT_GT(other, 0u); // __restore_rt's signal frame
    EXPECT_GE(compact * 100, (compact + other) * 99) << compact << " compact, " << other << " other";
}
