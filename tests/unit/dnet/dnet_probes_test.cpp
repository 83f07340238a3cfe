// dnet_probes_test.cpp: the dnet families' rows against the CLR manifest's
// templates (clr_event_table.h), and the choice of template by version.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "clr_templates.h"
#include "dnet_probes.h"

namespace dtrace::dnet {
namespace {

// A row whose ids name no event of its provider would never fire.
TEST(DnetProbes, EveryRowNamesEventsOfTheManifest) {
    for (const DnetProbe &p : dnet_probe_table()) {
        for (uint16_t id : p.ids) {
            bool known = id == 0;
            for (const ClrEvent &e : clr_events()) {
                known = known || (id == e.id && e.provider == p.provider);
            }
            EXPECT_TRUE(known) << p.family << ":" << p.name << " names event " << id << ", not in the manifest";
        }
    }
}

// Every member of a type reads a field of some event of a row of that type
// (a member naming no such field, a typo in a family file, would read 0 for
// ever).
TEST(DnetProbes, EveryMemberIsReadBySomeRow) {
    const ClrTemplates templates;
    std::set<std::string> read; // tag.member
    std::set<std::string> all;
    for (const DnetProbe &p : dnet_probe_table()) {
        for (const ClrEvent &e : clr_events()) {
            for (uint16_t id : p.ids) {
                if (id == 0 || id != e.id || e.provider != p.provider) {
                    continue;
                }
                for (const DnetMember &m : p.type->members) {
                    for (const etw::plugin::ManifestField &f : *templates.fields(e.provider, e.id, e.version)) {
                        if (f.name == m.field) {
                            read.insert(std::string(p.type->tag) + "." + std::string(m.name));
                        }
                    }
                }
            }
        }
        for (const DnetMember &m : p.type->members) {
            all.insert(std::string(p.type->tag) + "." + std::string(m.name));
        }
    }
    std::set<std::string> unread;
    for (const std::string &member : all) {
        if (read.count(member) == 0) {
            unread.insert(member);
        }
    }
    // Members the Windows port has whose fields come with runtimes newer than
    // the manifest (GCHeapStats v2's generation 4).
    const std::set<std::string> newer = {"netgcheapstat.gc_gensz4", "netgcheapstat.gc_totpromsize4"};
    EXPECT_EQ(unread, newer);
}

TEST(ClrTemplates, ANewerVersionReadsWithTheNewestKnownTemplate) {
    const ClrTemplates templates;
    const auto *v3 = templates.fields(ClrProvider::Runtime, 10, 3);
    ASSERT_NE(v3, nullptr);
    EXPECT_EQ(templates.fields(ClrProvider::Runtime, 10, 9), v3);
    ASSERT_EQ(v3->size(), 8u);
    EXPECT_EQ((*v3)[5].name, "TypeName");
    const auto *v2 = templates.fields(ClrProvider::Runtime, 10, 2);
    ASSERT_NE(v2, nullptr);
    EXPECT_EQ(v2->size(), 7u);
    EXPECT_EQ(templates.fields(ClrProvider::Runtime, 9999, 0), nullptr);
    // An event without a template decodes no fields.
    const auto *restart = templates.fields(ClrProvider::Runtime, 3, 0);
    ASSERT_NE(restart, nullptr);
    EXPECT_TRUE(restart->empty());
}

TEST(ClrTemplates, ProvidersByGuid) {
    EXPECT_EQ(clr_provider_of(*etw::Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4")), ClrProvider::Runtime);
    EXPECT_EQ(clr_provider_of(*etw::Guid::parse("a669021c-c450-4609-a035-5af59af4df18")), ClrProvider::Rundown);
    EXPECT_FALSE(clr_provider_of(*etw::Guid::parse("763fd754-7086-4dfe-95eb-c01a46faf4ca")));
}

} // namespace
} // namespace dtrace::dnet
