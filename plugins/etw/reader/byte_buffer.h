// byte_buffer.h: a reusable, uninitialized byte array with a memory budget.
//
// Each CPU lane keeps its current buffer's bytes; the arrays are reused from
// buffer to buffer and grow only to the largest buffer seen, so reading
// allocates nothing per buffer in the steady state. Growth is charged to a
// budget shared by all lanes: sizes come from the file, and a hostile file
// with many CPUs and large compressed buffers must not be able to make the
// reader hold more than the caller allowed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

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
    uint64_t used() const { return used_; }

  private:
    uint64_t limit_;
    uint64_t used_ = 0;
};

class ByteBuffer {
  public:
    ByteBuffer() = default;
    ByteBuffer(const ByteBuffer &) = delete;
    ByteBuffer &operator=(const ByteBuffer &) = delete;
    ByteBuffer(ByteBuffer &&) = default;
    ByteBuffer &operator=(ByteBuffer &&) = default;

    // Makes room for size bytes (contents are not kept); false if the budget
    // does not allow it.
    bool reserve(size_t size, MemoryBudget &budget) {
        if (size <= capacity_) {
            return true;
        }
        if (!budget.charge(size - capacity_)) {
            return false;
        }
        bytes_ = std::make_unique_for_overwrite<uint8_t[]>(size);
        capacity_ = size;
        return true;
    }
    void give_back(MemoryBudget &budget) {
        budget.release(capacity_);
        bytes_.reset();
        capacity_ = 0;
    }
    uint8_t *data() { return bytes_.get(); }
    const uint8_t *data() const { return bytes_.get(); }
    std::span<uint8_t> first(size_t n) { return {bytes_.get(), n}; }
    std::span<const uint8_t> first(size_t n) const { return {bytes_.get(), n}; }

  private:
    std::unique_ptr<uint8_t[]> bytes_;
    size_t capacity_ = 0;
};

} // namespace dtrace::etw
