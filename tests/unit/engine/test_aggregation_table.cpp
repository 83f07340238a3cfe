// The aggregation table: lookups across growth, stable entries, exact keys.
#include "engine/aggregation_table.h"

#include <gtest/gtest.h>

using dtrace::engine::AggregationTable;

TEST(AggregationTable, FindsWhatWasInsertedAcrossGrowth) {
    AggregationTable t;
    std::vector<AggregationTable::Entry *> entries;
    for (int i = 0; i < 10000; i++) {
        std::string key = "key" + std::to_string(i);
        ASSERT_EQ(t.find(key, AggregationTable::hash(key)), nullptr);
        entries.push_back(&t.insert(key, AggregationTable::hash(key), {i}));
    }
    EXPECT_EQ(t.size(), 10000u);
    for (int i = 0; i < 10000; i++) {
        std::string key = "key" + std::to_string(i);
        AggregationTable::Entry *e = t.find(key, AggregationTable::hash(key));
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(e, entries[i]) << "entries never move";
        EXPECT_EQ(e->data.front(), i);
    }
}

TEST(AggregationTable, EqualHashesStillCompareKeys) {
    AggregationTable t;
    t.insert("a", 42, {1});
    t.insert("b", 42, {2}); // a forced collision
    ASSERT_NE(t.find("a", 42), nullptr);
    ASSERT_NE(t.find("b", 42), nullptr);
    EXPECT_EQ(t.find("a", 42)->data.front(), 1);
    EXPECT_EQ(t.find("b", 42)->data.front(), 2);
    EXPECT_EQ(t.find("c", 42), nullptr);
}

TEST(AggregationTable, HashDependsOnEveryByteAndLength) {
    EXPECT_NE(AggregationTable::hash("abcdefgh1"), AggregationTable::hash("abcdefgh2"));
    EXPECT_NE(AggregationTable::hash(std::string_view("a\0", 2)), AggregationTable::hash("a"));
    EXPECT_NE(AggregationTable::hash("12345678"), AggregationTable::hash("12345679"));
}

TEST(AggregationTable, EraseRemovesOnlyTheGivenKeys) {
    AggregationTable t;
    for (int i = 0; i < 100; i++) {
        std::string key = "key" + std::to_string(i);
        t.insert(key, AggregationTable::hash(key), {i});
    }
    std::vector<std::string> gone;
    for (int i = 0; i < 100; i += 3)
        gone.push_back("key" + std::to_string(i));
    gone.push_back("absent");
    EXPECT_EQ(t.erase(gone), 34u);
    EXPECT_EQ(t.size(), 66u);
    for (int i = 0; i < 100; i++) {
        std::string key = "key" + std::to_string(i);
        AggregationTable::Entry *e = t.find(key, AggregationTable::hash(key));
        if (i % 3 == 0) {
            EXPECT_EQ(e, nullptr) << key;
        } else {
            ASSERT_NE(e, nullptr) << key;
            EXPECT_EQ(e->data.front(), i);
        }
    }
}

TEST(AggregationTable, ShortKeysHashAsTheirBytes) {
    const uint64_t values[] = {0, 1, 0x80, 0xdeadbeef, 0x0123456789abcdefull, ~0ull};
    for (uint64_t v : values) {
        for (size_t size = 1; size <= sizeof v; size++) {
            std::string_view bytes(reinterpret_cast<const char *>(&v), size);
            EXPECT_EQ(AggregationTable::hash_short(bytes.data(), size), AggregationTable::hash(bytes))
                << "value " << v << ", " << size << " bytes";
        }
    }
}

TEST(AggregationTable, KeysOfEverySizeCompareEveryByte) {
    // Equal hashes force the comparison of the keys themselves.
    for (size_t size = 1; size <= 12; size++) {
        AggregationTable t;
        const std::string key(size, 'k');
        t.insert(key, 7, {1});
        for (size_t at = 0; at < size; at++) {
            std::string other = key;
            other[at] = 'x';
            EXPECT_EQ(t.find(other, 7), nullptr) << size << " bytes, differing at " << at;
        }
        EXPECT_EQ(t.find(key.substr(1), 7), nullptr) << "a shorter key";
        ASSERT_NE(t.find(key, 7), nullptr);
    }
}
