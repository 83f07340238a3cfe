// stream_input.cpp: file and descriptor inputs (see stream_input.h).
#include "nettrace/stream_input.h"

#include <cerrno>
#include <unistd.h>

namespace dtrace::etw::nettrace {

namespace {

class SourceInput final : public StreamInput {
  public:
    explicit SourceInput(std::unique_ptr<ByteSource> source) : source_(std::move(source)) {}
    size_t read(std::span<uint8_t> out) override {
        const uint64_t left = offset_ < source_->size() ? source_->size() - offset_ : 0;
        const size_t n = static_cast<size_t>(std::min<uint64_t>(left, out.size()));
        if (n == 0 || !source_->read_at(offset_, out.first(n))) {
            return 0;
        }
        offset_ += n;
        return n;
    }

  private:
    std::unique_ptr<ByteSource> source_;
    uint64_t offset_ = 0;
};

class FdInput final : public StreamInput {
  public:
    explicit FdInput(int fd) : fd_(fd) {}
    ~FdInput() override { ::close(fd_); }
    // What one read() gives: a live stream's bytes as they come, so that
    // the reader never waits for more than the block it is reading.
    size_t read(std::span<uint8_t> out) override {
        for (;;) {
            const ssize_t n = ::read(fd_, out.data(), out.size());
            if (n < 0 && errno == EINTR) {
                continue;
            }
            return n > 0 ? static_cast<size_t>(n) : 0;
        }
    }

  private:
    int fd_;
};

} // namespace

std::unique_ptr<StreamInput> input_from_source(std::unique_ptr<ByteSource> source) {
    return std::make_unique<SourceInput>(std::move(source));
}

std::unique_ptr<StreamInput> input_from_fd(int fd) {
    return std::make_unique<FdInput>(fd);
}

} // namespace dtrace::etw::nettrace
