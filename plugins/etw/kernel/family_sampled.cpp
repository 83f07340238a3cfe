// family_sampled.cpp: sampled — the sampling profiler's SampledProfile
// events (PerfInfo 46). The profile provider is dtrace's own (profile-N and
// tick-N fire on trace time when replaying), hence another name.
#include "kernel/probe_family.h"
#include "stack_walk.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId InstructionPointer{"InstructionPointer"};
const MofFieldId ThreadId{"ThreadId"};
const MofFieldId Count{"Count"};
} // namespace field

// arg0 the kernel PC, arg1 the user PC (0 when not there, as profile-N's),
// then the thread and the sample count.
constexpr dtrace_arg_desc kSample[] = {kernel_arg("uint64_t", 0), kernel_arg("uint64_t", 1), kernel_arg("uint32_t", 2),
                                       kernel_arg("uint16_t", 3)};
size_t sample(const ArgContext &c, KernelArgs &a) {
    const uint64_t pc = c.record.u(field::InstructionPointer);
    const bool in_kernel = is_kernel_address(pc, c.event.pointer_size);
    a[0] = in_kernel ? pc : 0;
    a[1] = in_kernel ? 0 : pc;
    a[2] = c.record.u(field::ThreadId);
    a[3] = c.record.u(field::Count);
    return 4;
}

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"sampled", "profile", K::PerfInfo, {46}, kSample, sample, "", "ThreadId"},
};

} // namespace

std::span<const KernelProbe> sampled_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
