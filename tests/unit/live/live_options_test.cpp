// live_options_test.cpp: sizes of the live options.
#include <gtest/gtest.h>

#include "bpf_program_set.h"
#include "live_options.h"

namespace dtrace::live {
namespace {

TEST(LiveOptions, ParsesSizes) {
    EXPECT_EQ(parse_size("4096").value(), 4096u);
    EXPECT_EQ(parse_size("4k").value(), 4096u);
    EXPECT_EQ(parse_size("8m").value(), 8u << 20);
    EXPECT_EQ(parse_size("1g").value(), 1u << 30);
    EXPECT_FALSE(parse_size(""));
    EXPECT_FALSE(parse_size("k"));
    EXPECT_FALSE(parse_size("12q"));
    EXPECT_FALSE(parse_size("-1"));
    EXPECT_FALSE(parse_size("99999999999999999999"));
    EXPECT_FALSE(parse_size("17179869184g"));
}

TEST(LiveOptions, RingSizesArePowersOfTwoOfAtLeastAPage) {
    const uint32_t page = static_cast<uint32_t>(sysconf(_SC_PAGESIZE));
    EXPECT_EQ(ring_size_for(1), page);
    EXPECT_EQ(ring_size_for(page + 1), 2 * page);
    EXPECT_EQ(ring_size_for(4u << 20), 4u << 20);
}

} // namespace
} // namespace dtrace::live
