// probe_naming_test.cpp: the etw probes' level/keyword field and ETW's filter rule.
#include <gtest/gtest.h>

#include "probe_naming.h"

namespace dtrace::etw::plugin {
namespace {

TEST(ProbeNaming, TheListedFunctionFieldMatchesEverything) {
    EXPECT_EQ(format_filter(kMatchEverything), "0xff_0xffffffffffffffff");
    EXPECT_EQ(format_filter({4, 0x10}), "0x04_0x0000000000000010");
}

TEST(ProbeNaming, ParsesLevelAndKeywordInEitherCase) {
    std::optional<LevelKeywordFilter> f = parse_filter("0x04_0x0000000000008001");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->level, 4);
    EXPECT_EQ(f->keyword, 0x8001u);
    f = parse_filter("0xFF_0xFFFFFFFFFFFFFFFF");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->level, 0xFF);
    EXPECT_EQ(f->keyword, ~uint64_t{0});
}

TEST(ProbeNaming, RefusesOtherShapes) {
    for (const char *text :
         {"", "*", "0x4_0x0000000000000010", "0x04_0x10", "0x04-0x0000000000000010", "0x04_0x00000000000000100",
          "0xzz_0x0000000000000010", "04_0x0000000000000010", "0x04_0x000000000000001*", "0x-4_0x0000000000000010"}) {
        EXPECT_FALSE(parse_filter(text)) << text;
    }
}

TEST(ProbeNaming, LevelFilterIsEtwsRule) {
    const LevelKeywordFilter warnings{3, 0};
    EXPECT_TRUE(warnings.passes(2, 0));
    EXPECT_TRUE(warnings.passes(3, 0));
    EXPECT_FALSE(warnings.passes(4, 0));
    EXPECT_TRUE(warnings.passes(0, 0)) << "level 0 events pass any filter";
    EXPECT_TRUE((LevelKeywordFilter{0, 0}.passes(5, 0))) << "filter level 0 lets every level through";
}

TEST(ProbeNaming, KeywordFilterIsEtwsRule) {
    const LevelKeywordFilter gc{0xFF, 0x1};
    EXPECT_TRUE(gc.passes(4, 0x1));
    EXPECT_TRUE(gc.passes(4, 0x8001));
    EXPECT_FALSE(gc.passes(4, 0x8000));
    EXPECT_TRUE(gc.passes(4, 0)) << "keyword 0 events pass any filter";
    EXPECT_TRUE((LevelKeywordFilter{0xFF, 0}.passes(4, 0x8000))) << "mask 0 lets every keyword through";
}

TEST(ProbeNaming, ProviderNamesAreLowerCase) {
    EXPECT_EQ(provider_probe_name("Microsoft-Windows-DotNETRuntime"), "microsoft-windows-dotnetruntime");
    EXPECT_EQ(provider_probe_name("Fixture.Provider"), "fixture.provider");
    EXPECT_EQ(event_id_name(65534), "65534");
}

TEST(ProbeNaming, SpecFieldsAreGlobsAndEmptyMatchesAll) {
    EXPECT_TRUE(spec_field_matches(nullptr, "etw"));
    EXPECT_TRUE(spec_field_matches("", "etw"));
    EXPECT_TRUE(spec_field_matches("e*", "etw"));
    EXPECT_TRUE(spec_field_matches("e13c0d23-?cbc-*", "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"));
    EXPECT_FALSE(spec_field_matches("diag", "etw"));
}

TEST(ProbeNaming, NamesAreComparedAsWindowsDoes) {
    EXPECT_TRUE(same_ignoring_case("Microsoft-Windows-DotNETRuntime", "microsoft-windows-dotnetruntime"));
    EXPECT_TRUE(same_ignoring_case("E13C0D23-CCBC", "e13c0d23-ccbc"));
    EXPECT_FALSE(same_ignoring_case("Microsoft-Windows-DotNETRuntime", "Microsoft-Windows-DotNETRuntimeRundown"));
    EXPECT_TRUE(is_plain_name("Fixture-Named"));
    EXPECT_FALSE(is_plain_name("Fixture-*"));
    EXPECT_FALSE(is_plain_name("Fixture-[Nn]amed"));
    EXPECT_FALSE(is_plain_name(""));
    EXPECT_FALSE(is_plain_name(nullptr));
}

TEST(ProbeNaming, EventNamesThatCannotNameProbes) {
    EXPECT_TRUE(usable_event_name("GCStart_V1"));
    EXPECT_TRUE(usable_event_name("Start2"));
    EXPECT_FALSE(usable_event_name("")) << "an event without a symbol";
    EXPECT_FALSE(usable_event_name("generic_event")) << "the probe of every event";
    EXPECT_FALSE(usable_event_name("10")) << "the probe of event id 10";
}

} // namespace
} // namespace dtrace::etw::plugin
