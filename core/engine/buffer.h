// buffer.h: per-CPU principal buffers and the record format in them.
//
// Probe context writes records; the consumer reads them. Under the default
// "switch" policy each CPU has two buffers: probes fill the active one and
// the consumer swaps it with the inactive one at each switch (switchrate),
// then formats what it took. A record that does not fit is dropped whole and
// counted; the consumer reports the count as DTrace does. The "fill" and
// "ring" policies (buffer_policy.h) change what happens when a buffer is
// full; the same class also serves as a speculation's per-CPU buffer.
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
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/buffer_policy.h"

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

struct BufferConfig {
    size_t bytes = 0;
    BufferPolicy policy = BufferPolicy::Switch;
    size_t reserve = 0;      // fill: bytes kept back for END (release_reserve())
    bool auto_resize = true; // bufresize=auto: halve the size when memory cannot be had
};

class PrincipalBuffer {
  public:
    // Memory is taken at the first record: CPUs that never trace cost nothing.
    void configure(const BufferConfig &config);
    size_t capacity() const { return capacity_; }
    // Bytes written and not yet handed to the consumer.
    size_t used() const { return used_ - (policy_ == BufferPolicy::Ring ? head_ : read_); }
    // Three quarters full: a replay, which can outrun the consumer, waits
    // for a switch rather than drop records.
    bool drain_due() const { return used() * 4 >= capacity() * 3; }
    // A fill buffer that had no room for a record: it records nothing more
    // until END (release_reserve()).
    bool full() const { return full_; }
    // END is firing: a fill buffer may use the space kept back for it.
    void release_reserve();

    // Writing one record. begin() reserves the header; put_*() append fields;
    // end() finishes it (false: it did not fit and was dropped); abandon()
    // forgets it (the clause faulted).
    void begin(uint32_t epid, uint64_t timestamp, uint64_t sequence);
    void put_integer(uint64_t value);
    void put_bytes(const void *data, uint32_t length);
    bool end();
    void abandon() { used_ = mark_; }

    // Appends whole records (a committed speculation), renumbering their
    // sequence from `sequence`: all of them, or none and one drop.
    void append_records(const uint8_t *records, size_t length, uint64_t &sequence);

    // Consumer side: hands over what was written since the last swap and the
    // drops counted since then. A switch or ring buffer starts empty again;
    // a fill buffer keeps its records (only the consumer moves on).
    void swap(std::vector<uint8_t> &out, uint64_t &drops);
    // Forgets the records (a discarded speculation); returns the drops counted.
    uint64_t clear();
    bool empty() const { return used_ == head_; }

  private:
    static constexpr size_t kNoCompaction = std::numeric_limits<size_t>::max();
    bool fits(size_t more) const { return !overflow_ && used_ + more <= limit_; }
    void allocate();
    void compact();
    // Before a write: the memory taken on first use, a ring's records moved down.
    void prepare_write();
    void overflowed();
    void evict_oldest();
    std::unique_ptr<uint8_t[]> data_;
    BufferPolicy policy_ = BufferPolicy::Switch;
    size_t capacity_ = 0; // bytes of records the buffer holds
    size_t limit_ = 0;    // records end before this offset (fill: capacity less the END reserve)
    size_t reserve_ = 0;
    size_t head_ = 0;                   // ring: the oldest record kept
    size_t read_ = 0;                   // fill: what the consumer has taken
    size_t compact_at_ = kNoCompaction; // ring: move the records down once used_ passes this
    size_t used_ = 0;
    size_t mark_ = 0;
    bool overflow_ = false;
    bool full_ = false;
    bool auto_resize_ = true;
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
