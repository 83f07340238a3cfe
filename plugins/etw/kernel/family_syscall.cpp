// family_syscall.cpp: syscall — system call entry and return (PerfInfo class).
#include "kernel/probe_family.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId SysCallAddress{"SysCallAddress"};
const MofFieldId SysCallNtStatus{"SysCallNtStatus"};
} // namespace field

// entry: the address of the service.
constexpr dtrace_arg_desc kEntry[] = {kernel_arg("uintptr_t", 0)};
size_t entry(const ArgContext &c, KernelArgs &a) {
    a[0] = c.record.u(field::SysCallAddress);
    return 1;
}

// return: the NTSTATUS, sign-extended.
constexpr dtrace_arg_desc kReturn[] = {kernel_arg("int", 0)};
size_t status(const ArgContext &c, KernelArgs &a) {
    a[0] = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(c.record.u(field::SysCallNtStatus))));
    return 1;
}

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"syscall", "entry", K::PerfInfo, {51}, kEntry, entry, "", ""},
    {"syscall", "return", K::PerfInfo, {52}, kReturn, status, "", ""},
};

} // namespace

std::span<const KernelProbe> syscall_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
