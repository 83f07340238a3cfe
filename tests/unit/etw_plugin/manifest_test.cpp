// manifest_test.cpp: instrumentation manifests parsed and indexed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "manifest_set.h"

namespace dtrace::etw::plugin {
namespace {

const char *const kManifest = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"
                         xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events">
  <instrumentation>
    <events>
      <provider name="Fixture-Provider" guid="{4F50731A-89CF-4782-B3E0-DCE8C90476BA}" symbol="FIXTURE">
        <keywords>
          <keyword name="GCKeyword" mask="0x1"/>
          <keyword name="ExceptionKeyword" mask="0x8000"/>
        </keywords>
        <levels>
          <level name="fixture:Chatty" value="16"/>
        </levels>
        <opcodes>
          <opcode name="Shared" value="20"/>
        </opcodes>
        <tasks>
          <task name="GarbageCollection" value="1">
            <opcodes>
              <opcode name="GCAllocationTick" value="11"/>
            </opcodes>
          </task>
          <task name="Exception" value="7"/>
        </tasks>
        <maps>
          <valueMap name="KindMap">
            <map value="0x0" message="$(string.Fixture.Kind.Small)"/>
            <map value="0x1" message="$(string.Fixture.Kind.Large)"/>
          </valueMap>
          <bitMap name="FlagsMap">
            <map value="0x1" message="$(string.Fixture.Flags.Read)"/>
            <map value="0x4" message="$(string.Fixture.Flags.Write)"/>
          </bitMap>
        </maps>
        <templates>
          <template tid="Tick">
            <data name="Amount" inType="win:UInt32" outType="win:HexInt32" map="FlagsMap"/>
            <data name="TypeName" inType="win:UnicodeString"/>
          </template>
          <template tid="Tick_V1">
            <data name="Amount" inType="win:UInt32"/>
            <data name="TypeName" inType="win:UnicodeString"/>
            <data name="Count" inType="win:UInt16"/>
            <data name="Values" inType="win:UInt32" count="Count"/>
            <data name="Blob" inType="win:Binary" length="4"/>
            <data name="Pair" inType="win:UInt8" count="2"/>
            <struct name="Items" count="Count">
              <data name="Item" inType="win:UInt32"/>
              <data name="Kind" inType="win:UInt8" map="KindMap"/>
            </struct>
            <data name="After" inType="win:UInt32"/>
          </template>
          <template tid="Odd">
            <data name="Good" inType="win:Int64"/>
            <data name="Strange" inType="win:NoSuchType"/>
            <data name="Sized" inType="win:Binary" length="NoSuchField"/>
          </template>
        </templates>
        <events>
          <event value="10" version="0" level="win:Verbose" task="GarbageCollection" opcode="GCAllocationTick"
                 keywords="GCKeyword" template="Tick" symbol="AllocationTick"/>
          <event value="10" version="1" level="fixture:Chatty" task="GarbageCollection" opcode="GCAllocationTick"
                 keywords="GCKeyword ExceptionKeyword win:ResponseTime" template="Tick_V1" symbol="AllocationTick_V1"/>
          <event value="80" level="win:Error" task="Exception" opcode="Shared" keywords="ExceptionKeyword"
                 template="Odd" symbol="Thrown"/>
          <event value="81" opcode="win:Stop" symbol="NoTemplate"/>
        </events>
      </provider>
    </events>
  </instrumentation>
  <localization>
    <resources culture="en-US">
      <stringTable>
        <string id="Fixture.Kind.Small" value="Small"/>
        <string id="Fixture.Kind.Large" value="Large"/>
        <string id="Fixture.Flags.Read" value="Read"/>
        <string id="Fixture.Flags.Write" value="Write"/>
      </stringTable>
    </resources>
  </localization>
</instrumentationManifest>
)xml";

const Guid kFixture = *Guid::parse("4f50731a-89cf-4782-b3e0-dce8c90476ba");

ManifestProvider parsed() {
    Result<std::vector<ManifestProvider>> r = parse_manifest_text(kManifest, "fixture.man");
    EXPECT_TRUE(r) << r.error();
    EXPECT_EQ(r.value().size(), 1u);
    return r.value().at(0);
}

TEST(Manifest, ProviderAndKeywords) {
    ManifestProvider p = parsed();
    EXPECT_EQ(p.name, "Fixture-Provider");
    EXPECT_EQ(p.guid, kFixture);
    ASSERT_EQ(p.keywords.size(), 2u);
    EXPECT_EQ(p.keywords[0].name, "ExceptionKeyword");
    EXPECT_EQ(p.keywords[0].mask, 0x8000u);
    EXPECT_EQ(p.keywords[1].name, "GCKeyword");
}

TEST(Manifest, EventsResolveLevelsTasksOpcodesAndKeywordsByName) {
    ManifestProvider p = parsed();
    ASSERT_EQ(p.events.size(), 4u);
    const ManifestEvent &v0 = p.events[0];
    EXPECT_EQ(v0.id, 10);
    EXPECT_EQ(v0.version, 0);
    EXPECT_EQ(v0.level, 5);
    EXPECT_EQ(v0.task, 1);
    EXPECT_EQ(v0.opcode, 11); // the task's own opcode
    EXPECT_EQ(v0.keywords, 0x1u);
    EXPECT_EQ(v0.name, "AllocationTick");
    const ManifestEvent &v1 = p.events[1];
    EXPECT_EQ(v1.level, 16);           // a level the provider defines
    EXPECT_EQ(v1.keywords, 0x8001u);   // win:ResponseTime is not the provider's
    EXPECT_EQ(p.events[2].opcode, 20); // a provider-wide opcode
    EXPECT_EQ(p.events[3].opcode, 2);  // win:Stop
    EXPECT_TRUE(p.events[3].fields.empty());
}

TEST(Manifest, TemplateFieldsWithCountsLengthsAndStructs) {
    const std::vector<ManifestField> f = parsed().events[1].fields;
    ASSERT_EQ(f.size(), 8u);
    EXPECT_EQ(f[0].name, "Amount");
    EXPECT_EQ(f[0].type, InType::UInt32);
    EXPECT_EQ(f[1].type, InType::UnicodeString);
    EXPECT_TRUE(f[3].is_array);
    EXPECT_EQ(f[3].count_field, std::optional<size_t>(2));
    EXPECT_EQ(f[4].type, InType::Binary);
    EXPECT_EQ(f[4].length, 4u);
    EXPECT_TRUE(f[5].is_array);
    EXPECT_EQ(f[5].count, 2u);
    EXPECT_TRUE(f[6].is_struct);
    EXPECT_FALSE(f[6].opaque);
    EXPECT_EQ(f[6].count_field, std::optional<size_t>(2));
    ASSERT_EQ(f[6].members.size(), 2u);
    EXPECT_EQ(f[6].members[1].name, "Kind");
    EXPECT_FALSE(f[7].opaque);
}

TEST(Manifest, ValueMapsAndBitmapsNameValuesFromTheStringTable) {
    const ManifestProvider p = parsed();
    const ManifestField &kind = p.events[1].fields[6].members[1];
    ASSERT_TRUE(kind.map);
    EXPECT_FALSE(kind.map->is_bitmap);
    EXPECT_EQ(map_value_name(*kind.map, 1), "Large");
    EXPECT_EQ(map_value_name(*kind.map, 7), "7") << "a value the map does not name";
    const ManifestField &flags = p.events[0].fields[0];
    ASSERT_TRUE(flags.map);
    EXPECT_TRUE(flags.map->is_bitmap);
    EXPECT_EQ(map_value_name(*flags.map, 0x5), "Read|Write");
    EXPECT_EQ(map_value_name(*flags.map, 0x14), "Write|0x10");
    EXPECT_EQ(map_value_name(*flags.map, 0), "0x0");
    EXPECT_FALSE(p.events[0].fields[1].map);
}

TEST(Manifest, UnknownTypesAndSizesMakeFieldsOpaque) {
    const std::vector<ManifestField> f = parsed().events[2].fields;
    ASSERT_EQ(f.size(), 3u);
    EXPECT_FALSE(f[0].opaque);
    EXPECT_TRUE(f[1].opaque);
    EXPECT_TRUE(f[2].opaque);
}

TEST(Manifest, ErrorsNameTheFileAndLine) {
    Result<std::vector<ManifestProvider>> r = parse_manifest_text("<instrumentationManifest>\n<a>\n</b>", "bad.man");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), "bad.man: line 2: malformed XML (XML_ERROR_MISMATCHED_ELEMENT)" /* the element left open */);
    r = parse_manifest_text("<root/>", "other.xml");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), "other.xml: not an instrumentation manifest (no <instrumentationManifest>)");
    r = parse_manifest_text("<instrumentationManifest>\n<events>\n<provider guid=\"nonsense\" name=\"x\"/>\n"
                            "</events></instrumentationManifest>",
                            "guid.man");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), "guid.man: line 3: a provider needs a name and a GUID");
    r = parse_manifest_file("/nonexistent/x.man");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), "/nonexistent/x.man: No such file or directory");
}

