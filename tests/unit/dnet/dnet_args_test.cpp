// dnet_args_test.cpp: the arguments of the dnet probes (dnet_args.h) over
// payloads of every row's events, well-formed and not: the raw payload and
// the twin record are where the translators look, every slot of a string
// member is the address of a NUL-terminated text D can read, and damaged
// payloads (cut short, garbage) build without reading outside them.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dnet_args.h"
#include "dnet_library.h"
#include "dnet_probes.h"
#include "event_memory.h"

namespace dtrace::dnet {
namespace {

using etw::plugin::EventMemory;

std::vector<uint8_t> read(EventMemory &memory, uint64_t address, size_t length) {
    std::vector<uint8_t> out(length);
    if (EventMemory::read(&memory, address, out.data(), length) != static_cast<int64_t>(length)) {
        out.clear();
    }
    return out;
}

// The text at address, read as D's copyinstr() would (up to its NUL), or
// nullopt when the memory ends before one.
std::optional<std::string> text_at(EventMemory &memory, uint64_t address) {
    std::string s;
    for (size_t i = 0; i < 4096; ++i) {
        const std::vector<uint8_t> c = read(memory, address + i, 1);
        if (c.empty()) {
            return std::nullopt;
        }
        if (c[0] == 0) {
            return s;
        }
        s.push_back(static_cast<char>(c[0]));
    }
    return std::nullopt;
}

class DnetArgsTest : public ::testing::Test {
  protected:
    // Builds row's arguments for an event and checks the layout.
    void check(size_t row, uint16_t id, uint8_t version, uint8_t pointer_size, const std::vector<uint8_t> &payload) {
        etw::Event event;
        event.id = id;
        event.version = version;
        event.pointer_size = pointer_size;
        event.payload = payload;
        memory_.begin(event);
        const DnetArgValues args = args_.build(row, event, memory_);
        EXPECT_EQ(args[1], payload.size());
        EXPECT_EQ(args[2], pointer_size == 8 ? 1u : 0u);
        EXPECT_EQ(args[3], version);
        EXPECT_EQ(read(memory_, args[0], payload.size()), payload);
        const std::vector<uint8_t> prefix = read(memory_, args[0] - kPayloadPrefixSize, kPayloadPrefixSize);
        ASSERT_EQ(prefix.size(), kPayloadPrefixSize);
        EXPECT_EQ(prefix[0] | prefix[1] << 8, id);
        EXPECT_EQ(prefix[2], version);
        const DnetType &type = *table_[row].type;
        const size_t twin_size = type.members.size() * sizeof(uint64_t);
        const std::vector<uint8_t> twin = read(memory_, args[0] - kPayloadPrefixSize - twin_size, twin_size);
        ASSERT_EQ(twin.size(), twin_size);
        for (size_t m = 0; m < type.members.size(); ++m) {
            if (type.members[m].d_type != "string") {
                continue;
            }
            uint64_t slot = 0;
            std::memcpy(&slot, twin.data() + m * sizeof slot, sizeof slot);
            EXPECT_TRUE(text_at(memory_, slot).has_value())
                << table_[row].name << " member " << type.members[m].name << " is no readable text";
        }
    }

    std::span<const DnetProbe> table_ = dnet_probe_table();
    ClrTemplates templates_;
    DnetArgs args_{table_, templates_};
    EventMemory memory_;
};

TEST_F(DnetArgsTest, AllocationTickMembersByVersionAndPointerSize) {
    size_t row = 0;
    while (table_[row].name != "allocate-tick") {
        ++row;
    }
    for (uint8_t ps : {uint8_t{4}, uint8_t{8}}) {
        std::vector<uint8_t> p = {0x00, 0x90, 0x01, 0x00, 1, 0, 0, 0, 7, 0}; // 102400, large object, instance 7
        p.insert(p.end(), {0x00, 0x90, 0x01, 0, 0, 0, 0, 0});                // AllocationAmount64
        p.insert(p.end(), ps, 0x11);                                         // TypeID
        for (char c : std::string("Foo")) {
            p.insert(p.end(), {static_cast<uint8_t>(c), 0});
        }
        p.insert(p.end(), {0, 0, 3, 0, 0, 0}); // NUL, HeapIndex 3
        p.insert(p.end(), ps, 0x22);           // Address
        etw::Event event;
        event.id = 10;
        event.version = 3;
        event.pointer_size = ps;
        event.payload = p;
        memory_.begin(event);
        const DnetArgValues args = args_.build(row, event, memory_);
        const size_t members = table_[row].type->members.size();
        const std::vector<uint8_t> twin = read(memory_, args[0] - kPayloadPrefixSize - members * 8, members * 8);
        ASSERT_EQ(twin.size(), members * 8);
        auto slot = [&](std::string_view name) {
            for (size_t m = 0; m < members; ++m) {
                if (table_[row].type->members[m].name == name) {
                    uint64_t v = 0;
                    std::memcpy(&v, twin.data() + m * 8, 8);
                    return v;
                }
            }
            ADD_FAILURE() << "no member " << name;
            return uint64_t{0};
        };
        EXPECT_EQ(slot("gc_amt"), 102400u);
        EXPECT_EQ(slot("gc_kind"), 1u);
        EXPECT_EQ(slot("clr_instid"), 7u);
        EXPECT_EQ(slot("gc_typeid"), ps == 8 ? 0x1111111111111111u : 0x11111111u);
        EXPECT_EQ(text_at(memory_, slot("gc_typename")), "Foo");
        EXPECT_EQ(slot("gc_heapindex"), 3u);
        EXPECT_EQ(slot("gc_addr"), ps == 8 ? 0x2222222222222222u : 0x22222222u);
    }
}

// Every row, every version of its events, payloads cut short and garbage.
TEST_F(DnetArgsTest, AnyPayloadBuildsWithinItsMemory) {
    std::mt19937 random(15);
    for (size_t row = 0; row < table_.size(); ++row) {
        for (const ClrEvent &e : clr_events()) {
            bool fires = false;
            for (uint16_t id : table_[row].ids) {
                fires = fires || (id != 0 && id == e.id && e.provider == table_[row].provider);
            }
            if (!fires) {
                continue;
            }
            for (size_t length : {size_t{0}, size_t{1}, size_t{7}, size_t{33}, size_t{300}}) {
                std::vector<uint8_t> payload(length);
                for (uint8_t &b : payload) {
                    b = static_cast<uint8_t>(random() % 3 == 0 ? 0 : random());
                }
                check(row, e.id, e.version, 8, payload);
                check(row, e.id, static_cast<uint8_t>(e.version + 5), 4, payload); // a version newer than the manifest
            }
        }
    }
}

} // namespace
} // namespace dtrace::dnet
