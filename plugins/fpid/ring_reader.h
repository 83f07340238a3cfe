// ring_reader.h: the records of one fpid ring, read as the untrusted memory
// it is (the traced process writes it, and could write anything).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace dtrace::fpid {

// A record as it is handed on (pointing into the ring: valid until the tail moves).
struct Hit {
    uint32_t hook;
    bool is_return;
    uint64_t tsc;      // 0: not recorded (no clause reads a time)
    uint64_t cpu_time; // the thread's CPU time, ns; 0: not recorded (no clause reads vtimestamp)
    int32_t tid;
    const uint64_t *args; // FPID_MAX_ARGS; null: not recorded (no clause reads them)
    const uint64_t *frames;
    uint32_t nframes;
};

// Appends the records of `ring` (its record bytes, a power of two long)
// between positions `tail` and `head` (bytes ever written) whose hook is
// below `nhooks` to `out`; returns the new tail. A head more than a ring
// ahead, or a record that would reach past the ring or the head, ends the
// reading there: the tail then moves to the head (what was between is lost,
// never misread); a position that is not a multiple of 8 likewise.
uint64_t read_records(std::span<const uint8_t> ring, uint64_t tail, uint64_t head, uint32_t nhooks, int32_t tid,
                      std::vector<Hit> &out);

} // namespace dtrace::fpid
