// family_proc.cpp: proc — processes, threads and images (Process, Thread, Image classes).
#include "kernel/shared_args.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId ProcessId{"ProcessId"};
const MofFieldId ExitStatus{"ExitStatus"};
const MofFieldId FileName{"FileName"};
const MofFieldId ImageBase{"ImageBase"};
const MofFieldId ImageSize{"ImageSize"};
} // namespace field

// proc:::create and start: psinfo_t * of the new process.
constexpr dtrace_arg_desc kNewProcess[] = {kernel_arg("etw_psinfo_t *", 0, "psinfo_t *")};
size_t new_process(const ArgContext &c, KernelArgs &a) {
    a[0] = c.memory.psinfo(static_cast<uint32_t>(c.record.u(field::ProcessId)));
    return 1;
}

constexpr dtrace_arg_desc kExitStatus[] = {kernel_arg("int", 0)};
size_t exit_status(const ArgContext &c, KernelArgs &a) {
    a[0] = static_cast<uint64_t>(c.record.i(field::ExitStatus));
    return 1;
}

// module-load and module-unload: path, base, size.
constexpr dtrace_arg_desc kModule[] = {kernel_arg("char *", 0), kernel_arg("uintptr_t", 1), kernel_arg("size_t", 2)};
size_t module(const ArgContext &c, KernelArgs &a) {
    a[0] = c.memory.text(c.record.s(field::FileName));
    a[1] = c.record.u(field::ImageBase);
    a[2] = c.record.u(field::ImageSize);
    return 3;
}

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"proc", "create", K::Process, {1}, kNewProcess, new_process, "", ""},
    {"proc", "start", K::Process, {1}, kNewProcess, new_process, "ProcessId", ""},
    {"proc", "exit", K::Process, {2}, kExitStatus, exit_status, "ProcessId", ""},
    {"proc", "lwp-create", K::Thread, {1}, kThreadArgs, build_thread_args, "", ""},
    {"proc", "lwp-start", K::Thread, {1}, kThreadArgs, build_thread_args, "ProcessId", "TThreadId"},
    {"proc", "lwp-exit", K::Thread, {2}, {}, nullptr, "ProcessId", "TThreadId"},
    {"proc", "module-load", K::Image, {10}, kModule, module, "ProcessId", ""},
    {"proc", "module-unload", K::Image, {2}, kModule, module, "ProcessId", ""},
};

} // namespace

std::span<const KernelProbe> proc_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
