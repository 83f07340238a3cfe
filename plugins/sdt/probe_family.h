// probe_family.h: the unit of the stable providers — one probe family per
// file (docs/probe-families.md).
//
// A family (proc, sched, io, ip/tcp/udp, lockstat) lives in family_<name>.cpp:
// its probe rows, the argument types they declare and the functions that
// build the arguments from one event. families.cpp lists the families in one
// table; the plugin registers the flattened rows (a row's position is its
// place in `dtrace -l`) and, when an event comes, calls the row's builder —
// it never switches on a family.
//
// A row's event is a kernel tracepoint, or a record of the sched_switch BTF
// program (in the context of the thread leaving or coming on). Builders read the tracepoint's fields by index into the
// row's field list, resolved against the format file when the probe is registered, never by name per firing.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include <dtrace/provider.h>

#include "bpf/live_record.h"
#include "bpf/sdt_raw.h"
#include "other_thread.h"
#include "record_memory.h"
#include "tracepoint_fields.h"

namespace dtrace::sdt {

// The most arguments a probe has (an sdt probe's fields past it are not
// passed).
inline constexpr size_t kMaxProbeArgs = 32;
using ProbeArgs = std::array<uint64_t, kMaxProbeArgs>;

// A tracepoint, one of the sched_switch program's records (the value
// after Tracepoint's is the record's SDT_SWITCH_* kind plus one), or a
// packet the packet programs saw sent or received (bpf/sdt_packets.bpf.c;
// the row's provider says which packets: ip, tcp, udp).
enum class EventSource : uint8_t { Tracepoint, OffCpu, OnCpu, Sleep, Preempt, SendPacket, ReceivePacket };
static_assert(static_cast<int>(EventSource::OffCpu) - 1 == SDT_SWITCH_OFF_CPU &&
              static_cast<int>(EventSource::OnCpu) - 1 == SDT_SWITCH_ON_CPU &&
              static_cast<int>(EventSource::Sleep) - 1 == SDT_SWITCH_SLEEP &&
              static_cast<int>(EventSource::Preempt) - 1 == SDT_SWITCH_PREEMPT);

// What a builder reads: the process context the program captured, the
// tracepoint copy and the row's fields in it, where translated records go,
// and the description of another thread than the firing's.
struct ArgContext {
    const live_record &record;
    const RawRecord &raw;
    std::span<const live::TracepointField *const> fields;
    RecordMemory &memory;
    OtherThread &other;

    uint64_t u(size_t field) const { return raw.integer(*fields[field]); }
    int64_t i(size_t field) const { return static_cast<int64_t>(raw.integer(*fields[field])); }
    std::string_view text(size_t field) const { return raw.text(*fields[field]); }
    std::span<const uint8_t> bytes(size_t field) const { return raw.bytes(*fields[field]); }
};

// Fills args and returns how many there are.
using BuildArgs = size_t (*)(const ArgContext &, ProbeArgs &args);
// Whether this event fires the probe (several probes share a tracepoint).
using AcceptEvent = bool (*)(const ArgContext &);

struct StableProbe {
    std::string_view provider;
    std::string_view name;
    EventSource source;
    std::string_view group; // the tracepoint (EventSource::Tracepoint)
    std::string_view event;
    std::span<const std::string_view> fields; // read by the builder and accept, by index
    std::span<const dtrace_arg_desc> args;
    BuildArgs build = nullptr;    // nullptr: no arguments
    AcceptEvent accept = nullptr; // nullptr: every event
    bool capture_psargs = false;  // the program copies the process arguments
    // A tracepoint of the same group where the wait this row's event ends
    // began (lockstat: contention_begin): the program keeps, per thread,
    // when and the begin's `wait_flags` field, and hands this row's event
    // args[3] = the ns waited and args[4] = those flags.
    std::string_view wait_begin = {};
    std::string_view wait_flags = {};
};

// A dtrace_arg_desc for a family's table.
constexpr dtrace_arg_desc probe_arg(const char *native, uint8_t index, const char *translated = nullptr) {
    return dtrace_arg_desc{sizeof(dtrace_arg_desc), native, translated, index};
}

// The families, in registration order (families.cpp).
std::span<const std::span<const StableProbe>> stable_families();

std::span<const StableProbe> proc_family();
std::span<const StableProbe> sched_family();
std::span<const StableProbe> io_family();
std::span<const StableProbe> net_family();
std::span<const StableProbe> lockstat_family();

} // namespace dtrace::sdt
