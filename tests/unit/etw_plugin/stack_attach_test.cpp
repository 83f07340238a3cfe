// stack_attach_test.cpp: StackWalk stacks handed to the events they follow.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "byte_writer.h"
#include "kernel/stack_attach.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw::plugin::kernel {
namespace {

using fixture::Bytes;
using fixture::put;

constexpr uint16_t kSampledProfile = 0x0F2E;
constexpr uint16_t kStack = 0x1820;

// Records own their bytes; events point into them as the reader's do.
struct Record {
    Bytes bytes;
    Event event;
};

Record kernel_record(uint16_t hook, uint16_t cpu, int64_t timestamp, uint32_t tid, Bytes payload) {
    Record r;
    r.bytes = Bytes(16, 0); // a header
    r.bytes.insert(r.bytes.end(), payload.begin(), payload.end());
    r.event.kind = RecordKind::System;
    r.event.hook_id = hook;
    r.event.provider = kernel_class_guid(hook);
    r.event.opcode = static_cast<uint8_t>(hook);
    r.event.cpu = cpu;
    r.event.timestamp = timestamp;
    r.event.time_ns = timestamp * 100;
    r.event.tid = tid;
    return r;
}

void point(Record &r) {
    r.event.record = r.bytes;
    r.event.payload = std::span<const uint8_t>(r.bytes).subspan(16);
}

Record stack_of(uint16_t cpu, int64_t timestamp, int64_t of, uint32_t tid) {
    Bytes p;
    put(p, of);
    put(p, uint32_t{100});
    put(p, tid);
    put(p, uint64_t{0xFFFFF80000001000});
    put(p, uint64_t{0x00007FF600001000});
    return kernel_record(kStack, cpu, timestamp, tid, p);
}

struct Fired {
    int64_t timestamp;
    bool is_stack_event;
    size_t kernel_frames;
    size_t user_frames;
    bool attached;
    uint8_t first_payload_byte;
};

class StackAttachTest : public ::testing::Test {
  protected:
    void offer(Record &r) {
        point(r);
        attach.offer(r.event, [this](const Event &e, const WalkedStack *s, bool attached) { record(e, s, attached); });
    }
    void finish() {
        attach.finish([this](const Event &e, const WalkedStack *s, bool attached) { record(e, s, attached); });
    }
    void record(const Event &e, const WalkedStack *s, bool attached) {
        fired.push_back({e.timestamp, is_stack_walk(e), s ? s->kernel().size() : 0, s ? s->user().size() : 0, attached,
                         e.payload.empty() ? uint8_t{0} : e.payload[0]});
    }

    StackAttach attach{true};
    std::vector<Fired> fired;
};

TEST_F(StackAttachTest, AStackNamingTheWaitingEventIsAttachedAndFiresAfterIt) {
    Record sample = kernel_record(kSampledProfile, 1, 1000, kUnknownId, Bytes(16, 0x5A));
    Record stack = stack_of(1, 1001, 1000, 101);
    offer(sample);
    EXPECT_TRUE(fired.empty()); // waits for the CPU's next record
    offer(stack);
    ASSERT_EQ(fired.size(), 2u);
    EXPECT_EQ(fired[0].timestamp, 1000);
    EXPECT_EQ(fired[0].kernel_frames, 1u);
    EXPECT_EQ(fired[0].user_frames, 1u);
    EXPECT_EQ(fired[0].first_payload_byte, 0x5A); // the queued copy's payload
    EXPECT_TRUE(fired[1].is_stack_event);
    EXPECT_TRUE(fired[1].attached);
}

TEST_F(StackAttachTest, AStackNamingAnotherEventIsMissedAndTheWaitingEventFiresWithout) {
    Record sample = kernel_record(kSampledProfile, 0, 1000, 101, Bytes(16, 0));
    Record stack = stack_of(0, 1002, 999, 101);
    offer(sample);
    offer(stack);
    ASSERT_EQ(fired.size(), 2u);
    EXPECT_EQ(fired[0].timestamp, 1000);
    EXPECT_EQ(fired[0].kernel_frames, 0u);
    EXPECT_TRUE(fired[1].is_stack_event);
    EXPECT_FALSE(fired[1].attached);
}

TEST_F(StackAttachTest, EventsOfOtherCpusWaitBehindAndKeepTheirOrder) {
    Record a = kernel_record(kSampledProfile, 0, 1000, 101, Bytes(16, 0));
    Record b = kernel_record(kSampledProfile, 1, 1001, 102, Bytes(16, 0));
    b.event.kind = RecordKind::EventHeader; // not a kernel record: never waits itself
    Record c = kernel_record(kSampledProfile, 0, 1002, 101, Bytes(16, 0));
    c.event.kind = RecordKind::EventHeader;
    offer(a);
    offer(b);
    EXPECT_TRUE(fired.empty());
    offer(c); // CPU 0's next record: a has no stack
    ASSERT_EQ(fired.size(), 3u);
    EXPECT_EQ(fired[0].timestamp, 1000);
    EXPECT_EQ(fired[1].timestamp, 1001);
    EXPECT_EQ(fired[2].timestamp, 1002);
}

TEST_F(StackAttachTest, AnEventWaitsNoLongerThanTheWindowAndTheEndFiresTheRest) {
    Record a = kernel_record(kSampledProfile, 0, 1000, 101, Bytes(16, 0));
    Record b = kernel_record(kSampledProfile, 1, 1001, 102, Bytes(16, 0));
    Record c = kernel_record(kSampledProfile, 2, 1002, 103, Bytes(16, 0));
    b.event.time_ns = a.event.time_ns + StackAttach::kWindowNs / 2;
    c.event.time_ns = a.event.time_ns + StackAttach::kWindowNs + 1;
    offer(a);
    offer(b);
    EXPECT_TRUE(fired.empty());
    offer(c); // past a's window; b waits on
    ASSERT_EQ(fired.size(), 1u);
    EXPECT_EQ(fired[0].timestamp, 1000);
    finish();
    ASSERT_EQ(fired.size(), 3u);
    EXPECT_EQ(fired[1].timestamp, 1001);
    EXPECT_EQ(fired[2].timestamp, 1002);
}

class LateStackAttachTest : public StackAttachTest {
  protected:
    LateStackAttachTest() { attach = StackAttach(false); }
};

TEST_F(LateStackAttachTest, EventsPassStraightThroughUntilTheFirstStackThenWaitForTheirs) {
    Record a = kernel_record(kSampledProfile, 0, 1000, 101, Bytes(16, 0));
    Record first_stack = stack_of(0, 1001, 1000, 101);
    Record b = kernel_record(kSampledProfile, 0, 1002, 101, Bytes(16, 0));
    Record second_stack = stack_of(0, 1003, 1002, 101);
    offer(a);
    ASSERT_EQ(fired.size(), 1u); // not held back: no stack seen yet
    EXPECT_EQ(fired[0].kernel_frames, 0u);
    offer(first_stack); // too late for a: missed
    ASSERT_EQ(fired.size(), 2u);
    EXPECT_FALSE(fired[1].attached);
    offer(b);
    EXPECT_EQ(fired.size(), 2u); // now it waits
    offer(second_stack);
    ASSERT_EQ(fired.size(), 4u);
    EXPECT_EQ(fired[2].timestamp, 1002);
    EXPECT_EQ(fired[2].kernel_frames, 1u);
    EXPECT_TRUE(fired[3].attached);
}

} // namespace
} // namespace dtrace::etw::plugin::kernel
