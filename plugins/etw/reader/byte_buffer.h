// byte_buffer.h: a reusable, uninitialized byte array with a memory budget.
//
// Each CPU lane keeps its current buffer's bytes; the arrays are reused from
// buffer to buffer and grow only to the largest buffer seen, so reading
// allocates nothing per buffer in the steady state. Growth is charged to a
// budget shared by all lanes: sizes come from the file, and a hostile file
// with many CPUs and large compressed buffers must not be able to make the
// reader hold more than the caller allowed. The bytes go back to the budget
// when the array is released or destroyed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

namespace dtrace::etw {

class MemoryBudget {
  public:
    explicit MemoryBudget(uint64_t limit) : limit_(limit) {}
    bool charge(uint64_t bytes) {
        if (bytes > limit_ - used_) {
            return false;
        }
        used_ += bytes;
        return true;
    }
    void release(uint64_t bytes) { used_ -= bytes; }

  private:
    uint64_t limit_;
    uint64_t used_ = 0;
};

class ByteBuffer {
  public:
    explicit ByteBuffer(MemoryBudget &budget) : budget_(&budget) {}
    ~ByteBuffer() { release(); }
    ByteBuffer(const ByteBuffer &) = delete;
    ByteBuffer &operator=(const ByteBuffer &) = delete;
    ByteBuffer(ByteBuffer &&other) noexcept
        : budget_(other.budget_), bytes_(std::move(other.bytes_)), capacity_(std::exchange(other.capacity_, 0)) {}
    ByteBuffer &operator=(ByteBuffer &&other) noexcept {
        if (this != &other) {
            release();
            budget_ = other.budget_;
            bytes_ = std::move(other.bytes_);
            capacity_ = std::exchange(other.capacity_, 0);
        }
        return *this;
    }

    // Makes room for size bytes (contents are not kept); false if the budget
    // does not allow it.
    bool reserve(size_t size) {
        if (size <= capacity_) {
            return true;
        }
        if (!budget_->charge(size - capacity_)) {
            return false;
        }
        bytes_ = std::make_unique_for_overwrite<uint8_t[]>(size);
        capacity_ = size;
        return true;
    }
    // Frees the bytes and gives them back to the budget.
    void release() {
        budget_->release(capacity_);
        bytes_.reset();
        capacity_ = 0;
    }
    uint8_t *data() { return bytes_.get(); }
    std::span<uint8_t> first(size_t n) { return {bytes_.get(), n}; }

  private:
    MemoryBudget *budget_;
    std::unique_ptr<uint8_t[]> bytes_;
    size_t capacity_ = 0;
};

} // namespace dtrace::etw
