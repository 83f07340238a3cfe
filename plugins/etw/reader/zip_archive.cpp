// zip_archive.cpp: finding an archive's members through its central directory (see zip_archive.h).
#include "reader/zip_archive.h"

#include <algorithm>
#include <cctype>

#include "reader/le_bytes.h"
#include "reader/problem_log.h"
#include "reader/zip_layout.h"

namespace dtrace::etw {

namespace {

using namespace zip_layout;

// A central directory larger than this is not a trace archive.
constexpr uint64_t kMaxDirectorySize = 16u << 20;

// Locates the end of central directory record by its signature, scanning back
// over a possible archive comment.
bool find_end_record(ByteSource &source, uint64_t &at, std::vector<uint8_t> &tail) {
    uint64_t size = source.size();
    if (size < end_record::kSize) {
        return false;
    }
    uint64_t window = std::min<uint64_t>(size, end_record::kSize + end_record::kMaxComment);
    tail.resize(window);
    if (!source.read_at(size - window, tail)) {
        return false;
    }
    for (size_t i = window - end_record::kSize + 1; i-- > 0;) {
        if (load_u32(tail.data() + i) == end_record::kSignature) {
            at = size - window + i;
            tail.erase(tail.begin(), tail.begin() + static_cast<std::ptrdiff_t>(i));
            return true;
        }
    }
    return false;
}

// Replaces 32-bit size/offset fields that are 0xFFFFFFFF by their ZIP64 values.
void apply_zip64_extra(std::span<const uint8_t> extra, ZipMember &m, bool usize64, bool csize64, bool offset64) {
    size_t at = 0;
    while (extra.size() - at >= zip64_extra::kFieldHeader) {
        uint16_t id = load_u16(extra.data() + at);
        uint16_t size = load_u16(extra.data() + at + 2);
        size_t data = at + zip64_extra::kFieldHeader;
        if (size > extra.size() - data) {
            return;
        }
        if (id == zip64_extra::kId) {
            size_t field = data;
            size_t end = data + size;
            auto next = [&](uint64_t &value, bool wanted) {
                if (wanted && end - field >= sizeof(uint64_t)) {
                    value = load_u64(extra.data() + field);
                    field += sizeof(uint64_t);
                }
            };
            next(m.uncompressed_size, usize64);
            next(m.compressed_size, csize64);
            next(m.local_header_offset, offset64);
            return;
        }
        at = data + size;
    }
}

} // namespace

Error zip_error(const std::string &archive, const std::string &what) {
    return Error{archive + ": " + what};
}

bool looks_like_zip(ByteSource &source) {
    uint8_t magic[4];
    return source.read_at(0, magic) && load_u32(magic) == local_header::kSignature;
}

Result<std::vector<ZipMember>> read_zip_directory(ByteSource &source, const std::string &archive) {
    uint64_t end_at = 0;
    std::vector<uint8_t> tail;
    if (!find_end_record(source, end_at, tail)) {
        return zip_error(archive, "no ZIP end of central directory record (truncated archive?)");
    }
    uint64_t entries = load_u16(tail.data() + end_record::kTotalEntries);
    uint64_t dir_size = load_u32(tail.data() + end_record::kDirectorySize);
    uint64_t dir_at = load_u32(tail.data() + end_record::kDirectoryOffset);
    if (entries == kZip64Marker16 || dir_size == kZip64Marker32 || dir_at == kZip64Marker32) {
        uint8_t locator[zip64_locator::kSize];
        uint8_t record[zip64_end_record::kSize];
        if (end_at < zip64_locator::kSize || !source.read_at(end_at - zip64_locator::kSize, locator) ||
            load_u32(locator) != zip64_locator::kSignature) {
            return zip_error(archive, "no ZIP64 end of central directory locator before offset " + hex_offset(end_at));
        }
        uint64_t record_at = load_u64(locator + zip64_locator::kEndRecordOffset);
        if (!source.read_at(record_at, record) || load_u32(record) != zip64_end_record::kSignature) {
            return zip_error(archive, "no ZIP64 end of central directory record at offset " + hex_offset(record_at));
        }
        entries = load_u64(record + zip64_end_record::kTotalEntries);
        dir_size = load_u64(record + zip64_end_record::kDirectorySize);
        dir_at = load_u64(record + zip64_end_record::kDirectoryOffset);
    }
    if (dir_size > kMaxDirectorySize || dir_at > source.size() || dir_size > source.size() - dir_at) {
        return zip_error(archive, "central directory at offset " + hex_offset(dir_at) + " (" +
                                      std::to_string(dir_size) + " bytes) lies outside the archive");
    }
    std::vector<uint8_t> dir(static_cast<size_t>(dir_size));
    if (!source.read_at(dir_at, dir)) {
        return zip_error(archive, "cannot read the central directory at offset " + hex_offset(dir_at));
    }
    std::vector<ZipMember> members;
    size_t at = 0;
    for (uint64_t i = 0; i < entries; ++i) {
        namespace C = central_header;
        if (dir.size() - at < C::kSize || load_u32(dir.data() + at) != C::kSignature) {
            return zip_error(archive, "bad central directory entry at offset " + hex_offset(dir_at + at));
        }
        const uint8_t *h = dir.data() + at;
        size_t name_len = load_u16(h + C::kNameLength);
        size_t extra_len = load_u16(h + C::kExtraLength);
        size_t comment_len = load_u16(h + C::kCommentLength);
        if (dir.size() - at - C::kSize < name_len + extra_len + comment_len) {
            return zip_error(archive,
                             "central directory entry at offset " + hex_offset(dir_at + at) + " runs past its end");
        }
        ZipMember m;
        m.flags = load_u16(h + C::kFlags);
        m.method = load_u16(h + C::kMethod);
        m.crc32 = load_u32(h + C::kCrc32);
        m.compressed_size = load_u32(h + C::kCompressedSize);
        m.uncompressed_size = load_u32(h + C::kUncompressedSize);
        m.local_header_offset = load_u32(h + C::kLocalHeaderOffset);
        m.name.assign(reinterpret_cast<const char *>(h + C::kSize), name_len);
        apply_zip64_extra(std::span(h + C::kSize + name_len, extra_len), m, m.uncompressed_size == kZip64Marker32,
                          m.compressed_size == kZip64Marker32, m.local_header_offset == kZip64Marker32);
        members.push_back(std::move(m));
        at += C::kSize + name_len + extra_len + comment_len;
    }
    return members;
}

bool member_has_suffix(const ZipMember &member, std::string_view suffix) {
    return member.name.size() >= suffix.size() &&
           std::equal(suffix.begin(), suffix.end(), member.name.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

const ZipMember *find_member_with_suffix(const std::vector<ZipMember> &members, std::string_view suffix) {
    for (const ZipMember &m : members) {
        if (member_has_suffix(m, suffix)) {
            return &m;
        }
    }
    return nullptr;
}

const ZipMember *find_etl_member(const std::vector<ZipMember> &members) {
    return find_member_with_suffix(members, ".etl");
}

std::string archive_member_name(const std::string &archive, const ZipMember &member) {
    return archive + '!' + member.name;
}

Result<std::unique_ptr<ByteSource>> open_maybe_archived(std::unique_ptr<ByteSource> source, const std::string &name,
                                                        std::string_view suffix, uint64_t max_extracted_size,
                                                        std::string &display_name) {
    display_name = name;
    if (looks_like_zip(*source)) {
        Result<std::vector<ZipMember>> members = read_zip_directory(*source, name);
        if (!members) {
            return Error{members.error()};
        }
        const ZipMember *member = find_member_with_suffix(members.value(), suffix);
        if (member == nullptr) {
            return Error{name + ": the archive holds no " + std::string(suffix) + " file"};
        }
        Result<std::unique_ptr<ByteSource>> extracted = extract_zip_member(*source, *member, name, max_extracted_size);
        if (!extracted) {
            return Error{extracted.error()};
        }
        source = std::move(extracted.value());
        display_name = archive_member_name(name, *member);
    }
    if (source->size() == 0) {
        return Error{display_name + ": the file is empty"};
    }
    return source;
}

} // namespace dtrace::etw
