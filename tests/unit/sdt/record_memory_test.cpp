// record_memory_test.cpp: the per-firing records and texts the stable
// providers' translators read.
#include <gtest/gtest.h>

#include <cstring>

#include "record_memory.h"
#include "sdt_library.h"

namespace dtrace::sdt {
namespace {

TEST(RecordMemory, ServesRecordsAndTextsUntilReset) {
    RecordMemory memory;
    uint64_t first = 0, second = 0;
    memory.record(first)[buf::b_bcount] = 4096;
    Record &r = memory.record(second);
    r[dev::dev_statname] = memory.text("vda1");
    EXPECT_NE(first, second);
    EXPECT_TRUE(RecordMemory::owns(first) && RecordMemory::owns(r[dev::dev_statname]));

    uint64_t count = 0;
    ASSERT_EQ(memory.read(first + buf::b_bcount * 8, &count, sizeof count), 8);
    EXPECT_EQ(count, 4096u);
    char name[16] = {};
    EXPECT_EQ(memory.read(r[dev::dev_statname], name, sizeof name), 5); // with its NUL
    EXPECT_STREQ(name, "vda1");
    EXPECT_EQ(memory.read(r[dev::dev_statname] + 2, name, sizeof name), 3);
    EXPECT_STREQ(name, "a1");

    memory.reset();
    EXPECT_EQ(memory.read(first, &count, sizeof count), -1);
    uint64_t again = 0;
    EXPECT_EQ(memory.record(again)[buf::b_bcount], 0u); // zeroed when reused
    EXPECT_EQ(again, first);
}

TEST(RecordMemory, RefusesWhatIsNotItsOwn) {
    RecordMemory memory;
    uint64_t address = 0;
    memory.record(address);
    char byte;
    EXPECT_EQ(memory.read(address + sizeof(Record), &byte, 1), -1); // the next, unused record
    EXPECT_EQ(memory.read(RecordMemory::kTextBase, &byte, 1), -1);  // no text yet
    EXPECT_FALSE(RecordMemory::owns(0x1000));
}

TEST(SdtLibrary, DeclaresTheTypesTheFamiliesName) {
    const std::string &d = sdt_d_library();
    for (const char *name : {"bufinfo_t", "devinfo_t", "csinfo_t", "ipinfo_t", "tcpinfo_t", "tcpsinfo_t", "tcplsinfo_t",
                             "udpinfo_t", "udpsinfo_t", "pktinfo_t"}) {
        EXPECT_NE(d.find(std::string("} ") + name + ";"), std::string::npos) << name;
        EXPECT_NE(d.find(std::string("translator ") + name + " < sdt_"), std::string::npos) << name;
    }
    EXPECT_NE(d.find("inline int B_READ = 0x0040;"), std::string::npos);
    // io's fileinfo_t is the live library's, which fds[] shares.
    EXPECT_EQ(d.find("fileinfo_t"), std::string::npos);
    EXPECT_NE(live::file_d_library().find("translator fileinfo_t < live_fileinfo_t *P >"), std::string::npos);
}

} // namespace
} // namespace dtrace::sdt