class ManifestFiles : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() / ("etw_manifests_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
        std::ofstream(dir_ / "a.man") << kManifest;
        std::ofstream(dir_ / "ignored.txt") << "not a manifest";
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path dir_;
};

TEST_F(ManifestFiles, ADirectoryOrFilesSeparatedByColonsOrLines) {
    Result<ManifestSet> set = ManifestSet::load(dir_.string());
    ASSERT_TRUE(set) << set.error();
    EXPECT_EQ(set.value().providers().size(), 1u);
    set = ManifestSet::load((dir_ / "a.man").string() + ":" + (dir_ / "a.man").string() + "\n");
    ASSERT_TRUE(set) << set.error();
    EXPECT_EQ(set.value().providers().size(), 1u) << "a provider described twice is kept once";
    set = ManifestSet::load(dir_.string() + ":" + (dir_ / "ignored.txt").string());
    ASSERT_FALSE(set);
    EXPECT_EQ(set.error(), (dir_ / "ignored.txt").string() + ": line 1: malformed XML (XML_ERROR_PARSING_TEXT)");
    set = ManifestSet::load("");
    ASSERT_TRUE(set);
    EXPECT_TRUE(set.value().providers().empty());
}

TEST(ManifestSetLookups, EventsByVersionAndLatest) {
    ManifestSet set;
    set.add({parsed()});
    ASSERT_NE(set.provider(kFixture), nullptr);
    EXPECT_EQ(set.event(kFixture, 10, 0)->name, "AllocationTick");
    EXPECT_EQ(set.event(kFixture, 10, 1)->name, "AllocationTick_V1");
    EXPECT_EQ(set.event(kFixture, 10, 7)->name, "AllocationTick_V1") << "an unknown version: the latest";
    EXPECT_EQ(set.latest(kFixture, 10)->version, 1);
    EXPECT_EQ(set.latest(kFixture, 80)->name, "Thrown");
    EXPECT_EQ(set.latest(kFixture, 11), nullptr);
    EXPECT_EQ(set.latest(*Guid::parse("00000000-0000-0000-0000-000000000001"), 10), nullptr);
}

} // namespace
} // namespace dtrace::etw::plugin
