// buffer_header.cpp: decoding WMI_BUFFER_HEADER (see buffer_header.h).
#include "reader/buffer_header.h"

#include "reader/le_bytes.h"

namespace dtrace::etw {

BufferHeader parse_buffer_header(const uint8_t *p) {
    BufferHeader h;
    h.buffer_size = load_u32(p + buffer_layout::kBufferSize);
    h.saved_offset = load_u32(p + buffer_layout::kSavedOffset);
    h.offset = load_u32(p + buffer_layout::kOffset);
    h.timestamp = load_i64(p + buffer_layout::kTimeStamp);
    h.sequence = load_i64(p + buffer_layout::kSequenceNumber);
    h.flags = load_u16(p + buffer_layout::kBufferFlag);
    h.type = load_u16(p + buffer_layout::kBufferType);
    uint16_t context = load_u16(p + buffer_layout::kProcessorIndex);
    h.cpu =
        (h.flags & buffer_flag::kProcessorIndex) ? (context & kProcessorIndexMask) : (context & kProcessorNumberMask);
    return h;
}

} // namespace dtrace::etw
