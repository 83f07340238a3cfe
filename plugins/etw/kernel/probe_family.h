// probe_family.h: the unit of the kernel providers — one probe family per file.
//
// A family (proc, sched, io, fsinfo, reg, pf, tcpip/udpip, dpc/isr, syscall,
// sampled, pmc) lives in one file, family_<name>.cpp: its probe rows, the argument
// types it declares and the function that builds its arguments from a
// decoded event. kernel_probes.cpp lists the families in one table; adding a
// family is a new file, one line there and one in CMakeLists.txt.
// docs/probe-families.md describes the pattern for every plugin.
//
// Argument builders read payload fields by MofFieldId (resolved once, at
// load), never by name per firing.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include <dtrace/provider.h>

#include "kernel/kernel_memory.h"
#include "kernel/kernel_state.h"
#include "kernel/mof_classes.h"
#include "reader/event.h"
#include "reader/trace_clock.h"

namespace dtrace::etw::plugin::kernel {

// The most arguments a kernel probe has (pf:::hardflt).
inline constexpr size_t kMaxKernelArgs = 6;
using KernelArgs = std::array<uint64_t, kMaxKernelArgs>;

// What an argument builder reads: the event, its decoded fields, what the
// plugin knows, and where pointer arguments are built (valid until the
// next firing).
struct ArgContext {
    const Event &event;
    const MofRecord &record;
    KernelMemory &memory;
    const KernelState &state;
    const TraceClock &clock;

    // A raw trace time (QPC ticks, FILETIME...) as ns since the epoch.
    int64_t ns(uint64_t raw) const { return clock.to_unix_ns(static_cast<int64_t>(raw)); }
};

// Fills args and returns how many there are, or kNotThisEvent when the
// row's probe does not fire for this event (pmc:::<source> rows share an
// opcode and each takes its source's samples).
using BuildArgs = size_t (*)(const ArgContext &, KernelArgs &args);
inline constexpr size_t kNotThisEvent = SIZE_MAX;

struct KernelProbe {
    std::string_view provider;
    std::string_view name;
    KernelClass klass;
    std::array<uint8_t, 6> opcodes;        // 0-terminated unless all six are used
    std::span<const dtrace_arg_desc> args; // the types registered with the probe
    BuildArgs build;                       // nullptr: no arguments
    std::string_view pid_field;            // the payload field with the firing's pid ("": the record's)
    std::string_view tid_field;            // the same for the tid
};

// An argument's declared type: native, its index, and the translated type.
constexpr dtrace_arg_desc kernel_arg(const char *native, uint8_t index, const char *translated = nullptr) {
    return {sizeof(dtrace_arg_desc), native, translated, index};
}

// The families, each in its own file; kernel_probes.cpp keeps their order.
std::span<const KernelProbe> proc_family();
std::span<const KernelProbe> sched_family();
std::span<const KernelProbe> io_family();
std::span<const KernelProbe> fsinfo_family();
std::span<const KernelProbe> reg_family();
std::span<const KernelProbe> pf_family();
std::span<const KernelProbe> tcpip_family();
std::span<const KernelProbe> udpip_family();
std::span<const KernelProbe> dpc_isr_family();
std::span<const KernelProbe> syscall_family();
std::span<const KernelProbe> sampled_family();
std::span<const KernelProbe> pmc_family();

} // namespace dtrace::etw::plugin::kernel
