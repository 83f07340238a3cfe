// buffer_header.h: WMI_BUFFER_HEADER, the 0x48 bytes in front of every buffer.
//
// An ETL file is nothing but a sequence of buffers (no magic, no index). Each
// buffer header gives the buffer's own size on disk (the next buffer starts
// right after it; relogged and compressed files have buffers of differing,
// even odd, sizes), the end of its valid data (Offset, not SavedOffset, which
// can be short of it), the CPU whose events it holds, and whether its body is
// XPRESS-compressed. Layout and flag values from ntwmi.h as recorded in
// etw-formats.md section 1.2.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dtrace::etw {

namespace buffer_layout {
inline constexpr size_t kSize = 0x48;
inline constexpr size_t kBufferSize = 0x00;
inline constexpr size_t kSavedOffset = 0x04;
inline constexpr size_t kCurrentOffset = 0x08;
inline constexpr size_t kTimeStamp = 0x10;
inline constexpr size_t kSequenceNumber = 0x18;
inline constexpr size_t kProcessorIndex = 0x28; // ETW_BUFFER_CONTEXT
inline constexpr size_t kLoggerId = 0x2A;
inline constexpr size_t kState = 0x2C;
inline constexpr size_t kOffset = 0x30;
inline constexpr size_t kBufferFlag = 0x34;
inline constexpr size_t kBufferType = 0x36;
} // namespace buffer_layout

namespace buffer_flag {
inline constexpr uint16_t kFlushMarker = 0x01;
inline constexpr uint16_t kEventsLost = 0x02;
inline constexpr uint16_t kBufferLost = 0x04;
inline constexpr uint16_t kProcessorIndex = 0x20; // the CPU field is a 16-bit index
inline constexpr uint16_t kCompressed = 0x40;
} // namespace buffer_flag

namespace buffer_type {
inline constexpr uint16_t kGeneric = 0;
inline constexpr uint16_t kHeader = 4;
} // namespace buffer_type

// Without kProcessorIndex (Windows 7) the CPU is the low byte of the context.
inline constexpr uint16_t kProcessorIndexMask = 0x07FF;
inline constexpr uint16_t kProcessorNumberMask = 0x00FF;
// ETW buffers are at most 16 MiB; a larger size field is damage.
inline constexpr uint32_t kMaxBufferSize = 16u << 20;

struct BufferHeader {
    uint32_t buffer_size = 0; // bytes on disk, header included
    uint32_t saved_offset = 0;
    uint32_t offset = 0;   // end of valid (uncompressed) data, header included
    int64_t timestamp = 0; // flush time, in the session clock
    int64_t sequence = 0;  // per-logger buffer sequence number
    uint16_t cpu = 0;
    uint16_t flags = 0;
    uint16_t type = 0;

    bool compressed() const { return (flags & buffer_flag::kCompressed) != 0; }
};

// Decodes the kSize bytes at p.
BufferHeader parse_buffer_header(const uint8_t *p);

} // namespace dtrace::etw
