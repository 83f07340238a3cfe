// tracepoint_fields_test.cpp: sdt's argument types and the reading of a
// tracepoint record's fields (integers, __data_loc and __rel_loc strings,
// char arrays, records cut short).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "bpf/sdt_raw.h"
#include "tracepoint_fields.h"

namespace dtrace::sdt {
namespace {

// sched_process_exec's layout, with a __rel_loc and a char array added.
constexpr const char *kFormat = "name: sample\n"
                                "ID: 1\n"
                                "format:\n"
                                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                                "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
                                "\n"
                                "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
                                "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
                                "\tfield:short delta;\toffset:16;\tsize:2;\tsigned:1;\n"
                                "\tfield:char comm[8];\toffset:18;\tsize:8;\tsigned:0;\n"
                                "\tfield:__rel_loc char[] tail;\toffset:28;\tsize:4;\tsigned:0;\n"
                                "\tfield:const void * skaddr;\toffset:32;\tsize:8;\tsigned:0;\n"
                                "\tfield:__u8 saddr[4];\toffset:40;\tsize:4;\tsigned:0;\n"
                                "\tfield:u64 flags;\toffset:48;\tsize:8;\tsigned:0;\n";

class TracepointFieldsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        live::Result<live::TracepointFormat> parsed = live::parse_tracepoint_format(kFormat);
        ASSERT_TRUE(parsed) << parsed.error();
        format_ = parsed.value();
        fields_ = format_.event_fields();
        ASSERT_EQ(fields_.size(), 8u);
        // The record: fixed part (56 bytes), then "/bin/ls\0" at 56 and "end\0" at 64.
        bytes_.assign(72, 0);
        put<uint32_t>(8, (8u << 16) | 56u); // __data_loc: length << 16 | offset
        put<int32_t>(12, 1234);
        put<int16_t>(16, -2);
        std::memcpy(bytes_.data() + 18, "ls\0", 3);
        put<uint32_t>(28, (4u << 16) | (64u - 32u)); // __rel_loc: from the field's end (32)
        put<uint64_t>(32, 0xffff888012345678ull);
        std::memcpy(bytes_.data() + 40, "\x7f\x00\x00\x01", 4);
        put<uint64_t>(48, 0x8000000000000001ull);
        std::memcpy(bytes_.data() + 56, "/bin/ls", 8);
        std::memcpy(bytes_.data() + 64, "end", 4);
    }
    template <typename T> void put(size_t offset, T value) {
        std::memcpy(bytes_.data() + offset, &value, sizeof value);
    }
    const live::TracepointField &field(size_t i) const { return *fields_[i]; }

    live::TracepointFormat format_;
    std::vector<const live::TracepointField *> fields_;
    std::vector<uint8_t> bytes_;
};

TEST_F(TracepointFieldsTest, TypesForD) {
    EXPECT_EQ(d_type_of(field(0)), "char *"); // __data_loc char[]
    EXPECT_EQ(d_type_of(field(1)), "pid_t");  // D knows it
    EXPECT_EQ(d_type_of(field(2)), "short");
    EXPECT_EQ(d_type_of(field(3)), "char *");        // char comm[8]
    EXPECT_EQ(d_type_of(field(4)), "char *");        // __rel_loc char[]
    EXPECT_EQ(d_type_of(field(5)), "void *");        // a kernel pointer
    EXPECT_EQ(d_type_of(field(6)), "uint8_t *");     // another array
    EXPECT_EQ(d_type_of(field(7)), "unsigned long"); // u64: D does not know it
}

TEST_F(TracepointFieldsTest, ReadsIntegersSignExtended) {
    const RawRecord raw(bytes_);
    EXPECT_EQ(raw.integer(field(1)), 1234u);
    EXPECT_EQ(static_cast<int64_t>(raw.integer(field(2))), -2);
    EXPECT_EQ(raw.integer(field(7)), 0x8000000000000001ull);
    EXPECT_EQ(raw.arg(field(5)), 0xffff888012345678ull);
}

TEST_F(TracepointFieldsTest, ReadsStringsWhereTheyLie) {
    const RawRecord raw(bytes_);
    EXPECT_EQ(raw.text(field(0)), "/bin/ls");
    EXPECT_EQ(raw.text(field(3)), "ls");
    EXPECT_EQ(raw.text(field(4)), "end");
    // A string's argument is its address in the copy, served at SDT_RAW_ADDRESS.
    EXPECT_EQ(raw.arg(field(0)), SDT_RAW_ADDRESS + 56);
    EXPECT_EQ(raw.arg(field(3)), SDT_RAW_ADDRESS + 18);
    EXPECT_EQ(raw.arg(field(6)), SDT_RAW_ADDRESS + 40);
    ASSERT_EQ(raw.bytes(field(6)).size(), 4u);
    EXPECT_EQ(raw.bytes(field(6))[0], 0x7f);
}

TEST_F(TracepointFieldsTest, ARecordCutShortReadsNothingPastItsEnd) {
    const RawRecord raw(std::span<const uint8_t>(bytes_).first(60)); // the copy's limit cut "/bin/ls"
    EXPECT_EQ(raw.text(field(0)), "/bin");
    EXPECT_EQ(raw.text(field(4)), ""); // past the end
    EXPECT_EQ(raw.arg(field(4)), 0u);
    const RawRecord tiny(std::span<const uint8_t>(bytes_).first(10));
    EXPECT_EQ(tiny.integer(field(1)), 0u);
    EXPECT_EQ(tiny.text(field(0)), "");
}

TEST_F(TracepointFieldsTest, CaptureSizeLeavesRoomForStrings) {
    EXPECT_EQ(capture_bytes(format_, 0), 56u);
    EXPECT_EQ(capture_bytes(format_, 100), 56u + 2 * 100); // two located strings
    EXPECT_EQ(capture_bytes(format_, 5000), 2048u);        // the program's most
}

} // namespace
} // namespace dtrace::sdt
