// Speculations: ids, per-CPU buffers, commit into the principal buffers,
// discard, and the counters DTrace reports.
#include "engine/speculation.h"

#include <gtest/gtest.h>

using namespace dtrace::engine;

namespace {

void record(PrincipalBuffer &b, uint64_t value) {
    b.begin(2, 0, 0);
    b.put_integer(value);
    b.end();
}

size_t bytes_in(PrincipalBuffer &b) {
    std::vector<uint8_t> data;
    uint64_t drops = 0;
    b.swap(data, drops);
    return data.size();
}

TEST(Speculations, HandsOutIdsUntilNoneIsFree) {
    Speculations s;
    s.configure(2, 1024);
    EXPECT_EQ(s.acquire(), 1u);
    EXPECT_EQ(s.acquire(), 2u);
    EXPECT_EQ(s.acquire(), 0u);
    EXPECT_EQ(s.acquire(), 0u);
    EXPECT_EQ(s.take_unavailable(), 2u);
    EXPECT_EQ(s.take_unavailable(), 0u);
    std::vector<PrincipalBuffer> principal(1);
    EXPECT_TRUE(s.discard(1));
    EXPECT_EQ(s.acquire(), 1u); // free again
}

TEST(Speculations, CommitCopiesEachCpusRecordsToItsPrincipalBuffer) {
    Speculations s;
    s.configure(1, 1024);
    uint64_t id = s.acquire();
    bool illegal = true;
    record(*s.buffer(id, 0, illegal), 1);
    EXPECT_FALSE(illegal);
    record(*s.buffer(id, 1, illegal), 2);
    record(*s.buffer(id, 1, illegal), 3);
    std::vector<PrincipalBuffer> principal(2);
    for (PrincipalBuffer &b : principal)
        b.configure({1024});
    uint64_t sequence = 7;
    EXPECT_TRUE(s.commit(id, principal, sequence));
    EXPECT_EQ(sequence, 10u);
    const size_t record_size = sizeof(RecordHeader) + 8;
    EXPECT_EQ(bytes_in(principal[0]), record_size);
    EXPECT_EQ(bytes_in(principal[1]), 2 * record_size);
    // Inactive now: speculating on it records nothing.
    EXPECT_EQ(s.buffer(id, 0, illegal), nullptr);
    EXPECT_FALSE(illegal);
}

TEST(Speculations, DiscardForgetsRecordsAndDropsCommitCountsDrops) {
    Speculations s;
    s.configure(1, sizeof(RecordHeader) + 8);
    uint64_t id = s.acquire();
    bool illegal = false;
    record(*s.buffer(id, 0, illegal), 1);
    record(*s.buffer(id, 0, illegal), 2); // does not fit
    EXPECT_TRUE(s.discard(id));
    EXPECT_EQ(s.take_drops(), 0u); // DTrace's discard zeroes the buffer's drops
    std::vector<PrincipalBuffer> principal(1);
    principal[0].configure({1024});
    uint64_t sequence = 0;
    EXPECT_TRUE(s.commit(id, principal, sequence)); // inactive: nothing to do
    EXPECT_EQ(bytes_in(principal[0]), 0u);
    // The same overflow committed: the record that fitted, one speculative drop.
    id = s.acquire();
    record(*s.buffer(id, 0, illegal), 1);
    record(*s.buffer(id, 0, illegal), 2);
    EXPECT_TRUE(s.commit(id, principal, sequence));
    EXPECT_EQ(s.take_drops(), 1u);
    EXPECT_EQ(bytes_in(principal[0]), sizeof(RecordHeader) + 8);
}

TEST(Speculations, IdZeroIsNothingAndIdsBeyondNspecAreIllegal) {
    Speculations s;
    s.configure(1, 1024);
    bool illegal = true;
    EXPECT_EQ(s.buffer(0, 0, illegal), nullptr);
    EXPECT_FALSE(illegal);
    EXPECT_EQ(s.buffer(2, 0, illegal), nullptr);
    EXPECT_TRUE(illegal);
    std::vector<PrincipalBuffer> principal(1);
    uint64_t sequence = 0;
    EXPECT_TRUE(s.commit(0, principal, sequence));
    EXPECT_FALSE(s.commit(2, principal, sequence));
    EXPECT_FALSE(s.discard(uint64_t(-1)));
}

} // namespace
