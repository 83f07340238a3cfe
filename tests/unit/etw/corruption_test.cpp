// corruption_test.cpp: damaged files. Every kind of damage is skipped,
// counted and located (file name and offset), reading goes on where it can,
// and nothing crashes, loops or allocates from a bad size field.
#include <gtest/gtest.h>

#include <random>

#include "etl_file_builder.h"
#include "reader/buffer_header.h"
#include "reader/event_header_record.h"
#include "reader/le_bytes.h"
#include "reader/problem_log.h"
#include "sample_traces.h"
#include "test_support.h"

namespace dtrace::etw {
namespace {

using namespace fixture;
using test::OwnedEvent;

struct Outcome {
    std::vector<OwnedEvent> events;
    ReaderStats stats;
};

Outcome read_damaged(const Bytes &file, const ReaderOptions &options = {}) {
    Outcome out;
    Result<EtlReader> reader = test::open_bytes(file, options);
    EXPECT_TRUE(reader) << reader.error();
    if (reader) {
        out.events = test::read_all(reader.value());
        out.stats = reader.value().stats();
    }
    return out;
}

bool mentions(const ReaderStats &s, const std::string &text) {
    for (const Problem &p : s.problems) {
        if (p.message.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// 4 CPUs x 60 events in 0x400-byte buffers (9 events each): 28 data buffers.
constexpr uint16_t kCpus = 4;
constexpr uint32_t kPerCpu = 60;
constexpr uint32_t kBuffer = 0x400;
constexpr size_t kAllEvents = 1 + kCpus * kPerCpu;
constexpr uint32_t kEventsPerBuffer = (kBuffer - 0x48) / 0x58;

Bytes multi() {
    return sample_multi_cpu(kCpus, kPerCpu, kBuffer);
}

TEST(Corruption, ATruncatedFileKeepsItsWholeBuffers) {
    Bytes file = multi();
    size_t whole = file.size() / kBuffer - 1;
    file.resize(whole * kBuffer + kBuffer / 2);
    Outcome o = read_damaged(file);
    EXPECT_EQ(o.stats.corrupt_buffers, 1u);
    EXPECT_EQ(o.stats.buffers, whole);
    ASSERT_EQ(o.stats.problems.size(), 1u);
    EXPECT_EQ(o.stats.problems[0].file_offset, whole * kBuffer);
    EXPECT_EQ(o.stats.problems[0].message, "fixture.etl: buffer at offset " + hex_offset(whole * kBuffer) +
                                               ": BufferSize runs past the end of the file (truncated file); "
                                               "reading stops here; buffer skipped");
    EXPECT_GT(o.events.size(), kAllEvents - 2 * kEventsPerBuffer);
    EXPECT_LT(o.events.size(), kAllEvents);
}

TEST(Corruption, AFileCutInsideABufferHeader) {
    Bytes file = multi();
    file.resize(file.size() - kBuffer + 0x20);
    Outcome o = read_damaged(file);
    EXPECT_EQ(o.stats.corrupt_buffers, 1u);
    EXPECT_TRUE(mentions(o.stats, "the file ends inside this buffer's header")) << o.stats.problems[0].message;
}

class BadBufferSize : public ::testing::TestWithParam<uint32_t> {};

TEST_P(BadBufferSize, IsSkippedAndReadingResumesOneNominalBufferLater) {
    Bytes file = multi();
    const uint64_t damaged = 5 * kBuffer;
    put_at(file, damaged + buffer_layout::kBufferSize, GetParam());
    Outcome o = read_damaged(file);
    EXPECT_EQ(o.stats.corrupt_buffers, 1u);
    EXPECT_EQ(o.events.size(), kAllEvents - kEventsPerBuffer);
    ASSERT_EQ(o.stats.problems.size(), 1u);
    EXPECT_EQ(o.stats.problems[0].file_offset, damaged);
    EXPECT_TRUE(mentions(o.stats, "; resuming at offset " + hex_offset(damaged + kBuffer)))
        << o.stats.problems[0].message;
}

INSTANTIATE_TEST_SUITE_P(Sizes, BadBufferSize, ::testing::Values(0x10u, 0x47u, 0x7FFFFFFFu, 0xFFFFFFF0u));

TEST(Corruption, ABadBufferSizeInACompressedFileEndsIt) {
    // Compressed buffers have no common size to resynchronise on.
    Bytes file = sample_compressed(400);
    Outcome intact = read_damaged(file);
    const uint64_t second = kRelogHeaderBufferSize + load_u32(file.data() + kRelogHeaderBufferSize);
    put_at(file, second + buffer_layout::kBufferSize, uint32_t{0x20});
    Outcome o = read_damaged(file);
    EXPECT_EQ(o.stats.corrupt_buffers, 1u);
    EXPECT_TRUE(mentions(o.stats, "reading stops here"));
    EXPECT_EQ(o.stats.buffers, 2u);
    EXPECT_LT(o.events.size(), intact.events.size());
}

TEST(Corruption, AnOffsetBeyondTheBufferSkipsTheBuffer) {
    for (uint32_t offset : {kBuffer + 8, 0x10u, 0xFFFFFFFFu}) {
        Bytes file = multi();
        put_at(file, 3 * kBuffer + buffer_layout::kOffset, offset);
        Outcome o = read_damaged(file);
        EXPECT_EQ(o.stats.corrupt_buffers, 1u);
        EXPECT_EQ(o.events.size(), kAllEvents - kEventsPerBuffer);
        ASSERT_EQ(o.stats.problems.size(), 1u);
        EXPECT_EQ(o.stats.problems[0].file_offset, 3 * kBuffer);
        EXPECT_NE(o.stats.problems[0].message.find("Offset " + hex_offset(offset) + " is"), std::string::npos)
            << o.stats.problems[0].message;
    }
}

TEST(Corruption, DamagedCompressedDataSkipsOnlyThatBuffer) {
    Bytes file = sample_compressed(400);
    Outcome intact = read_damaged(file);
    const uint64_t first = kRelogHeaderBufferSize;
    const uint32_t size = load_u32(file.data() + first);
    for (uint64_t i = first + buffer_layout::kSize; i < first + size; ++i) {
        file[i] = 0xFF; // every symbol a match reaching before the start
    }
    Outcome o = read_damaged(file);
    EXPECT_EQ(o.stats.corrupt_buffers, 1u);
    EXPECT_EQ(o.stats.compressed_buffers, intact.stats.compressed_buffers);
    EXPECT_LT(o.events.size(), intact.events.size());
    EXPECT_GT(o.events.size(), intact.events.size() / 2);
    ASSERT_EQ(o.stats.problems.size(), 1u);
    EXPECT_EQ(o.stats.problems[0].file_offset, first);
    EXPECT_NE(o.stats.problems[0].message.find("XPRESS data damaged at compressed byte 0x4c: a match refers to data "
                                               "before the start of the buffer; buffer skipped"),
              std::string::npos)
        << o.stats.problems[0].message;
}

TEST(Corruption, AnImpossibleDecompressedSizeAllocatesNothing) {
    Bytes file = sample_compressed(400);
    put_at(file, kRelogHeaderBufferSize + buffer_layout::kOffset, uint32_t{0xF0000000});
    Outcome o = read_damaged(file);
    EXPECT_EQ(o.stats.corrupt_buffers, 1u);
    EXPECT_TRUE(mentions(o.stats, "larger than the 16 MiB ETW allows"));
}

TEST(Corruption, ATruncatedCompressedStreamIsDamage) {
    Bytes file = sample_compressed(400);
    // Claim more decompressed data than the stream holds.
    const uint64_t first = kRelogHeaderBufferSize;
    put_at(file, first + buffer_layout::kOffset, load_u32(file.data() + first + buffer_layout::kOffset) + 0x100);
    Outcome o = read_damaged(file);
    EXPECT_EQ(o.stats.corrupt_buffers, 1u);
    EXPECT_TRUE(mentions(o.stats, "compressed data ends before the buffer is complete"));
}

// A buffer on CPU 1 holding events 1, 2, 3 with the second record damaged.
void expect_rest_of_buffer_skipped(size_t field, uint32_t value, const std::string &what) {
    EtlFileBuilder builder;
    BufferSpec b;
    b.cpu = 1;
    b.records = {sample_event(1, 1000, 0), sample_event(2, 1001, 0), sample_event(3, 1002, 0)};
    builder.add_buffer(b);
    BufferSpec next;
    next.cpu = 1;
    next.records = {sample_event(4, 1003, 0)};
    builder.add_buffer(next);
    Bytes file = builder.build();
    const uint64_t second_record = builder.buffer_offset(1) + 0x48 + 0x58;
    put_at(file, second_record + field, value);
    Outcome o = read_damaged(file);
    ASSERT_EQ(o.events.size(), 3u);
    EXPECT_EQ(o.events[1].event.id, 1);
    EXPECT_EQ(o.events[2].event.id, 4); // the next buffer is read
    EXPECT_EQ(o.stats.corrupt_buffers, 1u);
    ASSERT_EQ(o.stats.problems.size(), 1u);
    EXPECT_EQ(o.stats.problems[0].file_offset, second_record);
    EXPECT_EQ(o.stats.problems[0].message, "fixture.etl: buffer at offset " + hex_offset(builder.buffer_offset(1)) +
                                               ": record at +0xa0: " + what + "; rest of buffer skipped");
}

TEST(Corruption, AnUnknownRecordHeaderEndsTheBuffer) {
    expect_rest_of_buffer_skipped(0, 0x12345678, "unknown record header");
}

TEST(Corruption, ARecordSizeSmallerThanItsHeaderEndsTheBuffer) {
    expect_rest_of_buffer_skipped(event_header_layout::kSize, 0xC0130010, "record size is smaller than its header");
}

TEST(Corruption, ARecordRunningPastOffsetEndsTheBuffer) {
    expect_rest_of_buffer_skipped(event_header_layout::kSize, 0xC013FFF0,
                                  "record runs past the end of the buffer's data");
}

TEST(Corruption, TheMemoryBudgetSkipsBuffersThatDoNotFit) {
    ReaderOptions options;
    options.max_buffer_memory = 2 * kBuffer; // not enough for 4 CPUs
    Outcome o = read_damaged(multi(), options);
    EXPECT_GT(o.stats.corrupt_buffers, 0u);
    EXPECT_LT(o.events.size(), kAllEvents);
    EXPECT_TRUE(mentions(o.stats, "buffer memory limit"));
}

TEST(Corruption, ProblemsAreCappedButCounted) {
    Bytes file = sample_multi_cpu(1, 150 * kEventsPerBuffer, kBuffer);
    for (size_t b = 1; b <= 150; ++b) {
        put_at(file, b * kBuffer + buffer_layout::kOffset, uint32_t{8});
    }
    Outcome o = read_damaged(file);
    EXPECT_EQ(o.events.size(), 1u);
    EXPECT_EQ(o.stats.corrupt_buffers, 150u);
    EXPECT_EQ(o.stats.problem_count, 150u);
    EXPECT_EQ(o.stats.problems.size(), ReaderStats::kMaxProblems);
}

// Random damage to valid traces: the reader must open or refuse with a
// message naming the file, read to the end and never crash (the fuzzer
// does the same at length under ASan and UBSan).
TEST(Corruption, RandomDamageIsSurvived) {
    const std::vector<Bytes> samples = {sample_every_kind(), multi(), sample_compressed(120), sample_circular()};
    std::mt19937 rng(1234);
    for (int round = 0; round < 400; ++round) {
        Bytes file = samples[round % samples.size()];
        int flips = 1 + static_cast<int>(rng() % 16);
        for (int i = 0; i < flips; ++i) {
            size_t at = rng() % file.size();
            file[at] = rng() % 3 == 0 ? 0xFF : static_cast<uint8_t>(rng());
        }
        if (rng() % 5 == 0) {
            file.resize(rng() % file.size());
        }
        Result<EtlReader> reader = test::open_bytes(file);
        if (!reader) {
            EXPECT_EQ(reader.error().rfind("fixture.etl: ", 0), 0u) << reader.error();
            continue;
        }
        Event e;
        uint64_t n = 0;
        while (reader.value().next(e)) {
            ASSERT_LE(e.payload.size(), e.record.size());
            ++n;
        }
        EXPECT_EQ(n, reader.value().stats().events);
    }
}

} // namespace
} // namespace dtrace::etw
