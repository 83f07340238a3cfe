// Aggregation keys of sym(), mod(), usym(), umod() merged by what they name
// (dt_aggregate.c moves such keys to their symbol's start before hashing).
#include "consumer/symbol_keys.h"

#include <gtest/gtest.h>

#include <cstring>

namespace dtrace::consumer {
namespace {

// Kernel: functions f (0x1000..0x10ff) and g (0x1100..) of module "k";
// 0x5000.. in module "img" with no functions. User: process 7 has "a.out"
// function main at 0x400000..; other processes nothing.
Resolvers resolvers() {
    Resolvers r;
    r.kernel_symbol = [](uint64_t address) -> std::optional<Symbol> {
        if (address >= 0x1000 && address < 0x1100)
            return Symbol{"k", "f", address - 0x1000, false};
        if (address >= 0x1100 && address < 0x1200)
            return Symbol{"k", "g", address - 0x1100, false};
        if (address >= 0x5000 && address < 0x6000)
            return Symbol{"img", "", address - 0x5000, true};
        return std::nullopt;
    };
    r.user_symbol = [](uint64_t pid, uint64_t address) -> std::optional<Symbol> {
        if (address >= 0x400000 && address < 0x400100)
            return Symbol{"a.out", "main", address - 0x400000, false};
        (void)pid;
        return std::nullopt;
    };
    return r;
}

Value kernel(Value::Symbolic kind, uint64_t address) {
    Value v = Value::integer(address);
    v.symbolic = kind;
    return v;
}

Value user(Value::Symbolic kind, uint64_t pid, uint64_t address) {
    std::string bytes(16, '\0');
    std::memcpy(bytes.data(), &pid, 8);
    std::memcpy(bytes.data() + 8, &address, 8);
    Value v = Value::raw(bytes);
    v.symbolic = kind;
    return v;
}

AggregationSnapshot agg(aggdata::AggFunc func, std::vector<AggEntry> entries) {
    AggregationSnapshot a;
    a.decl.func = func;
    a.entries = std::move(entries);
    return a;
}

uint64_t user_address(const Value &v) {
    uint64_t address = 0;
    std::memcpy(&address, v.bytes.data() + 8, 8);
    return address;
}

TEST(SymbolKeys, SymKeysOfOneFunctionAreOneEntryAtItsStart) {
    AggregationSnapshot a = agg(aggdata::AggFunc::Count, {{{kernel(Value::Symbolic::Sym, 0x1010)}, {2}},
                                                          {{kernel(Value::Symbolic::Sym, 0x1100)}, {1}},
                                                          {{kernel(Value::Symbolic::Sym, 0x1020)}, {3}}});
    merge_symbol_keys(a, resolvers());
    ASSERT_EQ(a.entries.size(), 2u);
    EXPECT_EQ(a.entries[0].key[0].bits, 0x1000u) << "moved to f's start, so %A prints k`f";
    EXPECT_EQ(a.entries[0].data[0], 5);
    EXPECT_EQ(a.entries[1].key[0].bits, 0x1100u);
    EXPECT_EQ(a.entries[1].data[0], 1);
}

TEST(SymbolKeys, ModKeysMergeByModuleAndAddressesNothingNamesStayApart) {
    AggregationSnapshot a = agg(aggdata::AggFunc::Max, {{{kernel(Value::Symbolic::Mod, 0x1010)}, {4}},
                                                        {{kernel(Value::Symbolic::Mod, 0x1180)}, {9}},
                                                        {{kernel(Value::Symbolic::Mod, 0x9000)}, {1}},
                                                        {{kernel(Value::Symbolic::Mod, 0x9008)}, {1}},
                                                        {{kernel(Value::Symbolic::Mod, 0x5010)}, {1}}});
    merge_symbol_keys(a, resolvers());
    ASSERT_EQ(a.entries.size(), 4u);
    EXPECT_EQ(a.entries[0].data[0], 9) << "max() of k's two entries";
    EXPECT_EQ(a.entries[3].key[0].bits, 0x5000u) << "moved to img's base";
}

TEST(SymbolKeys, SymKeysWithoutAFunctionStayAddresses) {
    AggregationSnapshot a = agg(aggdata::AggFunc::Count, {{{kernel(Value::Symbolic::Sym, 0x5010)}, {1}},
                                                          {{kernel(Value::Symbolic::Sym, 0x5020)}, {1}}});
    merge_symbol_keys(a, resolvers());
    EXPECT_EQ(a.entries.size(), 2u) << "img+0x10 and img+0x20 are different keys";
}

TEST(SymbolKeys, UserKeysMergeWithinAProcessOnly) {
    AggregationSnapshot a = agg(aggdata::AggFunc::Sum, {{{user(Value::Symbolic::USym, 7, 0x400010)}, {10}},
                                                        {{user(Value::Symbolic::USym, 7, 0x400020)}, {20}},
                                                        {{user(Value::Symbolic::USym, 8, 0x400030)}, {30}}});
    merge_symbol_keys(a, resolvers());
    ASSERT_EQ(a.entries.size(), 2u);
    EXPECT_EQ(a.entries[0].data[0], 30);
    EXPECT_EQ(user_address(a.entries[0].key[0]), 0x400000u);
    EXPECT_EQ(a.entries[1].data[0], 30);
}

TEST(SymbolKeys, UaddrKeysAndOtherPartsAreComparedAsTheyAre) {
    AggregationSnapshot a = agg(aggdata::AggFunc::Count, {{{user(Value::Symbolic::UAddr, 7, 0x400010)}, {1}},
                                                          {{user(Value::Symbolic::UAddr, 7, 0x400020)}, {1}}});
    merge_symbol_keys(a, resolvers());
    EXPECT_EQ(a.entries.size(), 2u);

    AggregationSnapshot b =
        agg(aggdata::AggFunc::Count, {{{Value::integer(1), user(Value::Symbolic::UMod, 7, 0x400010)}, {1}},
                                      {{Value::integer(2), user(Value::Symbolic::UMod, 7, 0x400020)}, {1}},
                                      {{Value::integer(1), user(Value::Symbolic::UMod, 7, 0x400030)}, {1}}});
    merge_symbol_keys(b, resolvers());
    ASSERT_EQ(b.entries.size(), 2u);
    EXPECT_EQ(b.entries[0].data[0], 2);
}

TEST(SymbolKeys, SourcesNameTheEntriesEachMergedEntryStandsFor) {
    AggregationSnapshot a = agg(aggdata::AggFunc::Count, {{{kernel(Value::Symbolic::Sym, 0x1010)}, {2}},
                                                          {{kernel(Value::Symbolic::Sym, 0x1100)}, {1}},
                                                          {{kernel(Value::Symbolic::Sym, 0x1020)}, {3}}});
    std::vector<std::vector<size_t>> sources;
    merge_symbol_keys(a, resolvers(), &sources);
    ASSERT_EQ(sources.size(), 2u);
    EXPECT_EQ(sources[0], (std::vector<size_t>{0, 2})) << "f's entry is the first and the third";
    EXPECT_EQ(sources[1], (std::vector<size_t>{1}));

    AggregationSnapshot plain = agg(aggdata::AggFunc::Count, {{{Value::integer(1)}, {1}}, {{Value::integer(2)}, {1}}});
    merge_symbol_keys(plain, resolvers(), &sources);
    EXPECT_EQ(sources, (std::vector<std::vector<size_t>>{{0}, {1}})) << "no symbol keys: each entry is itself";
}

} // namespace
} // namespace dtrace::consumer
