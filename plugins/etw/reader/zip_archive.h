// zip_archive.h: the .etl inside a PerfView .etl.zip archive.
//
// PerfView ships traces as ZIP archives (System.IO.Compression: deflate, ZIP64
// beyond 4 GiB). The reader finds the members through the central directory
// at the end of the archive (local headers can lie when sizes come in data
// descriptors), picks the first member named *.etl (the etw plugin's
// replay_source.h opens each one when there are several), and inflates it with
// zlib into an unlinked temporary file under $TMPDIR (or /tmp): the ETL reader
// needs random access, and memory use must not grow with the trace. The
// extraction streams in fixed chunks (zlib's 32 KiB window plus two 64 KiB
// I/O buffers), checks the CRC-32 and the declared size, and never writes more
// than the declared size or the caller's limit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reader/byte_source.h"
#include "reader/result.h"

namespace dtrace::etw {

namespace zip_method {
inline constexpr uint16_t kStored = 0;
inline constexpr uint16_t kDeflate = 8;
} // namespace zip_method

struct ZipMember {
    std::string name;
    uint16_t method = 0;
    uint16_t flags = 0;
    uint32_t crc32 = 0;
    uint64_t compressed_size = 0;
    uint64_t uncompressed_size = 0;
    uint64_t local_header_offset = 0;
};

// True if the source starts with a ZIP local file header.
bool looks_like_zip(ByteSource &source);

// Reads the central directory. Errors name archive_name and the offset.
Result<std::vector<ZipMember>> read_zip_directory(ByteSource &source, const std::string &archive_name);

// True if the member's name ends in `suffix` (lower case; the name in any case).
bool member_has_suffix(const ZipMember &member, std::string_view suffix);
// "archive!member", how messages name a member.
std::string archive_member_name(const std::string &archive, const ZipMember &member);
// The first member whose name ends in `suffix` (any case), or nullptr.
const ZipMember *find_member_with_suffix(const std::vector<ZipMember> &members, std::string_view suffix);
// The first member whose name ends in ".etl" (any case), or nullptr.
const ZipMember *find_etl_member(const std::vector<ZipMember> &members);

// "<archive>: <what>", the form of every archive error.
Error zip_error(const std::string &archive, const std::string &what);

// Inflates (or copies) a member into an unlinked temporary file
// (zip_extract.cpp).
Result<std::unique_ptr<ByteSource>> extract_zip_member(ByteSource &source, const ZipMember &member,
                                                       const std::string &archive_name, uint64_t max_size);

// What a reader reads from `source`, opened as `name`: the source itself or,
// when it is a ZIP archive, its first member whose name ends in `suffix`,
// extracted (display_name is then "archive!member", else name). Fails on an
// archive without such a member and on an empty file.
Result<std::unique_ptr<ByteSource>> open_maybe_archived(std::unique_ptr<ByteSource> source, const std::string &name,
                                                        std::string_view suffix, uint64_t max_extracted_size,
                                                        std::string &display_name);

} // namespace dtrace::etw
