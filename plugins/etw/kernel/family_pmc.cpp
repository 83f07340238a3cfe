// family_pmc.cpp: pmc — the kernel logger's hardware counter events
// (PerfInfo class), as the Windows port presents them:
//   pmc:::sample-src    PerfInfo 72 SetInterval, 73 CollectionStart: a
//                       sampling source; arg0 its id, arg1 its name,
//                       arg2 its interval (events between samples)
//   pmc:::<source>      PerfInfo 47 PmcCounterProfile of that source, named
//                       in lower case (pmc:::totalcycles,
//                       pmc:::branchmispredictions, ...): arg0 the sampled
//                       instruction pointer, arg1 the source's id, arg2 its
//                       name; the sampled thread is the firing's
//   pmc:::sample        every PmcCounterProfile, whatever its source (one
//                       the list below does not name), same arguments
//   pmc:::counter-src   PerfInfo 48 PmcCounterConfig: the counters the
//                       kernel attaches to events from then on; arg0 how
//                       many, arg1 their names, comma-separated
// A sample's source is named by the trace's SampledProfileInterval events,
// else by Windows' fixed list (pmc_sources.h). The Windows port's
// pmc:::<source>-<interval> and <prov>::pmc:<probe>-<counter> probes are
// not presented.
#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "kernel/probe_family.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId InstructionPointer{"InstructionPointer"};
const MofFieldId ProfileSource{"ProfileSource"};
const MofFieldId Source{"Source"};
const MofFieldId SourceName{"SourceName"};
const MofFieldId NewInterval{"NewInterval"};
const MofFieldId CounterCount{"CounterCount"};
} // namespace field

bool same_name(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

// sample-src: id, name, interval.
constexpr dtrace_arg_desc kSource[] = {kernel_arg("uint32_t", 0), kernel_arg("char *", 1), kernel_arg("uint32_t", 2)};
size_t source(const ArgContext &c, KernelArgs &a) {
    a[0] = c.record.u(field::Source);
    a[1] = c.memory.text(c.record.s(field::SourceName));
    a[2] = c.record.u(field::NewInterval);
    return 3;
}

// A sample: the instruction pointer, the source's id and name.
constexpr dtrace_arg_desc kSample[] = {kernel_arg("uintptr_t", 0), kernel_arg("uint32_t", 1), kernel_arg("char *", 2)};
size_t sample(const ArgContext &c, KernelArgs &a) {
    const uint32_t id = static_cast<uint32_t>(c.record.u(field::ProfileSource));
    a[0] = c.record.u(field::InstructionPointer);
    a[1] = id;
    a[2] = c.memory.text(std::string(c.state.pmc().source_name(id)));
    return 3;
}

// The sources with a probe of their own: Windows' fixed list and the
// machine-specific ones Intel's and AMD's HALs name (wpr -pmcsources).
// clang-format off
constexpr std::array<std::string_view, 24> kSourceProbes = {
    "timer",                     "totalissues",               "branchinstructions",
    "cachemisses",               "branchmispredictions",      "totalcycles",
    "alignmentfixup",            "pipelinedry",               "loadinstructions",
    "pipelinefrozen",            "totalnonissues",            "dcachemisses",
    "icachemisses",              "storeinstructions",         "fpinstructions",
    "integerinstructions",       "unhaltedcorecycles",        "instructionretired",
    "unhaltedreferencecycles",   "llcreference",              "llcmisses",
    "branchinstructionretired",  "branchmispredictsretired",  "dcacheaccesses",
};
// clang-format on

// The sample of source kSourceProbes[I], or not this row's.
template <size_t I> size_t source_sample(const ArgContext &c, KernelArgs &a) {
    const uint32_t id = static_cast<uint32_t>(c.record.u(field::ProfileSource));
    return same_name(c.state.pmc().source_name(id), kSourceProbes[I]) ? sample(c, a) : kNotThisEvent;
}

// counter-src: how many counters, their names.
constexpr dtrace_arg_desc kCounters[] = {kernel_arg("uint32_t", 0), kernel_arg("char *", 1)};
size_t counters(const ArgContext &c, KernelArgs &a) {
    const uint32_t count = static_cast<uint32_t>(c.record.u(field::CounterCount));
    std::string joined;
    for (const std::string &name : counter_config_names(c.event.payload, count)) {
        joined += (joined.empty() ? "" : ",") + name;
    }
    a[0] = count;
    a[1] = c.memory.text(joined);
    return 2;
}

using K = KernelClass;

template <size_t... I> constexpr auto make_rows(std::index_sequence<I...>) {
    return std::array{
        KernelProbe{"pmc", "sample-src", K::PerfInfo, {72, 73}, kSource, source, "", ""},
        KernelProbe{"pmc", "counter-src", K::PerfInfo, {48}, kCounters, counters, "", ""},
        KernelProbe{"pmc", "sample", K::PerfInfo, {47}, kSample, sample, "", "ThreadId"},
        KernelProbe{"pmc", kSourceProbes[I], K::PerfInfo, {47}, kSample, source_sample<I>, "", "ThreadId"}...,
    };
}

constexpr auto kRows = make_rows(std::make_index_sequence<kSourceProbes.size()>());

} // namespace

std::span<const KernelProbe> pmc_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
