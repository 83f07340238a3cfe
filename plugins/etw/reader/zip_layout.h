// zip_layout.h: the ZIP records the reader needs, as laid out on disk.
//
// Record layouts from the PKWARE APPNOTE (4.3.7 local file header, 4.3.12
// central directory header, 4.3.14-16 ZIP64 end records, 4.5.3 ZIP64 extended
// information extra field). Shared by the reader and the tests' archive
// writer so both speak of the same offsets.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dtrace::etw::zip_layout {

namespace local_header {
inline constexpr uint32_t kSignature = 0x04034b50;
inline constexpr size_t kVersionNeeded = 4;
inline constexpr size_t kFlags = 6;
inline constexpr size_t kMethod = 8;
inline constexpr size_t kTime = 10;
inline constexpr size_t kDate = 12;
inline constexpr size_t kCrc32 = 14;
inline constexpr size_t kCompressedSize = 18;
inline constexpr size_t kUncompressedSize = 22;
inline constexpr size_t kNameLength = 26;
inline constexpr size_t kExtraLength = 28;
inline constexpr size_t kSize = 30;
} // namespace local_header

namespace central_header {
inline constexpr uint32_t kSignature = 0x02014b50;
inline constexpr size_t kVersionMadeBy = 4;
inline constexpr size_t kVersionNeeded = 6;
inline constexpr size_t kFlags = 8;
inline constexpr size_t kMethod = 10;
inline constexpr size_t kTime = 12;
inline constexpr size_t kDate = 14;
inline constexpr size_t kCrc32 = 16;
inline constexpr size_t kCompressedSize = 20;
inline constexpr size_t kUncompressedSize = 24;
inline constexpr size_t kNameLength = 28;
inline constexpr size_t kExtraLength = 30;
inline constexpr size_t kCommentLength = 32;
inline constexpr size_t kDiskStart = 34;
inline constexpr size_t kInternalAttributes = 36;
inline constexpr size_t kExternalAttributes = 38;
inline constexpr size_t kLocalHeaderOffset = 42;
inline constexpr size_t kSize = 46;
} // namespace central_header

namespace end_record {
inline constexpr uint32_t kSignature = 0x06054b50;
inline constexpr size_t kDisk = 4;
inline constexpr size_t kDirectoryDisk = 6;
inline constexpr size_t kDiskEntries = 8;
inline constexpr size_t kTotalEntries = 10;
inline constexpr size_t kDirectorySize = 12;
inline constexpr size_t kDirectoryOffset = 16;
inline constexpr size_t kCommentLength = 20;
inline constexpr size_t kSize = 22;
inline constexpr size_t kMaxComment = 0xFFFF;
} // namespace end_record

namespace zip64_locator {
inline constexpr uint32_t kSignature = 0x07064b50;
inline constexpr size_t kEndRecordDisk = 4;
inline constexpr size_t kEndRecordOffset = 8;
inline constexpr size_t kTotalDisks = 16;
inline constexpr size_t kSize = 20;
} // namespace zip64_locator

namespace zip64_end_record {
inline constexpr uint32_t kSignature = 0x06064b50;
inline constexpr size_t kRecordSize = 4; // u64: size of the record after its first kLeadingBytes
inline constexpr size_t kLeadingBytes = 12;
inline constexpr size_t kVersionMadeBy = 12;
inline constexpr size_t kVersionNeeded = 14;
inline constexpr size_t kDisk = 16;
inline constexpr size_t kDirectoryDisk = 20;
inline constexpr size_t kDiskEntries = 24;
inline constexpr size_t kTotalEntries = 32;
inline constexpr size_t kDirectorySize = 40;
inline constexpr size_t kDirectoryOffset = 48;
inline constexpr size_t kSize = 56;
} // namespace zip64_end_record

namespace zip64_extra {
inline constexpr uint16_t kId = 0x0001;
inline constexpr size_t kFieldHeader = 4; // u16 id, u16 size
} // namespace zip64_extra

inline constexpr uint16_t kFlagEncrypted = 0x0001;
// A 32-bit (16-bit) field with this value is found in the ZIP64 records.
inline constexpr uint32_t kZip64Marker32 = 0xFFFFFFFF;
inline constexpr uint16_t kZip64Marker16 = 0xFFFF;

} // namespace dtrace::etw::zip_layout
