// Tests of event_memory.h: the BPF fetch plan made of dtrace's fetches, and
// clause loads answered from what a record read at the event.
#include "event_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace dtrace::fbt;

namespace {

dtrace_memory_fetch fetch(uint8_t base, uint16_t index, int64_t offset, uint32_t length, bool string = false) {
    dtrace_memory_fetch f{};
    f.base = base;
    f.index = index;
    f.offset = offset;
    f.length = length;
    f.flags = string ? DTRACE_FETCH_STRING : 0;
    return f;
}

dtrace_probe_usage usage_of(const std::vector<dtrace_memory_fetch> &fetches) {
    dtrace_probe_usage usage{};
    usage.struct_size = sizeof usage;
    usage.nfetches = static_cast<uint32_t>(fetches.size());
    for (size_t i = 0; i < fetches.size(); ++i)
        usage.fetches[i] = fetches[i];
    return usage;
}

constexpr uint64_t kFile = 0xffff888004a3c000ull;
constexpr uint64_t kName = 0xffff888004b1e038ull;

} // namespace

TEST(FetchPlan, StepsFollowDtracesFetches) {
    const fbt_fetch_plan plan = fetch_plan_of(
        usage_of({fetch(DTRACE_FETCH_ARG, 0, 0x18, 8), fetch(DTRACE_FETCH_POINTER, 0, 0x28, 8),
                  fetch(DTRACE_FETCH_POINTER, 1, 0, 256, true), fetch(DTRACE_FETCH_CURTHREAD, 0, 0x740, 16, true)}));
    ASSERT_EQ(plan.nsteps, 4u);
    EXPECT_EQ(plan.steps[0].base, LIVE_FETCH_ARG);
    EXPECT_EQ(plan.steps[0].offset, 0x18);
    EXPECT_EQ(plan.steps[2].base, LIVE_FETCH_POINTER);
    EXPECT_EQ(plan.steps[2].index, 1);
    EXPECT_EQ(plan.steps[2].flags, LIVE_FETCH_STRING);
    EXPECT_EQ(plan.steps[3].base, LIVE_FETCH_CURTHREAD);
    EXPECT_EQ(plan.steps[3].length, 16u);
}

// A user-space constant address is no kernel memory, and the program has
// six arguments: left out, with the chain built on them (the pointer step
// renumbered past the hole).
TEST(FetchPlan, LeavesOutWhatCannotBeKernelMemory) {
    const fbt_fetch_plan plan =
        fetch_plan_of(usage_of({fetch(DTRACE_FETCH_ABSOLUTE, 0, 0x601000, 8), fetch(DTRACE_FETCH_POINTER, 0, 8, 8),
                                fetch(DTRACE_FETCH_ARG, 2, 0, 8), fetch(DTRACE_FETCH_POINTER, 2, 0x10, 100000),
                                fetch(7, 0, 0, 8), fetch(DTRACE_FETCH_ARG, LIVE_MAX_ARGS, 0, 8)}));
    ASSERT_EQ(plan.nsteps, 2u);
    EXPECT_EQ(plan.steps[0].base, LIVE_FETCH_ARG);
    EXPECT_EQ(plan.steps[1].base, LIVE_FETCH_POINTER);
    EXPECT_EQ(plan.steps[1].index, 0);
    EXPECT_EQ(plan.steps[1].length, uint32_t(FBT_FETCH_MAX_LENGTH)); // capped
}

// copyinstr(arg1) and copyinstr(arg3): user strings read at the event,
// after the kernel reads, as long as the capture limit (capped).
TEST(FetchPlan, AddsTheUserStringsOfArguments) {
    dtrace_probe_usage usage = usage_of({fetch(DTRACE_FETCH_ARG, 0, 0x18, 8)});
    usage.string_args = (1u << 1) | (1u << 3) | (1u << 20); // arg20: no such register
    fbt_fetch_plan plan = fetch_plan_of(usage);
    add_user_strings(plan, usage, 256);
    ASSERT_EQ(plan.nsteps, 3u);
    EXPECT_EQ(plan.steps[1].base, LIVE_FETCH_ARG);
    EXPECT_EQ(plan.steps[1].index, 1);
    EXPECT_EQ(plan.steps[1].flags, LIVE_FETCH_STRING);
    EXPECT_EQ(plan.steps[1].length, 256u);
    EXPECT_EQ(plan.steps[2].index, 3);
    add_user_strings(plan, usage, 100000);
    EXPECT_EQ(plan.steps[4].length, uint32_t(FBT_FETCH_MAX_LENGTH));
}

