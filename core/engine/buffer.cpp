// buffer.cpp: principal buffer writing and reading.
#include "engine/buffer.h"

namespace dtrace::engine {

void PrincipalBuffer::set_capacity(size_t bytes) {
    capacity_ = bytes;
    data_.clear(); // memory is taken at the first record: CPUs that never trace cost nothing
    used_ = mark_ = 0;
}

void PrincipalBuffer::begin(uint32_t epid, uint64_t timestamp, uint64_t sequence) {
    if (data_.size() != capacity_)
        data_.resize(capacity_);
    mark_ = used_;
    overflow_ = false;
    if (!fits(sizeof(RecordHeader))) {
        overflow_ = true;
        return;
    }
    RecordHeader h{epid, 0, timestamp, sequence};
    std::memcpy(data_.data() + used_, &h, sizeof h);
    used_ += sizeof h;
}

void PrincipalBuffer::put_integer(uint64_t value) {
    if (!fits(sizeof value)) {
        overflow_ = true;
        return;
    }
    std::memcpy(data_.data() + used_, &value, sizeof value);
    used_ += sizeof value;
}

void PrincipalBuffer::put_bytes(const void *bytes, uint32_t length) {
    size_t total = align_up(sizeof(uint32_t) + length);
    if (!fits(total)) {
        overflow_ = true;
        return;
    }
    uint8_t *p = data_.data() + used_;
    std::memcpy(p, &length, sizeof length);
    std::memcpy(p + sizeof length, bytes, length);
    std::memset(p + sizeof length + length, 0, total - sizeof length - length);
    used_ += total;
}

bool PrincipalBuffer::end() {
    if (overflow_) {
        used_ = mark_;
        drops_++;
        return false;
    }
    uint32_t size = static_cast<uint32_t>(used_ - mark_);
    std::memcpy(data_.data() + mark_ + offsetof(RecordHeader, size), &size, sizeof size);
    return true;
}

void PrincipalBuffer::swap(std::vector<uint8_t> &out, uint64_t &drops) {
    out.assign(data_.begin(), data_.begin() + static_cast<std::ptrdiff_t>(used_));
    used_ = mark_ = 0;
    drops = drops_;
    drops_ = 0;
}

bool RecordReader::integer(uint64_t &out) {
    if (end_ - p_ < static_cast<std::ptrdiff_t>(sizeof out))
        return false;
    std::memcpy(&out, p_, sizeof out);
    p_ += sizeof out;
    return true;
}

bool RecordReader::bytes(std::string_view &out) {
    uint32_t length = 0;
    if (end_ - p_ < static_cast<std::ptrdiff_t>(sizeof length))
        return false;
    std::memcpy(&length, p_, sizeof length);
    size_t total = align_up(sizeof length + length);
    if (end_ - p_ < static_cast<std::ptrdiff_t>(total))
        return false;
    out = std::string_view(reinterpret_cast<const char *>(p_ + sizeof length), length);
    p_ += total;
    return true;
}

} // namespace dtrace::engine
