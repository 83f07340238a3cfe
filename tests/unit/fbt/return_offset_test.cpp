// Tests of return_offset.h: arg0 of fbt return probes, from the function's code.
#include "return_offset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace dtrace::fbt;

namespace {
constexpr uint64_t kAddress = 0xffffffff811c4f20ull;
}

// push %rbp; mov %rsp,%rbp; pop %rbp; ret; int3 padding.
TEST(ReturnOffset, TheOneRet) {
    const std::vector<uint8_t> code = {0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3, 0xcc, 0xcc};
    EXPECT_EQ(single_return_offset(code, kAddress), 5u);
}

// test %edi,%edi; je +1; ret; ret: two ways out, so not known.
TEST(ReturnOffset, SeveralWaysOutAreUnknown) {
    const std::vector<uint8_t> code = {0x85, 0xff, 0x74, 0x01, 0xc3, 0xc3};
    EXPECT_EQ(single_return_offset(code, kAddress), 0u);
}

// nop; jmp to another function (a tail call, or the return thunk): that jmp.
TEST(ReturnOffset, AJumpOutOfTheFunction) {
    const std::vector<uint8_t> code = {0x90, 0xe9, 0x00, 0x10, 0x00, 0x00, 0xcc};
    EXPECT_EQ(single_return_offset(code, kAddress), 1u);
    // A jump inside the function is not a way out: xor; jmp +0; ret.
    const std::vector<uint8_t> inside = {0x31, 0xc0, 0xeb, 0x00, 0xc3};
    EXPECT_EQ(single_return_offset(inside, kAddress), 4u);
}

TEST(ReturnOffset, CodeThatDoesNotDecodeIsUnknown) {
    const std::vector<uint8_t> code = {0x55, 0x48, 0x0f}; // cut inside an instruction
    EXPECT_EQ(single_return_offset(code, kAddress), 0u);
}

TEST(ReturnOffset, ExtentsFromKallsyms) {
    int reads = 0;
    ReturnOffsets offsets([&](uint64_t, void *, size_t) { return ++reads, int64_t(-1); }, "/nonexistent");
    offsets.load_from("ffffffff811c4f40 T vfs_write\n"
                      "ffffffff811c4f20 T vfs_read\n"
                      "ffffffff82a05000 D jiffies\n"
                      "ffffffffc0001000 t helper\t[mod]\n"
                      "ffffffffc0001040 t other\t[mod]\n");
    auto read = offsets.extent("vmlinux", "vfs_read");
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->first, kAddress);
    EXPECT_EQ(read->second, 0x20u);
    auto helper = offsets.extent("mod", "helper");
    ASSERT_TRUE(helper.has_value());
    EXPECT_EQ(helper->second, 0x40u);
    EXPECT_FALSE(offsets.extent("vmlinux", "helper").has_value());
    EXPECT_FALSE(offsets.extent("mod", "other").has_value()); // the last: no end known
    EXPECT_EQ(offsets.offset_of("vmlinux", "nonexistent"), 0u);
    EXPECT_EQ(reads, 0);
    EXPECT_EQ(offsets.offset_of("vmlinux", "vfs_read"), 0u); // unreadable code
    EXPECT_EQ(reads, 1);
}

// The code is read from the function's start, as long as kallsyms makes it.
TEST(ReturnOffset, ReadsTheFunctionsCode) {
    const std::vector<uint8_t> code = {0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3, 0xcc, 0xcc};
    ReturnOffsets offsets(
        [&](uint64_t address, void *buffer, size_t length) {
            if (address != kAddress || length != code.size())
                return int64_t(-1);
            std::copy(code.begin(), code.end(), static_cast<uint8_t *>(buffer));
            return int64_t(length);
        },
        "/nonexistent");
    offsets.load_from("ffffffff811c4f20 T vfs_read\nffffffff811c4f28 T vfs_write\n");
    EXPECT_EQ(offsets.offset_of("vmlinux", "vfs_read"), 5u);
}
