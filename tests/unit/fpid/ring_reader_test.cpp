// ring_reader_test.cpp: reading an fpid ring (ring_reader.h): records of
// every shape, the pad at the end, and what a process could scribble.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "fpid_shm.h"
#include "ring_reader.h"

namespace {

using dtrace::fpid::Hit;
using dtrace::fpid::read_records;

class Ring {
  public:
    explicit Ring(size_t bytes) : words_(bytes / 8) {}
    // Writes a record at `head` (no wrapping: tests place them); returns the new head.
    uint64_t put(uint64_t head, uint32_t hook, uint8_t kind, uint8_t flags, std::vector<uint64_t> tail) {
        fpid_record r{hook, kind, flags, 0};
        const size_t words = (flags & FPID_HOOK_TIME ? 1 : 0) + (flags & FPID_HOOK_ARGS ? FPID_MAX_ARGS : 0);
        r.nframes = static_cast<uint16_t>(tail.size() - words);
        uint8_t *at = bytes() + head % size();
        std::memcpy(at, &r, sizeof r);
        std::memcpy(at + sizeof r, tail.data(), tail.size() * 8);
        return head + sizeof r + tail.size() * 8;
    }
    uint64_t pad(uint64_t head) {
        fpid_record r{0, FPID_RECORD_PAD, 0, 0};
        std::memcpy(bytes() + head % size(), &r, sizeof r);
        return head + (size() - head % size());
    }
    std::span<const uint8_t> span() { return {bytes(), size()}; }
    uint8_t *bytes() { return reinterpret_cast<uint8_t *>(words_.data()); }
    size_t size() const { return words_.size() * 8; }

  private:
    std::vector<uint64_t> words_;
};

TEST(FpidRingReader, RecordsOfEveryShape) {
    Ring ring(1024);
    uint64_t head = ring.put(0, 1, FPID_RECORD_ENTRY, 0, {});                          // a count
    head = ring.put(head, 2, FPID_RECORD_ENTRY, FPID_HOOK_TIME, {1234});               // a time
    head = ring.put(head, 3, FPID_RECORD_RETURN, FPID_HOOK_ARGS, {0, 42, 0, 0, 0, 0}); // a return value
    head = ring.put(head, 0, FPID_RECORD_ENTRY, FPID_HOOK_TIME | FPID_HOOK_ARGS,
                    {99, 1, 2, 3, 4, 5, 6, 0x401000, 0x401234}); // and a stack
    std::vector<Hit> hits;
    EXPECT_EQ(read_records(ring.span(), 0, head, 4, 77, hits), head);
    ASSERT_EQ(hits.size(), 4u);
    EXPECT_EQ(hits[0].hook, 1u);
    EXPECT_EQ(hits[0].args, nullptr);
    EXPECT_EQ(hits[0].nframes, 0u);
    EXPECT_EQ(hits[1].tsc, 1234u);
    EXPECT_TRUE(hits[2].is_return);
    EXPECT_EQ(hits[2].args[1], 42u);
    EXPECT_EQ(hits[3].tsc, 99u);
    EXPECT_EQ(hits[3].args[5], 6u);
    ASSERT_EQ(hits[3].nframes, 2u);
    EXPECT_EQ(hits[3].frames[1], 0x401234u);
    EXPECT_EQ(hits[3].tid, 77);
}

TEST(FpidRingReader, PadRunsToTheEnd) {
    Ring ring(256);
    uint64_t head = ring.put(200, 1, FPID_RECORD_ENTRY, 0, {});
    head = ring.pad(head);
    head = ring.put(head, 2, FPID_RECORD_ENTRY, 0, {});
    std::vector<Hit> hits;
    EXPECT_EQ(read_records(ring.span(), 200, head, 4, 1, hits), head);
    ASSERT_EQ(hits.size(), 2u);
    EXPECT_EQ(hits[1].hook, 2u);
}

TEST(FpidRingReader, UnknownHooksAreSkipped) {
    Ring ring(256);
    uint64_t head = ring.put(0, 9, FPID_RECORD_ENTRY, 0, {});
    head = ring.put(head, 1, FPID_RECORD_ENTRY, 0, {});
    std::vector<Hit> hits;
    read_records(ring.span(), 0, head, 4, 1, hits);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].hook, 1u);
}

TEST(FpidRingReader, ScribbledRingIsNeverReadPastItsEnd) {
    Ring ring(256);
    // A record claiming 60000 frames, then a head far beyond a ring's worth.
    fpid_record r{1, FPID_RECORD_ENTRY, 0, 60000};
    std::memcpy(ring.bytes(), &r, sizeof r);
    std::vector<Hit> hits;
    EXPECT_EQ(read_records(ring.span(), 0, 200, 4, 1, hits), 200u);
    EXPECT_TRUE(hits.empty());
    EXPECT_EQ(read_records(ring.span(), 0, 1 << 20, 4, 1, hits), uint64_t{1} << 20);
    EXPECT_EQ(read_records(ring.span(), 504, 96, 4, 1, hits), 96u); // a head behind the tail
    EXPECT_EQ(read_records(ring.span(), 0, 13, 4, 1, hits), 16u);   // a head inside a word
    EXPECT_TRUE(hits.empty());
}

} // namespace
