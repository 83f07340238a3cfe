// buffer.cpp: principal buffer writing and reading, under the three buffer
// policies (buffer_policy.h).
//
// A ring buffer keeps its records contiguous in an area three times its
// size: records are appended, the oldest ones dropped from the front while
// the records kept exceed the size, and the whole is moved down to the start
// once the end is near. Each byte is moved at most once per two sizes'
// worth of records written, and no record is ever split.
#include "engine/buffer.h"

#include <new>
#include <utility>

namespace dtrace::engine {

namespace {

constexpr size_t kRingAreaFactor = 3;
constexpr size_t kSmallestResize = 4096; // bufresize=auto halves down to this, then gives up

size_t record_size(const uint8_t *record) {
    uint32_t size = 0;
    std::memcpy(&size, record + offsetof(RecordHeader, size), sizeof size);
    return size;
}

} // namespace

void PrincipalBuffer::configure(const BufferConfig &config) {
    policy_ = config.policy;
    capacity_ = config.bytes;
    reserve_ = config.policy == BufferPolicy::Fill ? std::min(config.reserve, config.bytes) : 0;
    auto_resize_ = config.auto_resize;
    limit_ = policy_ == BufferPolicy::Ring ? capacity_ * kRingAreaFactor : capacity_ - reserve_;
    compact_at_ = policy_ == BufferPolicy::Ring ? capacity_ * (kRingAreaFactor - 1) : kNoCompaction;
    data_.reset();
    used_ = mark_ = head_ = read_ = 0;
    full_ = overflow_ = false;
}

void PrincipalBuffer::release_reserve() {
    if (policy_ == BufferPolicy::Fill)
        limit_ = capacity_;
}

// Takes the buffer's memory. With bufresize=auto a buffer that cannot be
// had is halved until it can (DTrace does the same when it allocates);
// with bufresize=manual, or below the smallest size, nothing is recorded
// and every record counts as a drop.
void PrincipalBuffer::allocate() {
    const size_t physical = policy_ == BufferPolicy::Ring ? capacity_ * kRingAreaFactor : capacity_;
    try {
        data_.reset(new uint8_t[physical]); // not zero-filled: pages are taken as records reach them
        return;
    } catch (const std::bad_alloc &) {
    }
    if (auto_resize_ && capacity_ / 2 >= kSmallestResize) {
        BufferConfig smaller{capacity_ / 2, policy_, reserve_, true};
        configure(smaller);
        allocate();
        return;
    }
    limit_ = 0;
}

void PrincipalBuffer::prepare_write() {
    if (!data_ && limit_ != 0)
        allocate();
    if (used_ > compact_at_)
        compact();
}

void PrincipalBuffer::compact() {
    std::memmove(data_.get(), data_.get() + head_, used_ - head_);
    used_ -= head_;
    head_ = 0;
}

// A record that did not fit: a drop, except in a fill buffer, which is now
// full (DTrace counts no drop there: the session ends instead).
void PrincipalBuffer::overflowed() {
    if (policy_ != BufferPolicy::Fill) {
        drops_++;
        return;
    }
    full_ = true;
    if (limit_ != capacity_)
        limit_ = 0; // until END releases the reserve
}

void PrincipalBuffer::evict_oldest() {
    while (used_ - head_ > capacity_)
        head_ += record_size(data_.get() + head_);
}

void PrincipalBuffer::begin(uint32_t epid, uint64_t timestamp, uint64_t sequence) {
    prepare_write();
    mark_ = used_;
    overflow_ = false;
    if (!fits(sizeof(RecordHeader))) {
        overflow_ = true;
        return;
    }
    RecordHeader h{epid, 0, timestamp, sequence};
    std::memcpy(data_.get() + used_, &h, sizeof h);
    used_ += sizeof h;
}

void PrincipalBuffer::put_integer(uint64_t value) {
    if (!fits(sizeof value)) {
        overflow_ = true;
        return;
    }
    std::memcpy(data_.get() + used_, &value, sizeof value);
    used_ += sizeof value;
}

void PrincipalBuffer::put_bytes(const void *bytes, uint32_t length) {
    size_t total = align_up(sizeof(uint32_t) + length);
    if (!fits(total)) {
        overflow_ = true;
        return;
    }
    uint8_t *p = data_.get() + used_;
    std::memcpy(p, &length, sizeof length);
    std::memcpy(p + sizeof length, bytes, length);
    std::memset(p + sizeof length + length, 0, total - sizeof length - length);
    used_ += total;
}

bool PrincipalBuffer::end() {
    if (overflow_) {
        used_ = mark_;
        overflowed();
        return false;
    }
    uint32_t size = static_cast<uint32_t>(used_ - mark_);
    std::memcpy(data_.get() + mark_ + offsetof(RecordHeader, size), &size, sizeof size);
    // Only a ring buffer ever holds more than its size: make room by
    // forgetting the oldest records (a record larger than the whole buffer
    // is a drop).
    if (used_ - head_ > capacity_) {
        if (size > capacity_) {
            used_ = mark_;
            drops_++;
            return false;
        }
        evict_oldest();
    }
    return true;
}

void PrincipalBuffer::append_records(const uint8_t *records, size_t length, uint64_t &sequence) {
    if (length == 0)
        return;
    prepare_write();
    overflow_ = false;
    if (!fits(length) || (policy_ == BufferPolicy::Ring && length > capacity_)) {
        overflowed();
        return;
    }
    uint8_t *start = data_.get() + used_;
    std::memcpy(start, records, length);
    for (size_t at = 0; at + sizeof(RecordHeader) <= length;) {
        uint64_t seq = sequence++;
        std::memcpy(start + at + offsetof(RecordHeader, sequence), &seq, sizeof seq);
        size_t size = record_size(start + at);
        if (size == 0)
            break; // cannot happen with our own writer; never loop forever
        at += size;
    }
    used_ += length;
    evict_oldest();
}

void PrincipalBuffer::swap(std::vector<uint8_t> &out, uint64_t &drops) {
    const size_t from = policy_ == BufferPolicy::Fill ? read_ : head_;
    out.assign(data_.get() + from, data_.get() + used_);
    if (policy_ == BufferPolicy::Fill)
        read_ = used_;
    else
        used_ = mark_ = head_ = 0;
    drops = drops_;
    drops_ = 0;
}

uint64_t PrincipalBuffer::clear() {
    used_ = mark_ = head_ = read_ = 0;
    return std::exchange(drops_, 0);
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
