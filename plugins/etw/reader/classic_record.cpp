// classic_record.cpp: classic and instance records (see classic_record.h).
#include "reader/classic_record.h"

#include "reader/le_bytes.h"

namespace dtrace::etw {

RecordFault parse_classic_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out) {
    namespace L = classic_layout;
    const uint8_t *p = record.data();
    out.opcode = p[L::kClassType];
    out.level = p[L::kClassLevel];
    out.version = static_cast<uint8_t>(load_u16(p + L::kClassVersion));
    out.tid = load_u32(p + L::kThreadId);
    out.pid = load_u32(p + L::kProcessId);
    out.provider = Guid::from_bytes(p + L::kGuid);
    out.kernel_time = load_u32(p + L::kKernelTime);
    out.user_time = load_u32(p + L::kUserTime);
    out.flags = event_flag::kClassicHeader | bitness_flag(shape.pointer_size);
    if (shape.kind == RecordKind::Instance) {
        out.instance_id = load_u32(p + instance_layout::kInstanceId);
        out.parent_instance_id = load_u32(p + instance_layout::kParentInstanceId);
        out.parent_guid = Guid::from_bytes(p + instance_layout::kParentGuid);
    }
    out.payload = record.subspan(shape.header_size);
    return RecordFault::None;
}

} // namespace dtrace::etw
