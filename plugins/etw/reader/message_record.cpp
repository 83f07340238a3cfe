// message_record.cpp: WPP message records (see message_record.h).
#include "reader/message_record.h"

#include "reader/le_bytes.h"

namespace dtrace::etw {

MessageFields message_fields(uint16_t option_flags) {
    namespace L = message_layout;
    MessageFields f;
    if (option_flags & message_option::kSequence) {
        f.sequence = f.end;
        f.end += L::kSequenceSize;
    }
    if (option_flags & message_option::kGuid) {
        f.guid = f.end;
        f.end += Guid::kSize;
    } else if (option_flags & message_option::kComponentId) {
        f.component_id = f.end;
        f.end += L::kComponentIdSize;
    }
    if (option_flags & message_option::kTimestamp) {
        f.timestamp = f.end;
        f.end += L::kTimestampSize;
    }
    if (option_flags & message_option::kSystemInfo) {
        f.system_info = f.end;
        f.end += L::kSystemInfoSize;
    }
    return f;
}

RecordFault parse_message_record(std::span<const uint8_t> record, uint8_t default_pointer_size, Event &out) {
    namespace L = message_layout;
    const uint8_t *p = record.data();
    uint16_t options = load_u16(p + L::kOptionFlags);
    MessageFields f = message_fields(options);
    if (record.size() < f.end) {
        return RecordFault::MessageFieldsPastEnd;
    }
    out.id = load_u16(p + L::kMessageNumber);
    out.message_flags = options;
    if (f.sequence) {
        out.sequence = load_u32(p + f.sequence);
    }
    if (f.guid) {
        out.provider = Guid::from_bytes(p + f.guid);
    }
    if (f.component_id) {
        out.component_id = load_u32(p + f.component_id);
    }
    if (f.system_info) {
        out.tid = load_u32(p + f.system_info);
        out.pid = load_u32(p + f.system_info + sizeof(uint32_t));
    }
    out.pointer_size = (options & message_option::kPointer32)   ? 4
                       : (options & message_option::kPointer64) ? 8
                                                                : default_pointer_size;
    out.flags = event_flag::kTraceMessage | bitness_flag(out.pointer_size);
    out.payload = record.subspan(f.end);
    return RecordFault::None;
}

} // namespace dtrace::etw
