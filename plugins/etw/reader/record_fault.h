// record_fault.h: why a record could not be read.
//
// A damaged record makes the rest of its buffer unreadable (records have no
// sync marks: the next one is found only through this one's size), so every
// fault ends the buffer. The fault is reported with the buffer's file offset
// and the record's offset inside the buffer.
#pragma once

#include <cstdint>
#include <string_view>

namespace dtrace::etw {

enum class RecordFault : uint8_t {
    None,
    UnknownHeader,        // the first dword is no known header marker
    SizeTooSmall,         // the size field is smaller than the fixed header
    SizePastEnd,          // the record runs past the end of the buffer's data
    ExtrasPastEnd,        // PMC counters / PEBS index run past the record
    BadExtendedItem,      // an extended data item is malformed
    MessageFieldsPastEnd, // WPP optional fields run past the record
};

std::string_view describe(RecordFault fault);

} // namespace dtrace::etw
