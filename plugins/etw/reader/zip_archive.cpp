// zip_archive.cpp: ZIP central directory and member extraction (see zip_archive.h).
#include "reader/zip_archive.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <zlib.h>

#include "reader/le_bytes.h"
#include "reader/problem_log.h"
#include "reader/zip_layout.h"

namespace dtrace::etw {

namespace {

using namespace zip_layout;

// A central directory larger than this is not a trace archive.
constexpr uint64_t kMaxDirectorySize = 16u << 20;
constexpr size_t kChunk = 64 * 1024;
constexpr char kTempName[] = "/dtrace-etl-XXXXXX";

Error fail(const std::string &archive, const std::string &what) {
    return Error{archive + ": " + what};
}

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

bool write_all(int fd, const uint8_t *data, size_t size) {
    while (size > 0) {
        ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

// An unlinked temporary file; closed on destruction unless released.
class TempFile {
  public:
    ~TempFile() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    bool create() {
        const char *dir = std::getenv("TMPDIR");
        std::string path = std::string(dir && *dir ? dir : "/tmp") + kTempName;
        fd_ = ::mkstemp(path.data());
        if (fd_ < 0) {
            error_ = path + ": " + std::strerror(errno);
            return false;
        }
        ::unlink(path.c_str());
        return true;
    }
    int fd() const { return fd_; }
    int release() {
        int fd = fd_;
        fd_ = -1;
        return fd;
    }
    const std::string &error() const { return error_; }

  private:
    int fd_ = -1;
    std::string error_;
};

// Streams a member's data into the temporary file, copying (stored) or
// inflating (deflate), and keeps the CRC-32 and size of what it wrote.
class Extraction {
  public:
    Extraction(ByteSource &source, const ZipMember &member, const std::string &archive, uint64_t data_at,
               uint64_t limit, int fd)
        : source_(source), member_(member), archive_(archive), data_at_(data_at), limit_(limit), fd_(fd) {}

    // The number of bytes written, or why extraction failed.
    Result<uint64_t> run() {
        std::string why = member_.method == zip_method::kStored ? copy() : inflate_all();
        if (!why.empty()) {
            return fail(archive_, why);
        }
        return written_;
    }
    uint32_t crc() const { return static_cast<uint32_t>(crc_); }

  private:
    std::string where(uint64_t input_pos) const {
        return "member " + member_.name + " near archive offset " + hex_offset(data_at_ + input_pos);
    }

    std::string emit(const uint8_t *data, size_t size) {
        if (size > limit_ - written_) {
            return "member " + member_.name + " extracts to more than " + std::to_string(limit_) +
                   " bytes (its declared size or the extraction limit)";
        }
        if (!write_all(fd_, data, size)) {
            return std::string("cannot write the extracted trace: ") + std::strerror(errno);
        }
        crc_ = ::crc32(crc_, data, static_cast<uInt>(size));
        written_ += size;
        return {};
    }

    std::string copy() {
        std::vector<uint8_t> chunk(kChunk);
        for (uint64_t pos = 0; pos < member_.compressed_size;) {
            size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, member_.compressed_size - pos));
            if (!source_.read_at(data_at_ + pos, std::span(chunk.data(), n))) {
                return "cannot read " + where(pos);
            }
            if (std::string why = emit(chunk.data(), n); !why.empty()) {
                return why;
            }
            pos += n;
        }
        return {};
    }

    std::string inflate_all() {
        z_stream z{};
        if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
            return "zlib cannot start inflating";
        }
        std::vector<uint8_t> in(kChunk);
        std::vector<uint8_t> out(kChunk);
        uint64_t pos = 0;
        std::string why;
        // Each round consumes input, produces output or stops: zlib reports
        // Z_BUF_ERROR when it can make no progress.
        for (;;) {
            if (z.avail_in == 0 && pos < member_.compressed_size) {
                size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, member_.compressed_size - pos));
                if (!source_.read_at(data_at_ + pos, std::span(in.data(), n))) {
                    why = "cannot read " + where(pos);
                    break;
                }
                pos += n;
                z.next_in = in.data();
                z.avail_in = static_cast<uInt>(n);
            }
            z.next_out = out.data();
            z.avail_out = static_cast<uInt>(out.size());
            int status = inflate(&z, Z_NO_FLUSH);
            if (status == Z_BUF_ERROR && z.avail_in == 0 && pos == member_.compressed_size) {
                why = "deflate data of " + where(pos) + " ends early";
                break;
            }
            if (status != Z_OK && status != Z_STREAM_END) {
                why = "deflate data of " + where(pos - z.avail_in) + " is corrupt (" +
                      (z.msg ? z.msg : "zlib error " + std::to_string(status)) + ")";
                break;
            }
            if (why = emit(out.data(), out.size() - z.avail_out); !why.empty() || status == Z_STREAM_END) {
                break;
            }
        }
        inflateEnd(&z);
        return why;
    }

    ByteSource &source_;
    const ZipMember &member_;
    const std::string &archive_;
    uint64_t data_at_;
    uint64_t limit_;
    int fd_;
    uint64_t written_ = 0;
    uLong crc_ = ::crc32(0, nullptr, 0);
};

} // namespace

bool looks_like_zip(ByteSource &source) {
    uint8_t magic[4];
    return source.read_at(0, magic) && load_u32(magic) == local_header::kSignature;
}

