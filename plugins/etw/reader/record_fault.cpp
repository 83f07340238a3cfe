// record_fault.cpp: messages for record faults (see record_fault.h).
#include "reader/record_fault.h"

namespace dtrace::etw {

std::string_view describe(RecordFault fault) {
    switch (fault) {
    case RecordFault::None:
        return "no fault";
    case RecordFault::UnknownHeader:
        return "unknown record header";
    case RecordFault::SizeTooSmall:
        return "record size is smaller than its header";
    case RecordFault::SizePastEnd:
        return "record runs past the end of the buffer's data";
    case RecordFault::ExtrasPastEnd:
        return "PMC counters or PEBS index run past the end of the record";
    case RecordFault::BadExtendedItem:
        return "malformed extended data item";
    case RecordFault::MessageFieldsPastEnd:
        return "message fields run past the end of the record";
    }
    return "unknown fault";
}

} // namespace dtrace::etw
