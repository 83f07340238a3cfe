// family_dpc_isr.cpp: dpc and isr — deferred procedure calls and interrupts
// (PerfInfo class): entry time, routine; isr adds return value and vector.
#include "kernel/probe_family.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId InitialTime{"InitialTime"};
const MofFieldId Routine{"Routine"};
const MofFieldId ReturnValue{"ReturnValue"};
const MofFieldId Vector{"Vector"};
} // namespace field

constexpr dtrace_arg_desc kDpc[] = {kernel_arg("uint64_t", 0), kernel_arg("uintptr_t", 1)};
size_t dpc(const ArgContext &c, KernelArgs &a) {
    a[0] = static_cast<uint64_t>(c.ns(c.record.u(field::InitialTime)));
    a[1] = c.record.u(field::Routine);
    return 2;
}

constexpr dtrace_arg_desc kIsr[] = {kernel_arg("uint64_t", 0), kernel_arg("uintptr_t", 1), kernel_arg("uint8_t", 2),
                                    kernel_arg("uint16_t", 3)};
size_t isr(const ArgContext &c, KernelArgs &a) {
    dpc(c, a);
    a[2] = c.record.u(field::ReturnValue);
    a[3] = c.record.u(field::Vector);
    return 4;
}

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"dpc", "thread", K::PerfInfo, {66}, kDpc, dpc, "", ""},
    {"dpc", "dpc", K::PerfInfo, {68}, kDpc, dpc, "", ""},
    {"dpc", "timer", K::PerfInfo, {69}, kDpc, dpc, "", ""},
    {"isr", "isr", K::PerfInfo, {67, 50, 95}, kIsr, isr, "", ""},
};

} // namespace

std::span<const KernelProbe> dpc_isr_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
