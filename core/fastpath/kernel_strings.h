// kernel_strings.h: strings in the kernel path beyond execname and string
// constants: copyinstr() results, probe names a shared program reads from
// its probe's entry, and the string keys and record fields they fill.
//
// A string in kernel memory is MapPlan::string_bytes wide (a multiple of 8,
// the longest string the session's programs can see: strsize for
// copyinstr(), the longest constant, the longest probe name), zero-padded
// after its NUL, so that it compares (as big-endian words, which orders as
// strcmp()) and hashes (as a key) by its bytes alone. copyinstr() writes to
// a slot of the CPU's scratch map (a per-CPU array of one entry, looked up
// once per firing and kept in the frame at frame::kScratch); the scratch
// map also holds aggregation keys larger than the frame's room, and after
// the string slots the bytes copyin() reads (the clause then loads from
// them at offsets known at compile time).
#pragma once

#include "dif/isa.h"
#include "fastpath/bpf_emitter.h"
#include "fastpath/kernel_frame.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dtrace::fastpath {

// Where a string in memory lies: its base pointer, kept in the frame.
enum class StringBase : uint8_t { Scratch, ProbeInfo };

// A string as a generated program holds it.
struct KernelString {
    enum class Kind : uint8_t { Execname, Constant, Memory } kind = Kind::Constant;
    std::string text;                      // Constant
    StringBase base = StringBase::Scratch; // Memory: string_bytes at base + offset
    int16_t offset = 0;
    int probe_name = -1; // Memory in a probe's entry: probeprov, probemod, probefunc, probename (0..3)

    friend bool operator==(const KernelString &, const KernelString &) = default;
};

// The scratch map: [an aggregation key of up to kScratchKeyBytes][string slots][copyin() bytes].
inline constexpr uint32_t kScratchKeyBytes = 2 * kMaxStringBytes;
inline constexpr uint32_t kMaxStringSlots = 8;    // copyinstr() calls per program
inline constexpr uint32_t kMaxCopyinBytes = 1024; // copyin() bytes per clause

// Raises plan.string_bytes for what `difo` can see: its string constants,
// strsize where it calls copyinstr(). Throws Refusal beyond kMaxStringBytes.
void size_strings(MapPlan &plan, const dif::Difo &difo);
// The same for a probe name a shared program reads from its probe's entry.
void size_strings(MapPlan &plan, const std::string &name);

// The scratch map (added at first use), grown to hold `bytes`.
uint32_t scratch_map(MapPlan &plan, uint32_t bytes);
// The scratch offset of string slot `slot`.
int16_t string_slot_offset(const MapPlan &plan, unsigned slot);
// The scratch offset of the copyin() bytes that follow the first `used` of a clause.
int16_t copyin_offset(const MapPlan &plan, uint32_t used);

// Looks the scratch map up and keeps its pointer at frame::kScratch (the
// program returns when the lookup fails, which a one-entry array never does).
void emit_scratch_prologue(BpfEmitter &out, MapPlan &plan);
// dst = the base pointer of `base`, from the frame.
void emit_load_base(BpfEmitter &out, bpf::Reg dst, StringBase base);

// Writes `value` as `width` zero-padded bytes at dst + dst_offset
// (clobbers r1 and r5; dst must be another register).
void emit_store_string(BpfEmitter &out, const KernelString &value, bpf::Reg dst, int16_t dst_offset, uint32_t width,
                       uint32_t string_bytes);

// r3 = strcmp(left, right) as -1, 0 or 1 (clobbers r1, r2, r4, r5).
void emit_compare_strings(BpfEmitter &out, const KernelString &left, const KernelString &right, uint32_t string_bytes);

} // namespace dtrace::fastpath
