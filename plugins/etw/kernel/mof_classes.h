// mof_classes.h: the NT kernel's classic (MOF) events, decoded by a table.
//
// The kernel logger's records (SYSTEM and PERFINFO headers) carry no
// description of their payload: the layout of each event is fixed by its MOF
// class (wmicore.mof), chosen by the hook's group (the class GUID), its type
// (opcode) and the record's version, with pointer-sized fields 4 or 8 bytes
// wide as the logger was 32- or 64-bit. mof_classes.cpp holds that table
// (etw-formats.md 2): each row names its class, opcodes, first version and
// its fields in payload order, with their types. decode_mof() walks the
// payload with the row that fits the event and gives each field its value.
//
// Rows list a version's fields up to the last one any later version added at
// the end (DiskIo's IssuingThreadId, Thread's ThreadName ...): a field past
// the end of a shorter payload reads as 0 (or ""), and has() says so.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "reader/event.h"
#include "reader/le_bytes.h"

namespace dtrace::etw::plugin::kernel {

// The kernel event classes, by their hook group (EVENT_TRACE_GROUP_* >> 8).
// An image load is logged with a Process hook; it belongs to the Image class.
enum class KernelClass : uint8_t {
    DiskIo = 0x01,
    PageFault = 0x02,
    Process = 0x03,
    FileIo = 0x04,
    Thread = 0x05,
    TcpIp = 0x06,
    UdpIp = 0x08,
    Registry = 0x09,
    PerfInfo = 0x0F,
    Image = 0x14,
    StackWalk = 0x18,
};
inline constexpr size_t kClassSlots = 0x20;
inline constexpr int kNotKernel = -1;

inline constexpr uint16_t kImageLoadHook = 0x030A;

// The class of a classic record (a relogged kernel event), or kNotKernel.
int classic_kernel_class(const Event &event);

// The class (as its group number) of a kernel event, or kNotKernel. Asked of
// every event: the kernel families' case is inline.
inline int kernel_class_of(const Event &event) {
    switch (event.kind) {
    case RecordKind::System:
    case RecordKind::CompactSystem:
    case RecordKind::PerfInfo:
        return event.hook_id == kImageLoadHook ? static_cast<int>(KernelClass::Image) : event.hook_id >> 8;
    case RecordKind::Classic:
        return classic_kernel_class(event);
    default:
        return kNotKernel;
    }
}

enum class MofType : uint8_t {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    Pointer,    // 4 or 8 bytes, as the logger
    Sid,        // a TOKEN_USER and SID, or 4 zero bytes: skipped, no value
    AnsiString, // NUL-terminated
    WideString, // NUL-terminated UTF-16LE, made UTF-8
    Ipv4,       // 4 bytes in network order, made text ("10.0.0.1")
    Ipv6,       // 16 bytes, made text
    Port,       // u16 in network order
};

struct MofField {
    std::string_view name;
    MofType type;
};

struct MofEvent {
    KernelClass klass;
    std::array<uint8_t, 6> opcodes; // 0-terminated unless all six are used
    uint8_t min_version;            // rows of one opcode: the highest min_version <= the event's wins
    std::string_view name;          // the MOF event (type) name
    std::span<const MofField> fields;
};

inline constexpr size_t kMaxMofFields = 16;

// The value of an integer field of this type and size (1 to 8 bytes) at p.
inline uint64_t load_mof_integer(MofType type, const uint8_t *p, size_t size) {
    switch (type) {
    case MofType::I8:
        return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(*p)));
    case MofType::I16:
        return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(load_u16(p))));
    case MofType::I32:
        return static_cast<uint64_t>(static_cast<int64_t>(load_i32(p)));
    case MofType::Port:
        return static_cast<uint64_t>(p[0] << 8 | p[1]);
    default:
        break;
    }
    switch (size) {
    case 1:
        return *p;
    case 2:
        return load_u16(p);
    case 4:
        return load_u32(p);
    default:
        return load_u64(p);
    }
}

// A field name looked up in the table once: a record finds a field named so
// by index in whatever row decoded it, comparing no names. The paths run for
// every kernel event (the state kept from them) name their fields this way.
class MofFieldId {
  public:
    explicit MofFieldId(std::string_view name); // a name no row has finds nothing

  private:
    friend class MofRecord;
    uint16_t id_;
};

// One event's fields, decoded with its row. The leading integer fields of a
// row (all of most rows) are read from the payload when asked for, at offsets
// computed once per row: use the record while the event's payload is valid.
class MofRecord {
  public:
    const MofEvent *event() const { return event_; }
    // The field's integer value (string fields: 0), 0 if absent.
    uint64_t u(std::string_view field) const { return value(index(field)); }
    uint64_t u(MofFieldId field) const { return value(index(field)); }
    int64_t i(std::string_view field) const { return static_cast<int64_t>(u(field)); }
    int64_t i(MofFieldId field) const { return static_cast<int64_t>(u(field)); }
    // The field's text (string and address fields), "" if absent.
    const std::string &s(std::string_view field) const { return text(index(field)); }
    const std::string &s(MofFieldId field) const { return text(index(field)); }
    // False for a field the row does not have or the payload did not reach.
    bool has(std::string_view field) const { return index(field) >= 0; }
    bool has(MofFieldId field) const { return index(field) >= 0; }

  private:
    friend bool decode_mof(const Event &event, int klass, MofRecord &out);
    int index(std::string_view field) const;
    int index(MofFieldId field) const {
        const int i = slots_ == nullptr ? -1 : slots_[field.id_];
        return i < static_cast<int>(present_) ? i : -1;
    }
    uint64_t value(int index) const {
        if (index < 0) {
            return 0;
        }
        const size_t i = static_cast<size_t>(index);
        if (i >= integer_count_) {
            return values_[i];
        }
        const size_t start = i == 0 ? 0 : ends_[i - 1];
        return load_mof_integer(event_->fields[i].type, integers_ + start, ends_[i] - start);
    }
    const std::string &text(int index) const;

    const MofEvent *event_ = nullptr;
    const int8_t *slots_ = nullptr;     // the row's index of each MofFieldId (-1: not in the row)
    const uint8_t *integers_ = nullptr; // the payload, where the leading integer fields are read
    const uint8_t *ends_ = nullptr;     // the row's end offset of each leading integer field
    size_t integer_count_ = 0;          // fields [0, integer_count_) are read so
    size_t present_ = 0;                // fields [0, present_) were in the payload
    std::array<uint64_t, kMaxMofFields> values_{};
    std::array<std::string, kMaxMofFields> text_;
};

// The row for a class, opcode and version; nullptr if the table has none.
const MofEvent *find_mof_event(int klass, uint8_t opcode, uint8_t version);
// Decodes an event of class klass (kernel_class_of) into out; false when the
// table has no row for it.
bool decode_mof(const Event &event, int klass, MofRecord &out);

} // namespace dtrace::etw::plugin::kernel
