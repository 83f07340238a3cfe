// kernel_records.h: trace(), printf() and the probe line of an empty clause
// in the kernel: the BPF code that writes a clause's record to the ring, and
// its decoding into the fields the engine would have recorded.
//
// A record is built in a per-CPU scratch map, then copied to a BPF ring
// buffer (a full ring counts a record drop, reported as DTrace's drops):
//   u32 epid, u32 cpu, u64 timestamp, then per recorded value:
//   an integer: 8 bytes; execname: its 16 zero-padded bytes; a string in
//   kernel memory (copyinstr()): MapPlan::string_bytes zero-padded bytes; a
//   string constant or a probe name: nothing (user space knows it:
//   RecordLayout, one per enabled probe id); stack(): its kernel frames
//   (kernel_stacks.h), the tracing machinery's dropped when decoded.
// A clause that faults (copyinstr() of a bad address) writes DTrace's error
// record instead (emit_fault_record(): epid kFaultTag, then the faulting
// enabled probe id, the action, the DIF offset, the fault, the address),
// which the installer hands to the engine's error path.
// The consumer side appends each record to the CPU's principal buffer as
// the engine's action runner would have written it (buffer.h's format), so
// the consumer prints the same bytes.
#pragma once

#include "dif/fault.h"
#include "fastpath/bpf_emitter.h"
#include "fastpath/difo_translator.h"
#include "fastpath/kernel_stacks.h"
#include "fastpath/shared_probes.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace dtrace::fastpath {

inline constexpr uint32_t kRecordHeaderBytes = 16;
inline constexpr uint32_t kMaxRecordBytes = 4096;
inline constexpr uint32_t kFaultTag = UINT32_MAX; // a fault record's epid
inline constexpr uint32_t kFaultRecordBytes = kRecordHeaderBytes + 24;

// The probes a shared program serves (shared_probes.h): a record's layout is
// registered for each of their enabled probe ids, with their names.
using SharedProbeList = std::vector<const ProbeIdentity *>;

// dst = the enabled probe id of `site`'s clause (clobbers r1 for a shared program's).
void emit_load_epid(BpfEmitter &out, bpf::Reg dst, const FaultSite &site);

// Writes DTrace's error record for a fault at DIF offset `pc` of `site`'s
// clause, whose address is the word at r10 + address_offset (a full ring
// counts a record drop). Clobbers r0-r5 and r8.
void emit_fault_record(BpfEmitter &out, MapPlan &plan, const FaultSite &site, uint32_t pc, dif::FaultKind kind,
                       int16_t address_offset);

// Writes one clause's record: start(), a field() per recorded value (each
// right after its DIFO ran), finish() after the clause's last action.
class RecordWriter {
  public:
    // `shared`: the probes of a shared program (site.shared_clause >= 0), else null:
    // the record's layout is registered for each of their enabled probe ids, with their names.
    RecordWriter(BpfEmitter &out, MapPlan &plan, const FaultSite &site, const SharedProbeList *shared = nullptr);

    void field(const DifoValue &value, const dif::TypeDesc &type);
    // stack() of `type`: the firing's kernel frames (its DIF is not run;
    // the probe's plugin gives kernel_stack_skip).
    void kernel_stack(const dif::TypeDesc &type);
    void finish();

  private:
    // r9 = the scratch record, or a jump past the record when it is missing.
    void load_scratch();

    BpfEmitter &out_;
    MapPlan &plan_;
    FaultSite site_;
    const SharedProbeList *shared_;
    std::vector<int> probe_names_; // per field: the probe name a shared program's field is (-1: none)
    uint32_t scratch_map_;
    uint32_t ring_map_;
    RecordLayout layout_;
    BpfEmitter::Label skip_;
};

// One record read back: where it goes and its values, as the engine records them.
struct KernelFault {
    uint32_t epid = 0, action = 0, pc = 0, kind = 0;
    uint64_t address = 0;
};
struct DecodedRecord {
    std::optional<KernelFault> fault; // an error record (its values are empty)
    uint32_t epid = 0;
    uint32_t cpu = 0;
    uint64_t timestamp = 0;
    std::vector<std::variant<uint64_t, std::string_view>> values; // views into the record, the layout or stacks
    std::deque<std::string> stacks;                               // the stack() values' bytes
};

// Nothing when the record is not one `plan`'s programs write. `skip`: the
// tracing machinery's frames of a kernel stack (stack() fields).
std::optional<DecodedRecord> decode_record(const MapPlan &plan, std::span<const uint8_t> record,
                                           const KernelStackSkip &skip = {});

} // namespace dtrace::fastpath
