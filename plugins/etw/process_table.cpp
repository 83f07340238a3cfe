// process_table.cpp: Process events into the table of processes.
#include "process_table.h"

namespace dtrace::etw::plugin {

namespace {

constexpr uint8_t kStart = 1;
constexpr uint8_t kEnd = 2;
constexpr uint8_t kDcStart = 3;
constexpr uint8_t kDcEnd = 4;

bool describes_a_process(uint8_t opcode) {
    return opcode == kStart || opcode == kEnd || opcode == kDcStart || opcode == kDcEnd;
}

} // namespace

void ProcessTable::note(const Event &event) {
    const int klass = kernel::kernel_class_of(event);
    if (klass == static_cast<int>(kernel::KernelClass::Process) && describes_a_process(event.opcode) &&
        kernel::decode_mof(event, klass, record_)) {
        note(event, record_);
    }
}

void ProcessTable::note(const Event &event, const kernel::MofRecord &record) {
    if (!describes_a_process(event.opcode) || !record.has("ImageFileName")) {
        return;
    }
    const uint32_t pid = static_cast<uint32_t>(record.u("ProcessId"));
    ProcessInfo &p = processes_[pid];
    if (event.opcode != kEnd || p.execname.empty()) {
        p = ProcessInfo{record.s("ImageFileName"),
                        static_cast<int64_t>(record.u("ParentId")),
                        static_cast<uint32_t>(record.u("SessionId")),
                        0,
                        record.u("UniqueProcessKey"),
                        event.pointer_size,
                        record.s("CommandLine")};
    }
    if (event.opcode == kEnd) {
        p.exit_status = static_cast<int32_t>(record.i("ExitStatus"));
    }
}

} // namespace dtrace::etw::plugin
