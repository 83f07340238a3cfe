// event_memory_test.cpp: what D can read through an event's pointer arguments.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "event_header_image.h"
#include "event_memory.h"
#include "reader/le_bytes.h"
#include "reader/trace_clock.h"

namespace dtrace::etw::plugin {
namespace {

constexpr int64_t kSomeTimeNs = 1655251200123456700; // a multiple of 100 ns

Event sample_event(const std::vector<uint8_t> &payload) {
    Event e;
    e.kind = RecordKind::EventHeader;
    e.provider = *Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    e.activity_id = *Guid::parse("00000001-0002-0003-0405-060708090a0b");
    e.id = 0x1234;
    e.version = 2;
    e.channel = 11;
    e.level = 4;
    e.opcode = 7;
    e.task = 0x55;
    e.keyword = 0x8000000000000001;
    e.flags = event_flag::kExtendedInfo | event_flag::k64BitHeader;
    e.event_property = 0x8;
    e.pid = 100;
    e.tid = 101;
    e.kernel_time = 3;
    e.user_time = 4;
    e.time_ns = kSomeTimeNs;
    e.pointer_size = 8;
    e.payload = payload;
    return e;
}

std::vector<uint8_t> read(EventMemory &memory, uint64_t address, size_t length) {
    std::vector<uint8_t> out(length);
    int64_t n = EventMemory::read(&memory, address, out.data(), out.size());
    out.resize(n < 0 ? 0 : static_cast<size_t>(n));
    return n < 0 ? std::vector<uint8_t>{0xEE} : out;
}

TEST(EventMemory, PrefixedPayloadHasIdVersionAndBitnessBeforeIt) {
    const std::vector<uint8_t> payload = {1, 2, 3, 4};
    Event e = sample_event(payload);
    EventMemory memory;
    memory.begin(e);
    const uint64_t at = memory.prefixed_payload();
    EXPECT_EQ(read(memory, at, 4), payload);
    EXPECT_EQ(read(memory, at - kPayloadPrefixSize, 8), (std::vector<uint8_t>{0x34, 0x12, 2, 1, 1, 2, 3, 4}));
    EXPECT_EQ(memory.prefixed_payload(), at) << "built once per event";
}

TEST(EventMemory, ThirtyTwoBitLoggersHaveBitnessZero) {
    const std::vector<uint8_t> payload = {9};
    Event e = sample_event(payload);
    e.pointer_size = 4;
    EventMemory memory;
    memory.begin(e);
    EXPECT_EQ(read(memory, memory.prefixed_payload() - 1, 1), std::vector<uint8_t>{0});
}

TEST(EventMemory, ReadsAreCutAtTheEndOfARegionAndRefusedOutside) {
    const std::vector<uint8_t> payload = {1, 2, 3, 4};
    Event e = sample_event(payload);
    EventMemory memory;
    memory.begin(e);
    const uint64_t at = memory.prefixed_payload();
    EXPECT_EQ(read(memory, at + 2, 100), (std::vector<uint8_t>{3, 4}));
    EXPECT_EQ(read(memory, at + 4, 1), std::vector<uint8_t>{0xEE});
    EXPECT_EQ(read(memory, at - kPayloadPrefixSize - 1, 1), std::vector<uint8_t>{0xEE});
    EXPECT_EQ(read(memory, 0, 1), std::vector<uint8_t>{0xEE});
    EXPECT_EQ(read(memory, ~uint64_t{0}, 8), std::vector<uint8_t>{0xEE});
}

TEST(EventMemory, TheNextEventForgetsThePreviousRegions) {
    const std::vector<uint8_t> payload = {1, 2, 3, 4};
    Event first = sample_event(payload);
    Event second = sample_event(payload);
    EventMemory memory;
    memory.begin(first);
    const uint64_t at = memory.prefixed_payload();
    const std::string name = "Some-Provider";
    const uint64_t name_at = memory.label(name);
    EXPECT_EQ(read(memory, name_at, 64).size(), name.size() + 1);
    memory.begin(second);
    EXPECT_EQ(read(memory, at, 1), std::vector<uint8_t>{0xEE});
    EXPECT_EQ(read(memory, name_at, 1), std::vector<uint8_t>{0xEE});
}

TEST(EventMemory, EventHeaderImageIsWindowsLayoutFollowedByThePayload) {
    const std::vector<uint8_t> payload = {0xAA, 0xBB};
    Event e = sample_event(payload);
    EventMemory memory;
    memory.begin(e);
    const uint64_t at = memory.header_and_payload();
    EXPECT_EQ(memory.header_and_payload_size(), kEventHeaderImageSize + payload.size());
    std::vector<uint8_t> image = read(memory, at, 0x100);
    ASSERT_EQ(image.size(), kEventHeaderImageSize + payload.size());
    const uint8_t *p = image.data();
    namespace L = event_header_layout;
    EXPECT_EQ(load_u16(p + L::kSize), kEventHeaderImageSize + payload.size());
    EXPECT_EQ(load_u16(p + L::kFlags), e.flags);
    EXPECT_EQ(load_u16(p + L::kEventProperty), 0x8);
    EXPECT_EQ(load_u32(p + L::kThreadId), 101u);
    EXPECT_EQ(load_u32(p + L::kProcessId), 100u);
    EXPECT_EQ(load_i64(p + L::kTimeStamp), kSomeTimeNs / 100 + kFiletimeUnixEpoch);
    EXPECT_EQ(Guid::from_bytes(p + L::kProviderId), e.provider);
    EXPECT_EQ(load_u16(p + L::kId), 0x1234);
    EXPECT_EQ(p[L::kVersion], 2);
    EXPECT_EQ(p[L::kChannel], 11);
    EXPECT_EQ(p[L::kLevel], 4);
    EXPECT_EQ(p[L::kOpcode], 7);
    EXPECT_EQ(load_u16(p + L::kTask), 0x55);
    EXPECT_EQ(load_u64(p + L::kKeyword), 0x8000000000000001u);
    EXPECT_EQ(load_u32(p + L::kKernelTime), 3u);
    EXPECT_EQ(load_u32(p + L::kUserTime), 4u);
    EXPECT_EQ(Guid::from_bytes(p + L::kActivityId), e.activity_id);
    EXPECT_EQ(image[kEventHeaderImageSize], 0xAA);
    EXPECT_EQ(image[kEventHeaderImageSize + 1], 0xBB);
}

} // namespace
} // namespace dtrace::etw::plugin
