// kernel_records.h: trace(), printf() and the probe line of an empty clause
// in the kernel: the BPF code that writes a clause's record to the ring, and
// its decoding into the fields the engine would have recorded.
//
// A record is built in a per-CPU scratch map, then copied to a BPF ring
// buffer (a full ring counts a record drop, reported as DTrace's drops):
//   u32 epid, u32 cpu, u64 timestamp, then per recorded value:
//   an integer: 8 bytes; execname: its 16 zero-padded bytes; a string
//   constant: nothing (user space knows it: RecordLayout).
// The consumer side appends each record to the CPU's principal buffer as
// the engine's action runner would have written it (buffer.h's format), so
// the consumer prints the same bytes.
#pragma once

#include "fastpath/bpf_emitter.h"
#include "fastpath/difo_translator.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace dtrace::fastpath {

inline constexpr uint32_t kRecordHeaderBytes = 16;
inline constexpr uint32_t kMaxRecordBytes = 1024;

// Writes one clause's record: start(), a field() per recorded value (each
// right after its DIFO ran), finish() after the clause's last action.
class RecordWriter {
  public:
    RecordWriter(BpfEmitter &out, MapPlan &plan, uint32_t epid);

    void field(const DifoValue &value, const dif::TypeDesc &type);
    void finish();

  private:
    // r9 = the scratch record, or a jump past the record when it is missing.
    void load_scratch();

    BpfEmitter &out_;
    MapPlan &plan_;
    uint32_t epid_;
    uint32_t scratch_map_;
    uint32_t ring_map_;
    RecordLayout layout_;
    BpfEmitter::Label skip_;
};

// One record read back: where it goes and its values, as the engine records them.
struct DecodedRecord {
    uint32_t epid = 0;
    uint32_t cpu = 0;
    uint64_t timestamp = 0;
    std::vector<std::variant<uint64_t, std::string_view>> values; // views into the record or the layout
};

// Nothing when the record is not one `plan`'s programs write.
std::optional<DecodedRecord> decode_record(const MapPlan &plan, std::span<const uint8_t> record);

} // namespace dtrace::fastpath
