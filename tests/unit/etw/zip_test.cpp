// zip_test.cpp: PerfView .etl.zip archives (made here with zlib).
#include <gtest/gtest.h>

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "etl_file_builder.h"
#include "reader/le_bytes.h"
#include "reader/zip_layout.h"
#include "sample_traces.h"
#include "test_support.h"
#include "zip_builder.h"

namespace dtrace::etw {
namespace {

using namespace fixture;
using test::OwnedEvent;

std::vector<int64_t> timestamps(const std::vector<OwnedEvent> &events) {
    std::vector<int64_t> out;
    for (const OwnedEvent &e : events) {
        out.push_back(e.event.timestamp);
    }
    return out;
}

// The offset of the first central directory entry of a build_zip() archive.
size_t first_central_entry(const Bytes &archive) {
    size_t end = archive.size() - zip_layout::end_record::kSize;
    return load_u32(archive.data() + end + zip_layout::end_record::kDirectoryOffset);
}

Result<EtlReader> open_zip(Bytes archive, const ReaderOptions &options = {}) {
    return EtlReader::open_source(make_memory_source(std::move(archive)), "trace.etl.zip", options);
}

class ZipMembers : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(ZipMembers, TheEtlMemberReadsLikeTheFileItself) {
    auto [deflate, zip64] = GetParam();
    Bytes etl = sample_multi_cpu(3, 100, 0x400);
    std::vector<OwnedEvent> direct = test::read_bytes(etl);
    Bytes archive = build_zip({{"PerfViewData/trace.etl", etl, deflate}}, zip64);
    if (deflate) {
        EXPECT_LT(archive.size(), etl.size() / 2);
    }
    Result<EtlReader> reader = open_zip(archive);
    ASSERT_TRUE(reader) << reader.error();
    EXPECT_EQ(reader.value().name(), "trace.etl.zip!PerfViewData/trace.etl");
    std::vector<OwnedEvent> zipped = test::read_all(reader.value());
    EXPECT_EQ(timestamps(zipped), timestamps(direct));
    EXPECT_EQ(zipped.size(), 301u);
}

INSTANTIATE_TEST_SUITE_P(MethodsAndFormats, ZipMembers, ::testing::Combine(::testing::Bool(), ::testing::Bool()));

TEST(Zip, TheFirstEtlMemberInAnyCaseIsChosen) {
    Bytes first = sample_multi_cpu(1, 5, 0x400);
    Bytes second = sample_multi_cpu(1, 9, 0x400);
    Bytes archive = build_zip({{"README.txt", Bytes(100, 'r'), true},
                               {"symbols/a.pdb", Bytes(50, 'p'), false},
                               {"Trace.ETL", first, true},
                               {"other.etl", second, true}});
    Result<EtlReader> reader = open_zip(archive);
    ASSERT_TRUE(reader) << reader.error();
    EXPECT_EQ(reader.value().name(), "trace.etl.zip!Trace.ETL");
    EXPECT_EQ(test::read_all(reader.value()).size(), 6u);
}

TEST(Zip, AnArchiveFromDiskIsRecognisedByItsContent) {
    char path[] = "/tmp/etw_zip_test_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    write_file(path, build_zip({{"x.etl", sample_every_kind(), true}}));
    Result<EtlReader> reader = EtlReader::open(path);
    unlink(path);
    ASSERT_TRUE(reader) << reader.error();
    EXPECT_EQ(test::read_all(reader.value()).size(), kEveryKindRecords);
}

TEST(Zip, TheExtractedFileIsUnlinkedAndPlacedInTmpdir) {
    char dir[] = "/tmp/etw_zip_tmpdir_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const char *saved = getenv("TMPDIR");
    std::string old = saved ? saved : "";
    setenv("TMPDIR", dir, 1);
    Result<EtlReader> reader = open_zip(build_zip({{"x.etl", sample_every_kind(), true}}));
    if (saved) {
        setenv("TMPDIR", old.c_str(), 1);
    } else {
        unsetenv("TMPDIR");
    }
    ASSERT_TRUE(reader) << reader.error();
    DIR *d = opendir(dir);
    ASSERT_NE(d, nullptr);
    int entries = 0;
    while (dirent *ent = readdir(d)) {
        entries += std::string(ent->d_name) != "." && std::string(ent->d_name) != "..";
    }
    closedir(d);
    rmdir(dir);
    EXPECT_EQ(entries, 0);
    EXPECT_EQ(test::read_all(reader.value()).size(), kEveryKindRecords);
}

TEST(Zip, AnArchiveWithoutAnEtlIsRefused) {
    Result<EtlReader> reader = open_zip(build_zip({{"notes.txt", Bytes(10, 'n'), true}}));
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error(), "trace.etl.zip: the archive holds no .etl file");
}

TEST(Zip, AnEmptyCentralDirectoryHoldsNoEtl) {
    Bytes archive = build_zip({{"x.etl", sample_every_kind(), true}});
    size_t end = archive.size() - zip_layout::end_record::kSize;
    put_at(archive, end + zip_layout::end_record::kDiskEntries, uint16_t{0});
    put_at(archive, end + zip_layout::end_record::kTotalEntries, uint16_t{0});
    put_at(archive, end + zip_layout::end_record::kDirectorySize, uint32_t{0});
    Result<EtlReader> reader = open_zip(archive);
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error(), "trace.etl.zip: the archive holds no .etl file");
}

