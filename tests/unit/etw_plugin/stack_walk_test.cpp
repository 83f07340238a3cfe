// stack_walk_test.cpp: StackWalk/Stack payloads into kernel and user frames.
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "reader/kernel_groups.h"
#include "stack_walk.h"

namespace dtrace::etw::plugin {
namespace {

using fixture::Bytes;
using fixture::put;

constexpr uint16_t kStackHook = 0x1820;

Event stack_event(const Bytes &payload, uint8_t pointer_size) {
    Event e;
    e.provider = kernel_class_guid(kStackHook);
    e.opcode = 32;
    e.hook_id = kStackHook;
    e.pointer_size = pointer_size;
    e.payload = payload;
    return e;
}

Bytes header(int64_t timestamp, uint32_t pid, uint32_t tid) {
    Bytes b;
    put(b, timestamp);
    put(b, pid);
    put(b, tid);
    return b;
}

TEST(StackWalk, SplitsSixtyFourBitFramesAtTheKernelBoundary) {
    Bytes p = header(1035, 100, 101);
    put(p, uint64_t{0xFFFFF80000001000});
    put(p, uint64_t{0xFFFFF80000002000});
    put(p, uint64_t{0x00007FF600001000});
    put(p, uint64_t{0x00007FF600002000});
    const Event e = stack_event(p, 8);
    ASSERT_TRUE(is_stack_walk(e));
    WalkedStack s;
    ASSERT_TRUE(decode_stack_walk(e, s));
    EXPECT_EQ(s.event_timestamp, 1035);
    EXPECT_EQ(s.pid, 100u);
    EXPECT_EQ(s.tid, 101u);
    EXPECT_EQ(std::vector<uint64_t>(s.kernel().begin(), s.kernel().end()),
              (std::vector<uint64_t>{0xFFFFF80000001000, 0xFFFFF80000002000}));
    EXPECT_EQ(std::vector<uint64_t>(s.user().begin(), s.user().end()),
              (std::vector<uint64_t>{0x00007FF600001000, 0x00007FF600002000}));
}

TEST(StackWalk, ThirtyTwoBitFramesAndAUserOnlyStack) {
    Bytes p = header(7, 1, 2);
    put(p, uint32_t{0x00401000});
    put(p, uint32_t{0x80001000}); // a kernel-looking frame after a user one stays a user frame
    WalkedStack s;
    ASSERT_TRUE(decode_stack_walk(stack_event(p, 4), s));
    EXPECT_TRUE(s.kernel().empty());
    EXPECT_EQ(s.user().size(), 2u);
    EXPECT_EQ(s.user()[0], 0x00401000u);
}

TEST(StackWalk, ReusesStorageAndRefusesShortPayloads) {
    Bytes full = header(1, 1, 1);
    put(full, uint64_t{0xFFFFF80000001000});
    WalkedStack s;
    ASSERT_TRUE(decode_stack_walk(stack_event(full, 8), s));
    Bytes none = header(2, 1, 1);
    ASSERT_TRUE(decode_stack_walk(stack_event(none, 8), s));
    EXPECT_TRUE(s.frames.empty());
    EXPECT_EQ(s.kernel_depth, 0u);
    Bytes cut(none.begin(), none.begin() + 15);
    EXPECT_FALSE(decode_stack_walk(stack_event(cut, 8), s));
}

TEST(StackWalk, OnlyStackEventsOfTheStackWalkClass) {
    Bytes p = header(1, 1, 1);
    Event other = stack_event(p, 8);
    other.opcode = 37; // StackKeyKernel
    EXPECT_FALSE(is_stack_walk(other));
    Event foreign = stack_event(p, 8);
    foreign.provider = kernel_class_guid(0x0320);
    EXPECT_FALSE(is_stack_walk(foreign));
}

} // namespace
} // namespace dtrace::etw::plugin
