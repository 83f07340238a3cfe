// Probe descriptions: field assignment per option, globbing, ids.
#include "engine/probe_match.h"

#include <gtest/gtest.h>

using namespace dtrace::engine;

namespace {

ProbeDescription parse(std::string_view text, SpecKind kind = SpecKind::Name) {
    auto desc = parse_probe_description(text, kind);
    EXPECT_TRUE(desc.ok()) << (desc.ok() ? "" : desc.reason());
    return desc.ok() ? desc.value() : ProbeDescription{};
}

} // namespace

TEST(ProbeDescription, NameSpecFillsFromTheRight) {
    ProbeDescription d = parse("BEGIN");
    EXPECT_EQ(d.provider, "");
    EXPECT_EQ(d.name, "BEGIN");
    d = parse("read:entry");
    EXPECT_EQ(d.function, "read");
    EXPECT_EQ(d.name, "entry");
    d = parse("syscall::read:entry");
    EXPECT_EQ(d.provider, "syscall");
    EXPECT_EQ(d.module, "");
    EXPECT_EQ(d.function, "read");
    EXPECT_EQ(d.name, "entry");
}

TEST(ProbeDescription, ProviderModuleFunctionSpecs) {
    EXPECT_EQ(parse("syscall", SpecKind::Provider).provider, "syscall");
    ProbeDescription m = parse("fbt:ext4", SpecKind::Module);
    EXPECT_EQ(m.provider, "fbt");
    EXPECT_EQ(m.module, "ext4");
    ProbeDescription f = parse("libc.so.6:malloc", SpecKind::Function);
    EXPECT_EQ(f.module, "libc.so.6");
    EXPECT_EQ(f.function, "malloc");
    EXPECT_EQ(f.name, "");
}

TEST(ProbeDescription, TooManyFieldsIsAnError) {
    auto five = parse_probe_description("a:b:c:d:e", SpecKind::Name);
    ASSERT_FALSE(five);
    EXPECT_NE(five.reason().find("a:b:c:d:e"), std::string::npos);
    EXPECT_FALSE(parse_probe_description("a:b", SpecKind::Provider));
}

TEST(ProbeDescription, DigitsAreAProbeId) {
    EXPECT_EQ(parse("42").probe_id, 42u);
    EXPECT_EQ(parse("tick-42").probe_id, 0u);
}

TEST(Glob, Basics) {
    EXPECT_TRUE(glob_match("read", "read"));
    EXPECT_FALSE(glob_match("read", "reads"));
    EXPECT_TRUE(glob_match("re*", "read"));
    EXPECT_TRUE(glob_match("*", ""));
    EXPECT_TRUE(glob_match("*ad", "read"));
    EXPECT_TRUE(glob_match("r?ad", "read"));
    EXPECT_FALSE(glob_match("r?ad", "rad"));
    EXPECT_TRUE(glob_match("*e*d*", "read"));
    EXPECT_FALSE(glob_match("*x*", "read"));
}

TEST(Glob, BracketsRangesNegationAndEscapes) {
    EXPECT_TRUE(glob_match("[rw]ead", "read"));
    EXPECT_FALSE(glob_match("[!rw]ead", "read"));
    EXPECT_TRUE(glob_match("[!rw]ead", "bead"));
    EXPECT_TRUE(glob_match("tick-[0-9]*", "tick-10"));
    EXPECT_FALSE(glob_match("tick-[0-9]*", "tick-x"));
    EXPECT_TRUE(glob_match("a\\*b", "a*b"));
    EXPECT_FALSE(glob_match("a\\*b", "axb"));
    EXPECT_TRUE(glob_match("a[b", "a[b")); // an unterminated bracket is literal
}

TEST(Glob, PathologicalPatternsStayFast) {
    std::string text(200, 'a');
    EXPECT_FALSE(glob_match("*a*a*a*a*a*a*a*a*a*a*b", text));
}

TEST(Glob, EmptyFieldMatchesEverything) {
    EXPECT_TRUE(field_matches("", "anything"));
    EXPECT_FALSE(field_matches("x", "anything"));
}
