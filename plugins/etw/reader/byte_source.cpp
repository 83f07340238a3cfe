// byte_source.cpp: file and memory byte sources (see byte_source.h).
#include "reader/byte_source.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dtrace::etw {

namespace {

class FdSource final : public ByteSource {
  public:
    FdSource(int fd, uint64_t size) : fd_(fd), size_(size) {}
    ~FdSource() override { ::close(fd_); }
    FdSource(const FdSource &) = delete;
    FdSource &operator=(const FdSource &) = delete;

    uint64_t size() const override { return size_; }

    bool read_at(uint64_t offset, std::span<uint8_t> out) override {
        if (offset > size_ || out.size() > size_ - offset) {
            return false;
        }
        size_t done = 0;
        while (done < out.size()) {
            ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                return false;
            }
            done += static_cast<size_t>(n);
        }
        return true;
    }

  private:
    int fd_;
    uint64_t size_;
};

class MemorySource final : public ByteSource {
  public:
    explicit MemorySource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}

    uint64_t size() const override { return bytes_.size(); }

    bool read_at(uint64_t offset, std::span<uint8_t> out) override {
        if (offset > bytes_.size() || out.size() > bytes_.size() - offset) {
            return false;
        }
        if (out.empty()) {
            return true; // an empty span may have no storage at all
        }
        std::memcpy(out.data(), bytes_.data() + offset, out.size());
        return true;
    }

  private:
    std::vector<uint8_t> bytes_;
};

} // namespace

Result<std::unique_ptr<ByteSource>> open_file_source(const std::string &path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return Error{path + ": " + std::strerror(errno)};
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        std::string why = std::strerror(errno);
        ::close(fd);
        return Error{path + ": " + why};
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{path + ": not a regular file"};
    }
    return std::unique_ptr<ByteSource>(std::make_unique<FdSource>(fd, static_cast<uint64_t>(st.st_size)));
}

std::unique_ptr<ByteSource> make_fd_source(int fd, uint64_t size) {
    return std::make_unique<FdSource>(fd, size);
}

std::unique_ptr<ByteSource> make_memory_source(std::vector<uint8_t> bytes) {
    return std::make_unique<MemorySource>(std::move(bytes));
}

} // namespace dtrace::etw
