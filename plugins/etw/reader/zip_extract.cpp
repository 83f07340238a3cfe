// zip_extract.cpp: inflating an archive member into an unlinked temporary
// file (see zip_archive.h).
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <zlib.h>

#include "reader/le_bytes.h"
#include "reader/problem_log.h"
#include "reader/zip_archive.h"
#include "reader/zip_layout.h"

namespace dtrace::etw {

namespace {

using namespace zip_layout;

constexpr size_t kChunk = 64 * 1024;
constexpr char kTempName[] = "/dtrace-etl-XXXXXX";

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
            return zip_error(archive_, why);
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

Result<std::unique_ptr<ByteSource>> extract_zip_member(ByteSource &source, const ZipMember &member,
                                                       const std::string &archive, uint64_t max_size) {
    if (member.flags & kFlagEncrypted) {
        return zip_error(archive, "member " + member.name + " is encrypted");
    }
    if (member.method != zip_method::kStored && member.method != zip_method::kDeflate) {
        return zip_error(archive, "member " + member.name + " uses compression method " +
                                      std::to_string(member.method) + " (only stored and deflate are supported)");
    }
    uint8_t local[local_header::kSize];
    if (!source.read_at(member.local_header_offset, local) || load_u32(local) != local_header::kSignature) {
        return zip_error(archive, "no local header for member " + member.name + " at offset " +
                                      hex_offset(member.local_header_offset));
    }
    uint64_t data_at = member.local_header_offset + local_header::kSize + load_u16(local + local_header::kNameLength) +
                       load_u16(local + local_header::kExtraLength);
    if (data_at > source.size() || member.compressed_size > source.size() - data_at) {
        return zip_error(archive, "member " + member.name + " at offset " + hex_offset(data_at) +
                                      " runs past the end of the archive (truncated?)");
    }
    TempFile temp;
    if (!temp.create()) {
        return zip_error(archive, "cannot create a temporary file for the extracted trace: " + temp.error());
    }
    Extraction extraction(source, member, archive, data_at, std::min(member.uncompressed_size, max_size), temp.fd());
    Result<uint64_t> written = extraction.run();
    if (!written) {
        return Error{written.error()};
    }
    if (written.value() != member.uncompressed_size) {
        return zip_error(archive, "member " + member.name + " extracts to " + std::to_string(written.value()) +
                                      " bytes, not the declared " + std::to_string(member.uncompressed_size));
    }
    if (extraction.crc() != member.crc32) {
        return zip_error(archive, "member " + member.name + " fails its CRC-32 check");
    }
    return make_fd_source(temp.release(), written.value());
}

} // namespace dtrace::etw
