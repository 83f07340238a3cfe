// real_files_test.cpp: the reader over the sample .nettrace files of ../shared/data/nettrace.
//
// Each file's event count must equal the independent walker's; the counts of
// a few runtime events must equal PerfView's baseline (the COUNT lines of
// eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.baseline.txt, first field
// after the name); events come in timestamp order. Skips when the shared
// data directory is absent.
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include <gtest/gtest.h>

#include "independent_walker.h"
#include "nettrace/nettrace_reader.h"
#include "reader/byte_source.h"
#include "reader/extended_items.h"
#include "reader/zip_archive.h"

namespace dtrace::etw::nettrace {
namespace {

const std::filesystem::path kDataDir = std::filesystem::path(ETW_SHARED_DATA_DIR) / "nettrace";

std::vector<uint8_t> extracted_bytes(const std::filesystem::path &zip) {
    Result<std::unique_ptr<ByteSource>> source = open_file_source(zip.string());
    EXPECT_TRUE(source.ok());
    Result<std::vector<ZipMember>> members = read_zip_directory(*source.value(), zip.string());
    EXPECT_TRUE(members.ok());
    const ZipMember &member = members.value().front();
    Result<std::unique_ptr<ByteSource>> member_source =
        extract_zip_member(*source.value(), member, zip.string(), UINT64_MAX);
    EXPECT_TRUE(member_source.ok());
    std::vector<uint8_t> bytes(member_source.value()->size());
    EXPECT_TRUE(member_source.value()->read_at(0, bytes));
    return bytes;
}

class RealNetTraceFiles : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        if (!std::filesystem::exists(kDataDir / GetParam())) {
            GTEST_SKIP() << "sample file absent: " << (kDataDir / GetParam()).string();
        }
    }
};

TEST_P(RealNetTraceFiles, EventCountMatchesTheIndependentWalkerAndTimeOrder) {
    const std::filesystem::path path = kDataDir / GetParam();
    std::optional<test::WalkCounts> walked = test::walk_nettrace(extracted_bytes(path));
    ASSERT_TRUE(walked.has_value());
    ASSERT_GT(walked->events, 0u);

    auto opened = NetTraceReader::open(path.string());
    ASSERT_TRUE(opened.ok()) << opened.error();
    NetTraceReader &reader = *opened.value();
    Event e;
    uint64_t count = 0;
    int64_t last = INT64_MIN;
    uint64_t with_stack = 0;
    while (reader.next(e)) {
        ++count;
        EXPECT_GE(e.timestamp, last);
        last = e.timestamp;
        with_stack += find_extended_item(e, ext_type::kStackTrace64).has_value() ? 1 : 0;
    }
    EXPECT_EQ(count, walked->events);
    EXPECT_EQ(reader.stats().problem_count, 0u) << reader.stats().problems.front().message;
    EXPECT_EQ(reader.stats().out_of_order_events, 0u);
    EXPECT_GT(with_stack, 0u);
}

INSTANTIATE_TEST_SUITE_P(Samples, RealNetTraceFiles,
                         ::testing::Values("eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip",
                                           "only_managed_samples.nettrace.zip"));

TEST(RealNetTraceBaseline, RuntimeEventCountsMatchPerfView) {
    const std::filesystem::path path = kDataDir / "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip";
    if (!std::filesystem::exists(path)) {
        GTEST_SKIP() << "sample file absent: " << path.string();
    }
    auto opened = NetTraceReader::open(path.string());
    ASSERT_TRUE(opened.ok()) << opened.error();
    const Guid runtime = *Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    std::map<uint16_t, uint64_t> by_id;
    Event e;
    while (opened.value()->next(e)) {
        if (e.provider == runtime) {
            ++by_id[e.id];
        }
    }
    // Baseline: GC/AllocationTick 35458, GC/Start 478, GC/RestartEEStop 6002,
    // ThreadCreated 14, Method/LoadVerbose 53.
    EXPECT_EQ(by_id[10], 35458u);
    EXPECT_EQ(by_id[1], 478u);
    EXPECT_EQ(by_id[3], 6002u);
    EXPECT_EQ(by_id[85], 14u);
    EXPECT_EQ(by_id[143], 53u);
}

} // namespace
} // namespace dtrace::etw::nettrace