Result<std::vector<ZipMember>> read_zip_directory(ByteSource &source, const std::string &archive) {
    uint64_t end_at = 0;
    std::vector<uint8_t> tail;
    if (!find_end_record(source, end_at, tail)) {
        return fail(archive, "no ZIP end of central directory record (truncated archive?)");
    }
    uint64_t entries = load_u16(tail.data() + end_record::kTotalEntries);
    uint64_t dir_size = load_u32(tail.data() + end_record::kDirectorySize);
    uint64_t dir_at = load_u32(tail.data() + end_record::kDirectoryOffset);
    if (entries == kZip64Marker16 || dir_size == kZip64Marker32 || dir_at == kZip64Marker32) {
        uint8_t locator[zip64_locator::kSize];
        uint8_t record[zip64_end_record::kSize];
        if (end_at < zip64_locator::kSize || !source.read_at(end_at - zip64_locator::kSize, locator) ||
            load_u32(locator) != zip64_locator::kSignature) {
            return fail(archive, "no ZIP64 end of central directory locator before offset " + hex_offset(end_at));
        }
        uint64_t record_at = load_u64(locator + zip64_locator::kEndRecordOffset);
        if (!source.read_at(record_at, record) || load_u32(record) != zip64_end_record::kSignature) {
            return fail(archive, "no ZIP64 end of central directory record at offset " + hex_offset(record_at));
        }
        entries = load_u64(record + zip64_end_record::kTotalEntries);
        dir_size = load_u64(record + zip64_end_record::kDirectorySize);
        dir_at = load_u64(record + zip64_end_record::kDirectoryOffset);
    }
    if (dir_size > kMaxDirectorySize || dir_at > source.size() || dir_size > source.size() - dir_at) {
        return fail(archive, "central directory at offset " + hex_offset(dir_at) + " (" + std::to_string(dir_size) +
                                 " bytes) lies outside the archive");
    }
    std::vector<uint8_t> dir(static_cast<size_t>(dir_size));
    if (!source.read_at(dir_at, dir)) {
        return fail(archive, "cannot read the central directory at offset " + hex_offset(dir_at));
    }
    std::vector<ZipMember> members;
    size_t at = 0;
    for (uint64_t i = 0; i < entries; ++i) {
        namespace C = central_header;
        if (dir.size() - at < C::kSize || load_u32(dir.data() + at) != C::kSignature) {
            return fail(archive, "bad central directory entry at offset " + hex_offset(dir_at + at));
        }
        const uint8_t *h = dir.data() + at;
        size_t name_len = load_u16(h + C::kNameLength);
        size_t extra_len = load_u16(h + C::kExtraLength);
        size_t comment_len = load_u16(h + C::kCommentLength);
        if (dir.size() - at - C::kSize < name_len + extra_len + comment_len) {
            return fail(archive, "central directory entry at offset " + hex_offset(dir_at + at) + " runs past its end");
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

const ZipMember *find_etl_member(const std::vector<ZipMember> &members) {
    static constexpr std::string_view kSuffix = ".etl";
    for (const ZipMember &m : members) {
        if (m.name.size() >= kSuffix.size() &&
            std::equal(kSuffix.begin(), kSuffix.end(), m.name.end() - static_cast<std::ptrdiff_t>(kSuffix.size()),
                       [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); })) {
            return &m;
        }
    }
    return nullptr;
}

Result<std::unique_ptr<ByteSource>> extract_zip_member(ByteSource &source, const ZipMember &member,
                                                       const std::string &archive, uint64_t max_size) {
    if (member.flags & kFlagEncrypted) {
        return fail(archive, "member " + member.name + " is encrypted");
    }
    if (member.method != zip_method::kStored && member.method != zip_method::kDeflate) {
        return fail(archive, "member " + member.name + " uses compression method " + std::to_string(member.method) +
                                 " (only stored and deflate are supported)");
    }
    uint8_t local[local_header::kSize];
    if (!source.read_at(member.local_header_offset, local) || load_u32(local) != local_header::kSignature) {
        return fail(archive, "no local header for member " + member.name + " at offset " +
                                 hex_offset(member.local_header_offset));
    }
    uint64_t data_at = member.local_header_offset + local_header::kSize + load_u16(local + local_header::kNameLength) +
                       load_u16(local + local_header::kExtraLength);
    if (data_at > source.size() || member.compressed_size > source.size() - data_at) {
        return fail(archive, "member " + member.name + " at offset " + hex_offset(data_at) +
                                 " runs past the end of the archive (truncated?)");
    }
    TempFile temp;
    if (!temp.create()) {
        return fail(archive, "cannot create a temporary file for the extracted trace: " + temp.error());
    }
    Extraction extraction(source, member, archive, data_at, std::min(member.uncompressed_size, max_size), temp.fd());
    Result<uint64_t> written = extraction.run();
    if (!written) {
        return Error{written.error()};
    }
    if (written.value() != member.uncompressed_size) {
        return fail(archive, "member " + member.name + " extracts to " + std::to_string(written.value()) +
                                 " bytes, not the declared " + std::to_string(member.uncompressed_size));
    }
    if (extraction.crc() != member.crc32) {
        return fail(archive, "member " + member.name + " fails its CRC-32 check");
    }
    return make_fd_source(temp.release(), written.value());
}

} // namespace dtrace::etw