TEST(FetchPlan, UserStringsStopWhenThePlanIsFull) {
    std::vector<dtrace_memory_fetch> fetches(FBT_MAX_FETCHES - 1, fetch(DTRACE_FETCH_ARG, 0, 0, 8));
    dtrace_probe_usage usage = usage_of(fetches);
    usage.string_args = 0x3;
    fbt_fetch_plan plan = fetch_plan_of(usage);
    add_user_strings(plan, usage, 256);
    ASSERT_EQ(plan.nsteps, uint32_t(FBT_MAX_FETCHES));
    EXPECT_EQ(plan.steps[FBT_MAX_FETCHES - 1].index, 0); // arg0's string; arg1's has no room
}

class EventMemoryTest : public ::testing::Test {
  protected:
    void SetUp() override {
        // Step 0: 8 bytes at kFile+0x18 (a pointer); step 1: the string
        // "passwd" at kName; step 2: a fault at kFile+0x100.
        const uint64_t dentry = 0xffff888004b1e000ull;
        std::memcpy(data_.data(), &dentry, 8);
        std::memcpy(data_.data() + 8, "passwd", 7);
        fetched_[0] = {kFile + 0x18, 8, 0, 0};
        fetched_[1] = {kName, 7, 8, LIVE_FETCH_STRING};
        fetched_[2] = {kFile + 0x100, -14, 16, 0};
    }
    EventMemory memory() const { return EventMemory(fetched_, data_); }

    std::vector<uint8_t> data_ = std::vector<uint8_t>(64);
    live_fetched fetched_[3]{};
};

TEST_F(EventMemoryTest, AnswersLoadsInsideWhatWasRead) {
    uint64_t pointer = 0;
    ASSERT_EQ(memory().read(kFile + 0x18, &pointer, 8), 8);
    EXPECT_EQ(pointer, 0xffff888004b1e000ull);
    uint32_t low = 0;
    ASSERT_EQ(memory().read(kFile + 0x1c, &low, 4), 4);
    EXPECT_EQ(low, 0xffff8880u);
}

// The VM reads strings in chunks: a string's answer stops after its NUL.
TEST_F(EventMemoryTest, StringsEndAtTheirNul) {
    char chunk[64] = {};
    ASSERT_EQ(memory().read(kName, chunk, sizeof chunk), 7);
    EXPECT_STREQ(chunk, "passwd");
    ASSERT_EQ(memory().read(kName + 3, chunk, sizeof chunk), 4);
    EXPECT_STREQ(chunk, "swd");
}

TEST_F(EventMemoryTest, FaultsWhereTheEventsReadFailed) {
    uint64_t value = 0;
    EXPECT_EQ(memory().read(kFile + 0x100, &value, 8), -1);
}

// What no fetch holds (or holds only part of) is for the late reader.
TEST_F(EventMemoryTest, LeavesTheRestToTheLateReader) {
    uint64_t value[2] = {};
    EXPECT_FALSE(memory().read(kFile + 0x20, value, 8).has_value());
    EXPECT_FALSE(memory().read(kFile + 0x18, value, 16).has_value()); // bytes: all or nothing
    EXPECT_FALSE(memory().read(kFile + 0x10, value, 8).has_value());
}

// A record whose offsets point past its data answers nothing from there.
TEST_F(EventMemoryTest, IgnoresFetchesPastTheData) {
    fetched_[0].data_offset = 60;
    uint64_t value = 0;
    EXPECT_FALSE(memory().read(kFile + 0x18, &value, 8).has_value());
}

// User memory the program could not read (a page not present) is no
// fault: the process is asked, late.
TEST_F(EventMemoryTest, UserMemoryNotReadIsForTheLateReader) {
    const uint64_t user = 0x7ffc12345000ull;
    fetched_[2] = {user, -14, 16, 0}; // copyin(arg1, 8)
    uint64_t value = 0;
    EXPECT_FALSE(memory().read(user, &value, 8).has_value());
    fetched_[2] = {user, -14, 16, LIVE_FETCH_STRING};
    char chunk[16] = {};
    EXPECT_FALSE(memory().read(user, chunk, sizeof chunk).has_value());
    fetched_[2] = {user, 4, 16, LIVE_FETCH_STRING};
    std::memcpy(data_.data() + 16, "tmp", 4);
    ASSERT_EQ(memory().read(user, chunk, sizeof chunk), 4);
    EXPECT_STREQ(chunk, "tmp");
}
