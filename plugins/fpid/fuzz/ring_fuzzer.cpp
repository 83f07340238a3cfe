// ring_fuzzer.cpp: libFuzzer target over the ring reader (ring_reader.h),
// which reads memory the traced process writes: any bytes, tail and head
// give hits inside the ring or none, never a read out of bounds.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ring_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 16 + 8)
        return 0;
    uint64_t tail, head;
    std::memcpy(&tail, data, 8);
    std::memcpy(&head, data + 8, 8);
    // The ring: the rest, cut to a power of two (as rings are), 8-byte aligned as in shared memory.
    size_t ring_bytes = 8;
    while (ring_bytes * 2 <= size - 16)
        ring_bytes *= 2;
    std::vector<uint64_t> ring((ring_bytes + 7) / 8);
    std::memcpy(ring.data(), data + 16, ring_bytes);
    std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t *>(ring.data()), ring_bytes);
    std::vector<dtrace::fpid::Hit> hits;
    (void)dtrace::fpid::read_records(bytes, tail % (4 * ring_bytes), head % (8 * ring_bytes), 16, 1, hits);
    uint64_t sum = 0;
    for (const dtrace::fpid::Hit &hit : hits) {
        for (uint32_t i = 0; i < hit.nframes; i++)
            sum += hit.frames[i];
        if (hit.args)
            sum += hit.args[5];
    }
    volatile uint64_t sink = sum; // every hit's frames and arguments were read
    (void)sink;
    return 0;
}
