// stack_keys_test.cpp: stack keys resolved by reading ahead in the file.
#include <gtest/gtest.h>

#include <vector>

#include "reader/byte_source.h"
#include "replay_traces.h"
#include "stack_keys.h"

namespace dtrace::etw::plugin {
namespace {

Result<EtlReader> open_trace() {
    return EtlReader::open_source(make_memory_source(fixture::stack_key_trace()), "stack_keys.etl");
}

// The key references of the trace with their positions (indexes among its events).
std::vector<std::pair<uint64_t, StackKeyReference>> references() {
    std::vector<std::pair<uint64_t, StackKeyReference>> out;
    Result<EtlReader> reader = open_trace();
    EXPECT_TRUE(reader) << reader.error();
    Event event;
    for (uint64_t position = 0; reader.value().next(event); ++position) {
        if (std::optional<StackKeyReference> r = stack_key_reference(event)) {
            out.emplace_back(position, *r);
        }
    }
    return out;
}

TEST(StackKeys, AReferenceMeansTheFirstDefinitionOfItsKeyAfterIt) {
    const auto refs = references();
    ASSERT_EQ(refs.size(), 4u);
    EXPECT_FALSE(refs[0].second.user);
    EXPECT_TRUE(refs[1].second.user);
    EXPECT_EQ(refs[0].second.event_timestamp, 1010);
    EXPECT_EQ(refs[0].second.tid, 101u);
    int opened = 0;
    StackKeys keys([&] {
        ++opened;
        return open_trace();
    });
    const std::vector<uint64_t> *first = keys.resolve(refs[0].second.key, refs[0].first);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(*first, (std::vector<uint64_t>{0xFFFFF80000001000, 0xFFFFF80000001100})) << "the KeyDelete's";
    const std::vector<uint64_t> *user = keys.resolve(refs[1].second.key, refs[1].first);
    ASSERT_NE(user, nullptr);
    EXPECT_EQ(*user, (std::vector<uint64_t>{0x7FF600001234, 0x7FF600001000})) << "the rundown's";
    const std::vector<uint64_t> *again = keys.resolve(refs[2].second.key, refs[2].first);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->size(), 2u) << "still before the KeyDelete";
    const std::vector<uint64_t> *reused = keys.resolve(refs[3].second.key, refs[3].first);
    ASSERT_NE(reused, nullptr);
    EXPECT_EQ(*reused, (std::vector<uint64_t>{0xFFFFF80000002000})) << "after the KeyDelete: the rundown's";
    EXPECT_EQ(keys.resolve(0x123, refs[3].first), nullptr) << "a key the file never defines";
    EXPECT_EQ(opened, 1);
}

TEST(StackKeys, AFileThatCannotBeOpenedAgainResolvesNothing) {
    StackKeys keys([] { return Result<EtlReader>(Error{"gone"}); });
    EXPECT_EQ(keys.resolve(0xA, 0), nullptr);
}

} // namespace
} // namespace dtrace::etw::plugin
