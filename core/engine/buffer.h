// buffer.h: per-CPU principal buffers and the record format in them.
//
// Probe context writes records; the consumer reads them. Under the default
// "switch" policy each CPU has two buffers: probes fill the active one and
// the consumer swaps it with the inactive one at each switch (switchrate),
// then formats what it took. A record that does not fit is dropped whole and
// counted; the consumer reports the count as DTrace does.
//
// Record layout (all fields 8-byte aligned):
//   RecordHeader { epid, size (bytes, header included), timestamp, sequence }
//   then one field per recorded value, in action order:
//     integer: 8 bytes (the value, sign- or zero-extended from its type)
//     string:  uint32 length, then the bytes (no NUL), padded to 8
//     bytes:   uint32 length, then the bytes, padded to 8
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace dtrace::engine {

struct RecordHeader {
    uint32_t epid;
    uint32_t size;
    uint64_t timestamp;
    uint64_t sequence; // order of the firing across all CPUs (the consumer prints in this order)
};
static_assert(sizeof(RecordHeader) == 24);

constexpr size_t kRecordAlign = 8;
constexpr size_t align_up(size_t n) {
    return (n + kRecordAlign - 1) & ~(kRecordAlign - 1);
}

class PrincipalBuffer {
  public:
    void set_capacity(size_t bytes);
    size_t capacity() const { return capacity_; }
    size_t used() const { return used_; }

    // Writing one record. begin() reserves the header; put_*() append fields;
    // end() finishes it (false: it did not fit and was dropped); abandon()
    // forgets it (the clause faulted).
    void begin(uint32_t epid, uint64_t timestamp, uint64_t sequence);
    void put_integer(uint64_t value);
    void put_bytes(const void *data, uint32_t length);
    bool end();
    void abandon() { used_ = mark_; }

    // Consumer side: hands over what was written since the last swap and the
    // drops counted since then; the buffer starts empty again.
    void swap(std::vector<uint8_t> &out, uint64_t &drops);

  private:
    bool fits(size_t more) const { return !overflow_ && used_ + more <= capacity_; }
    std::vector<uint8_t> data_;
    size_t capacity_ = 0;
    size_t used_ = 0;
    size_t mark_ = 0;
    bool overflow_ = false;
    uint64_t drops_ = 0;
};

// Reads the fields of one record back.
class RecordReader {
  public:
    RecordReader(const uint8_t *fields, size_t length) : p_(fields), end_(fields + length) {}
    bool integer(uint64_t &out);
    bool bytes(std::string_view &out);

  private:
    const uint8_t *p_;
    const uint8_t *end_;
};

} // namespace dtrace::engine
