// buffer_encoder.h: ETL buffers around records that are already encoded.
//
// A buffer is a 0x48-byte header, records padded to 8 bytes, and 0xFF fill
// up to the buffer's size on disk (reader/buffer_header.h has the layout).
#pragma once

#include <cstdint>
#include <span>

#include "reader/buffer_header.h"
#include "writer/byte_writer.h"

namespace dtrace::etw::writer {

// The header fields a writer chooses; the sizes and offsets follow from the data.
struct BufferFields {
    uint16_t cpu = 0;
    int64_t sequence = 0;
    int64_t timestamp = 0; // flush time, in the trace's clock
    uint16_t flags = buffer_flag::kProcessorIndex;
    uint16_t type = buffer_type::kGeneric;
};

// Writes the header of the buffer laid out in `out` (header space first;
// out.size() is its size on disk) whose records end at `records_end`.
void put_buffer_header(Bytes &out, uint32_t records_end, const BufferFields &fields);

// A buffer of `size` bytes holding `records` (each already padded to 8 bytes).
Bytes plain_buffer(std::span<const uint8_t> records, uint32_t size, const BufferFields &fields);

} // namespace dtrace::etw::writer
