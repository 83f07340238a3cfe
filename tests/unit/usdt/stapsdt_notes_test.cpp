// stapsdt_notes_test.cpp: .note.stapsdt notes, from bytes and from a program
// built with this build's dtrace -h header and -G object.
#include "stapsdt_notes.h"

#include <cstring>
#include <gtest/gtest.h>
#include <map>

namespace dtrace::usdt {
namespace {

// One note as an assembler lays it out.
void append_note(std::vector<uint8_t> &out, const char *owner, uint32_t type, uint64_t pc, uint64_t semaphore,
                 const std::string &provider, const std::string &name, const std::string &args) {
    std::vector<uint8_t> desc(24);
    const uint64_t base = 0x2000;
    std::memcpy(desc.data(), &pc, 8);
    std::memcpy(desc.data() + 8, &base, 8);
    std::memcpy(desc.data() + 16, &semaphore, 8);
    for (const std::string *s : {&provider, &name, &args}) {
        desc.insert(desc.end(), s->begin(), s->end());
        desc.push_back(0);
    }
    const uint32_t header[3] = {static_cast<uint32_t>(std::strlen(owner) + 1), static_cast<uint32_t>(desc.size()),
                                type};
    const auto *h = reinterpret_cast<const uint8_t *>(header);
    out.insert(out.end(), h, h + sizeof header);
    out.insert(out.end(), owner, owner + std::strlen(owner) + 1);
    while (out.size() % 4)
        out.push_back(0);
    out.insert(out.end(), desc.begin(), desc.end());
    while (out.size() % 4)
        out.push_back(0);
}

TEST(StapsdtNotes, ReadsEachNoteAndSkipsOthers) {
    std::vector<uint8_t> section;
    append_note(section, "stapsdt", 3, 0x1100, 0x4070, "myprov", "request__start", "8@%rax -4@%ebp");
    append_note(section, "GNU", 3, 0x1, 0, "x", "y", "");
    append_note(section, "stapsdt", 3, 0x1200, 0, "myprov", "tick", "");
    const std::vector<StapsdtNote> notes = parse_stapsdt_notes(section);
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[0].pc, 0x1100u);
    EXPECT_EQ(notes[0].base, 0x2000u);
    EXPECT_EQ(notes[0].semaphore, 0x4070u);
    EXPECT_EQ(notes[0].provider, "myprov");
    EXPECT_EQ(notes[0].name, "request__start");
    EXPECT_EQ(notes[0].args, "8@%rax -4@%ebp");
    EXPECT_EQ(notes[1].name, "tick");
    EXPECT_EQ(notes[1].args, "");
}

TEST(StapsdtNotes, TruncatedOrUnterminatedNotesAreNotRead) {
    std::vector<uint8_t> section;
    append_note(section, "stapsdt", 3, 0x1100, 0, "p", "n", "8@%rax");
    // Header 12, owner 8, descriptor 24 + "p\0n\08@%rax\0" = 35: 55 bytes before the last padding.
    const size_t whole = 12 + 8 + 35;
    for (size_t cut = 0; cut < whole; ++cut) {
        std::vector<uint8_t> part(section.begin(), section.begin() + cut);
        EXPECT_TRUE(parse_stapsdt_notes(part).empty()) << "cut at " << cut;
    }
    section.resize(section.size() - 4); // the strings lose their last NUL: shorten descsz to match
    uint32_t desc_size;
    std::memcpy(&desc_size, section.data() + 4, 4);
    desc_size = static_cast<uint32_t>(section.size() - 20);
    std::memcpy(section.data() + 4, &desc_size, 4);
    section.back() = 'x';
    EXPECT_TRUE(parse_stapsdt_notes(section).empty());
}

TEST(StapsdtNotes, DefinitionTypes) {
    const auto types = parse_definition_types("p\tq\tchar * : string\tint\nbad line\n\n\tnoprovider\tint\np\tnone\n");
    ASSERT_EQ(types.size(), 2u);
    EXPECT_EQ(types.at("p\tq"), (std::vector<DefinedType>{{"char *", "string"}, {"int", ""}}));
    EXPECT_TRUE(types.at("p\tnone").empty());
}

TEST(StapsdtNotes, NotAnElfFile) {
    EXPECT_FALSE(read_probe_sites("/proc/self/status"));
    EXPECT_FALSE(read_probe_sites("/nonexistent/file"));
}

#ifdef USDT_WORKLOAD
TEST(StapsdtNotes, ProgramBuiltWithOurHeaderAndObject) {
    plugin_common::Result<FileProbes> probes = read_probe_sites(USDT_WORKLOAD);
    ASSERT_TRUE(probes) << probes.error();
    std::map<std::string, const ProbeSite *> by_name;
    for (const ProbeSite &site : probes.value().sites) {
        EXPECT_EQ(site.provider, "demo");
        EXPECT_NE(site.file_offset, 0u);
        EXPECT_NE(site.semaphore_offset, 0u) << site.name; // every probe of ours has a semaphore
        by_name[site.name] = &site;
    }
    ASSERT_EQ(by_name.size(), 5u);
    ASSERT_TRUE(by_name.count("request__done"));
    const std::vector<ArgSpec> &args = by_name["request__done"]->args;
    ASSERT_EQ(args.size(), 3u);
    EXPECT_EQ(args[0].size, 8);
    EXPECT_FALSE(args[0].is_signed);
    EXPECT_EQ(args[1].size, 4);
    EXPECT_TRUE(args[1].is_signed);
    EXPECT_EQ(args[2].size, 8);
    EXPECT_TRUE(args[2].is_signed);
    EXPECT_EQ(by_name["many"]->args.size(), 8u);
    EXPECT_TRUE(by_name["tick"]->args.empty());
    // The -G object's table of the definition's types, linked in.
    const auto &types = probes.value().definition_types;
    ASSERT_TRUE(types.count("demo\trequest__done"));
    EXPECT_EQ(types.at("demo\trequest__done"), (std::vector<DefinedType>{{"char *", ""}, {"int", ""}, {"long", ""}}));
    ASSERT_TRUE(types.count("demo\tlocated"));
    EXPECT_EQ(types.at("demo\tlocated"), (std::vector<DefinedType>{{"struct demo_point *", ""}, {"int", ""}}));
    ASSERT_TRUE(types.count("demo\ttick"));
    EXPECT_TRUE(types.at("demo\ttick").empty());
}
#endif

} // namespace
} // namespace dtrace::usdt
