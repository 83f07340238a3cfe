// tracepoint_fields.h: a tracepoint record's fields, typed for D and read
// from the copy the BPF program made at the event.
//
// The sdt provider's args[i] is the i-th field after the common header:
//   - an integer (pid_t, long, bool, u64 ...): its value, sign-extended when
//     the format says signed; typed by its kernel name when D knows it,
//     else the integer of its size and signedness;
//   - a string (`__data_loc char[]`, `__rel_loc char[]`, `char name[N]`):
//     `char *`, the address of the text inside the copy, which copyinstr()
//     reads (the copy is served at SDT_RAW_ADDRESS);
//   - any other array (`__u8 saddr[4]`): `uint8_t *`, its address in the
//     copy (copyin() reads it);
//   - a pointer: `void *` holding the kernel address (dtrace does not read
//     kernel memory).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tracepoint_format.h"

namespace dtrace::sdt {

enum class FieldKind { Integer, String, Array, Pointer };

FieldKind kind_of(const live::TracepointField &field);

// The D type args[i] has for the field.
std::string d_type_of(const live::TracepointField &field);

// The bytes the BPF program copies for an event of this format: its fixed
// part, and room for `string_room` bytes per __data_loc string.
uint32_t capture_bytes(const live::TracepointFormat &format, uint32_t string_room);

// One event's copy of its tracepoint record (the fields at their offsets).
class RawRecord {
  public:
    explicit RawRecord(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    // The field as args[i] holds it (see the comment above).
    uint64_t arg(const live::TracepointField &field) const;
    // An integer field's value (0 when the copy does not hold it).
    uint64_t integer(const live::TracepointField &field) const;
    // A string field's text (up to its NUL or the copy's end).
    std::string_view text(const live::TracepointField &field) const;
    // An array field's bytes.
    std::span<const uint8_t> bytes(const live::TracepointField &field) const;
    // The whole copy (a record that is no tracepoint's: a packet's headers).
    std::span<const uint8_t> all() const { return bytes_; }

  private:
    // Where a string or array field's bytes start in the copy, and how many.
    std::span<const uint8_t> extent(const live::TracepointField &field) const;
    std::span<const uint8_t> bytes_;
};

} // namespace dtrace::sdt
