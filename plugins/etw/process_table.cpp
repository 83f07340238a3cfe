// process_table.cpp: decoding the Process events that name processes.
#include "process_table.h"

#include <optional>
#include <span>

#include "reader/kernel_groups.h"
#include "reader/le_bytes.h"

namespace dtrace::etw::plugin {

namespace {

constexpr uint16_t kProcessStartHook = 0x0301;
constexpr uint8_t kStart = 1;
constexpr uint8_t kDcStart = 3;
constexpr uint8_t kDcEnd = 4;

// Payload fields (after UniqueProcessKey, or PageDirectoryBase before v2).
constexpr size_t kPidAfterKey = 0;
constexpr size_t kPpidAfterKey = 4;
constexpr size_t kSidAfterKey = 16; // after SessionId and ExitStatus
constexpr uint8_t kVersionWithDirectoryTableBase = 3;
constexpr uint8_t kVersionWithFlags = 4;
constexpr size_t kFlagsSize = 4;

// UserSID: 4 zero bytes when absent, else TOKEN_USER (two pointers) and a
// SID of 8 bytes plus 4 per sub-authority (their count at byte 1).
constexpr size_t kNoSidSize = 4;
constexpr size_t kTokenUserPointers = 2;
constexpr size_t kSidFixedSize = 8;
constexpr size_t kSidSubAuthoritySize = 4;
constexpr size_t kSidSubAuthorityCount = 1;

std::optional<size_t> skip_sid(std::span<const uint8_t> payload, size_t at, size_t pointer_size) {
    if (at + kNoSidSize > payload.size()) {
        return std::nullopt;
    }
    if (load_u32(payload.data() + at) == 0) {
        return at + kNoSidSize;
    }
    const size_t sid = at + kTokenUserPointers * pointer_size;
    if (sid + kSidFixedSize > payload.size()) {
        return std::nullopt;
    }
    return sid + kSidFixedSize + kSidSubAuthoritySize * payload[sid + kSidSubAuthorityCount];
}

bool names_a_process(const Event &event) {
    static const Guid process_class = kernel_class_guid(kProcessStartHook);
    return event.provider == process_class &&
           (event.opcode == kStart || event.opcode == kDcStart || event.opcode == kDcEnd);
}

} // namespace

void ProcessTable::note(const Event &event) {
    if (!names_a_process(event)) {
        return;
    }
    const std::span<const uint8_t> payload = event.payload;
    const size_t pointer_size = event.pointer_size;
    size_t at = pointer_size; // UniqueProcessKey
    if (at + kSidAfterKey > payload.size()) {
        return;
    }
    const uint32_t pid = load_u32(payload.data() + at + kPidAfterKey);
    const uint32_t ppid = load_u32(payload.data() + at + kPpidAfterKey);
    at += kSidAfterKey;
    at += event.version >= kVersionWithDirectoryTableBase ? pointer_size : 0;
    at += event.version >= kVersionWithFlags ? kFlagsSize : 0;
    std::optional<size_t> image = skip_sid(payload, at, pointer_size);
    if (!image || *image >= payload.size()) {
        return;
    }
    std::string name;
    for (size_t i = *image; i < payload.size() && payload[i] != 0; ++i) {
        name.push_back(static_cast<char>(payload[i]));
    }
    processes_[pid] = ProcessInfo{std::move(name), ppid};
}

const ProcessInfo *ProcessTable::find(uint32_t pid) const {
    auto it = processes_.find(pid);
    return it == processes_.end() ? nullptr : &it->second;
}

} // namespace dtrace::etw::plugin
