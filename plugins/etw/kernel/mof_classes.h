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

// The class (as its group number) of a kernel event, or kNotKernel.
int kernel_class_of(const Event &event);

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

// One event's fields, decoded with its row.
class MofRecord {
  public:
    const MofEvent *event() const { return event_; }
    // The field's integer value (string fields: 0), 0 if absent.
    uint64_t u(std::string_view field) const;
    int64_t i(std::string_view field) const { return static_cast<int64_t>(u(field)); }
    // The field's text (string and address fields), "" if absent.
    const std::string &s(std::string_view field) const;
    // False for a field the row does not have or the payload did not reach.
    bool has(std::string_view field) const;

  private:
    friend bool decode_mof(const Event &event, int klass, MofRecord &out);
    int index(std::string_view field) const;

    const MofEvent *event_ = nullptr;
    size_t present_ = 0; // fields [0, present_) were in the payload
    std::array<uint64_t, kMaxMofFields> values_{};
    std::array<std::string, kMaxMofFields> text_;
};

// The row for a class, opcode and version; nullptr if the table has none.
const MofEvent *find_mof_event(int klass, uint8_t opcode, uint8_t version);
// Decodes an event of class klass (kernel_class_of) into out; false when the
// table has no row for it.
bool decode_mof(const Event &event, int klass, MofRecord &out);

} // namespace dtrace::etw::plugin::kernel
