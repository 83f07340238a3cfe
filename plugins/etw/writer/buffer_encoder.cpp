// buffer_encoder.cpp: buffer headers and plain buffers (see buffer_encoder.h).
#include "writer/buffer_encoder.h"

namespace dtrace::etw::writer {

namespace {
constexpr uint32_t kFlushState = 3; // ETW_BUFFER_STATE: EtwBufferStateFlush
constexpr uint8_t kUnusedByte = 0xFF;
} // namespace

void put_buffer_header(Bytes &out, uint32_t records_end, const BufferFields &fields) {
    namespace B = buffer_layout;
    put_at(out, B::kBufferSize, static_cast<uint32_t>(out.size()));
    put_at(out, B::kSavedOffset, records_end);
    put_at(out, B::kCurrentOffset, records_end);
    put_at(out, B::kTimeStamp, fields.timestamp);
    put_at(out, B::kSequenceNumber, fields.sequence);
    put_at(out, B::kProcessorIndex, fields.cpu);
    put_at(out, B::kState, kFlushState);
    put_at(out, B::kOffset, records_end);
    put_at(out, B::kBufferFlag, fields.flags);
    put_at(out, B::kBufferType, fields.type);
}

Bytes plain_buffer(std::span<const uint8_t> records, uint32_t size, const BufferFields &fields) {
    Bytes out(buffer_layout::kSize, 0);
    append(out, records);
    const uint32_t records_end = static_cast<uint32_t>(out.size());
    out.resize(size, kUnusedByte);
    put_buffer_header(out, records_end, fields);
    return out;
}

} // namespace dtrace::etw::writer