TEST(Zip, DamagedDeflateDataIsLocated) {
    Bytes archive = build_zip({{"x.etl", sample_multi_cpu(2, 200, 0x400), true}});
    size_t data = zip_member_data_offset(archive, 0);
    for (size_t i = data + 10; i < data + 60; ++i) {
        archive[i] = static_cast<uint8_t>(i * 37);
    }
    Result<EtlReader> reader = open_zip(archive);
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error().rfind("trace.etl.zip: ", 0), 0u) << reader.error();
    bool located = reader.error().find("near archive offset 0x") != std::string::npos;
    bool crc = reader.error().find("CRC-32") != std::string::npos;
    EXPECT_TRUE(located || crc) << reader.error();
}

TEST(Zip, ATruncatedArchiveIsRefused) {
    Bytes archive = build_zip({{"x.etl", sample_every_kind(), true}});
    archive.resize(archive.size() / 2);
    Result<EtlReader> reader = open_zip(archive);
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error(), "trace.etl.zip: no ZIP end of central directory record (truncated archive?)");
}

TEST(Zip, ADeflateStreamThatEndsEarlyIsRefused) {
    Bytes etl = sample_every_kind();
    Bytes archive = build_zip({{"x.etl", etl, true}});
    // Shrink the recorded compressed size in both headers.
    size_t central = first_central_entry(archive);
    uint32_t size = load_u32(archive.data() + central + zip_layout::central_header::kCompressedSize);
    put_at(archive, central + zip_layout::central_header::kCompressedSize, size / 2);
    Result<EtlReader> reader = open_zip(archive);
    ASSERT_FALSE(reader);
    EXPECT_NE(reader.error().find("ends early"), std::string::npos) << reader.error();
}

TEST(Zip, ACrcMismatchIsRefused) {
    Bytes archive = build_zip({{"x.etl", sample_every_kind(), false}});
    size_t data = zip_member_data_offset(archive, 0);
    archive[data + 0x500] ^= 1;
    Result<EtlReader> reader = open_zip(archive);
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error(), "trace.etl.zip: member x.etl fails its CRC-32 check");
}

TEST(Zip, ExtractionIsBoundedByTheDeclaredSizeAndTheLimit) {
    Bytes etl = sample_every_kind();
    Bytes archive = build_zip({{"x.etl", etl, true}});
    ReaderOptions options;
    options.max_extracted_size = 1000;
    Result<EtlReader> limited = open_zip(archive, options);
    ASSERT_FALSE(limited);
    EXPECT_NE(limited.error().find("extracts to more than 1000 bytes"), std::string::npos) << limited.error();

    // An archive that understates the member's size is stopped there too.
    size_t central = first_central_entry(archive);
    put_at(archive, central + zip_layout::central_header::kUncompressedSize, uint32_t{4096});
    Result<EtlReader> understated = open_zip(archive);
    ASSERT_FALSE(understated);
    EXPECT_NE(understated.error().find("extracts to more than 4096 bytes"), std::string::npos) << understated.error();
}

TEST(Zip, UnsupportedMembersAreRefusedByName) {
    Bytes archive = build_zip({{"x.etl", sample_every_kind(), true}});
    size_t central = first_central_entry(archive);
    Bytes bzip2 = archive;
    put_at(bzip2, central + zip_layout::central_header::kMethod, uint16_t{12});
    Result<EtlReader> a = open_zip(bzip2);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error(),
              "trace.etl.zip: member x.etl uses compression method 12 (only stored and deflate are supported)");
    Bytes encrypted = archive;
    put_at(encrypted, central + zip_layout::central_header::kFlags, zip_layout::kFlagEncrypted);
    Result<EtlReader> b = open_zip(encrypted);
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error(), "trace.etl.zip: member x.etl is encrypted");
}

TEST(Zip, ADirectoryOutsideTheArchiveIsRefused) {
    Bytes archive = build_zip({{"x.etl", sample_every_kind(), true}});
    put_at(archive, archive.size() - zip_layout::end_record::kSize + zip_layout::end_record::kDirectoryOffset,
           uint32_t{0x7FFFFFF0});
    Result<EtlReader> reader = open_zip(archive);
    ASSERT_FALSE(reader);
    EXPECT_NE(reader.error().find("lies outside the archive"), std::string::npos) << reader.error();
}

} // namespace
} // namespace dtrace::etw
