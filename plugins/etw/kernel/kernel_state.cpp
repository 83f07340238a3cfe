// kernel_state.cpp: threads, files and registry keys from kernel events.
#include "kernel/kernel_state.h"

#include <optional>

#include "kernel/context_switch.h"

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr uint8_t kThreadEnd = 2;
constexpr uint8_t kRunning = 2;
constexpr uint8_t kFileDeleteName = 35;
constexpr uint8_t kFileCreate = 64;
constexpr uint8_t kOperationEnd = 76;
constexpr uint8_t kKcbCreate = 22;
constexpr uint8_t kKcbDelete = 23;
constexpr uint8_t kKcbRundownBegin = 24;
constexpr uint8_t kKcbRundownEnd = 25;
// Pending IRPs whose OperationEnd never came (events lost) are forgotten
// wholesale past this many, so the table stays bounded.
constexpr size_t kMaxPendingIrps = 1 << 16;

const std::string kNoName;

// The fields read from every event of a tracked class, looked up once.
namespace field {
const MofFieldId ProcessId{"ProcessId"};
const MofFieldId TThreadId{"TThreadId"};
const MofFieldId BasePriority{"BasePriority"};
const MofFieldId PagePriority{"PagePriority"};
const MofFieldId IoPriority{"IoPriority"};
const MofFieldId ThreadFlags{"ThreadFlags"};
const MofFieldId TebBase{"TebBase"};
const MofFieldId FileObject{"FileObject"};
const MofFieldId IrpPtr{"IrpPtr"};
const MofFieldId FileKey{"FileKey"};
const MofFieldId KeyHandle{"KeyHandle"};
const MofFieldId KeyName{"KeyName"};
} // namespace field

} // namespace

void KernelState::note(const Event &event, int klass, const MofRecord &record) {
    switch (static_cast<KernelClass>(klass)) {
    case KernelClass::Thread:
        if (event.opcode != kContextSwitchOpcode && record.has(field::TThreadId)) {
            note_thread(event, record);
        }
        break;
    case KernelClass::FileIo:
        note_file(event, record);
        break;
    case KernelClass::Registry:
        note_registry(event, record);
        break;
    case KernelClass::PerfInfo:
        pmc_.note(event, record);
        break;
    default:
        break;
    }
}

void KernelState::note_thread(const Event &event, const MofRecord &record) {
    if (!record.has(field::ProcessId)) {
        return; // ReadyThread: names a thread, says nothing of it
    }
    ThreadInfo &t = threads_[static_cast<uint32_t>(record.u(field::TThreadId))];
    t.pid = static_cast<uint32_t>(record.u(field::ProcessId));
    t.base_priority = static_cast<uint8_t>(record.u(field::BasePriority));
    t.page_priority = static_cast<uint8_t>(record.u(field::PagePriority));
    t.io_priority = static_cast<uint8_t>(record.u(field::IoPriority));
    t.flags = static_cast<uint8_t>(record.u(field::ThreadFlags));
    t.priority = static_cast<int8_t>(t.base_priority);
    t.teb = record.u(field::TebBase);
    if (event.opcode == kThreadEnd) {
        t.state = 4; // Terminated
    }
}

void KernelState::note_context_switch(const Event &event) {
    const ContextSwitch c = decode_context_switch(event.payload);
    ThreadInfo &old_thread = threads_[c.old_thread];
    old_thread.priority = c.old_priority;
    old_thread.state = c.old_state;
    old_thread.wait_reason = c.old_wait_reason;
    old_thread.wait_mode = c.old_wait_mode;
    old_thread.ideal_processor = c.old_ideal_processor;
    old_thread.cpu = event.cpu;
    ThreadInfo &new_thread = threads_[c.new_thread];
    new_thread.priority = c.new_priority;
    new_thread.state = kRunning;
    new_thread.wait_time = c.new_wait_time;
    new_thread.cpu = event.cpu;
}

void KernelState::note_file(const Event &event, const MofRecord &record) {
    if (std::optional<std::pair<uint64_t, std::string>> named = FileNamesAhead::naming(event, record)) {
        files_[named->first] = std::move(named->second);
        if (event.opcode != kFileCreate) {
            return;
        }
    }
    switch (event.opcode) {
    case kFileDeleteName:
        files_.erase(record.u(field::FileObject));
        return;
    case kOperationEnd:
        ended_irp_ = record.u(field::IrpPtr);
        ended_file_ = 0;
        ended_file_ = file_of_irp(ended_irp_);
        irps_.erase(ended_irp_);
        return;
    default:
        break;
    }
    if (record.has(field::IrpPtr) && record.has(field::FileObject)) {
        if (irps_.size() >= kMaxPendingIrps) {
            irps_.clear();
        }
        irps_[record.u(field::IrpPtr)] =
            record.has(field::FileKey) ? record.u(field::FileKey) : record.u(field::FileObject);
    }
}

void KernelState::note_registry(const Event &event, const MofRecord &record) {
    switch (event.opcode) {
    case kKcbCreate:
    case kKcbRundownBegin:
    case kKcbRundownEnd:
        keys_[record.u(field::KeyHandle)] = record.s(field::KeyName);
        break;
    case kKcbDelete:
        keys_.erase(record.u(field::KeyHandle));
        break;
    default:
        break;
    }
}

const ThreadInfo *KernelState::thread(uint32_t tid) const {
    return threads_.find(tid);
}

uint32_t KernelState::pid_of(uint32_t tid) const {
    const ThreadInfo *t = thread(tid);
    return t == nullptr ? kUnknownId : t->pid;
}

const std::string &KernelState::file_name(uint64_t file) const {
    auto it = files_.find(file);
    if (it != files_.end()) {
        return it->second;
    }
    const std::string *later =
        ahead_.file_names != nullptr && file != 0 ? ahead_.file_names->resolve(file, position_) : nullptr;
    return later != nullptr ? *later : kNoName;
}

uint64_t KernelState::file_of_irp(uint64_t irp) const {
    auto it = irps_.find(irp);
    if (it != irps_.end()) {
        return it->second;
    }
    return irp == ended_irp_ ? ended_file_ : 0;
}

std::string KernelState::key_name(uint64_t handle, const std::string &name) const {
    auto it = handle == 0 ? keys_.end() : keys_.find(handle);
    if (it == keys_.end() || it->second.empty()) {
        return name;
    }
    return name.empty() ? it->second : it->second + "\\" + name;
}

} // namespace dtrace::etw::plugin::kernel
