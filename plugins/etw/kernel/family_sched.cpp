// family_sched.cpp: sched — context switches and wake-ups (Thread class).
#include "kernel/shared_args.h"

namespace dtrace::etw::plugin::kernel {

namespace {

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"sched", "off-cpu", K::Thread, {36}, kThreadArgs, build_thread_args, "", "OldThreadId"},
    {"sched", "on-cpu", K::Thread, {36}, {}, nullptr, "", "NewThreadId"},
    {"sched", "wakeup", K::Thread, {50}, kThreadArgs, build_thread_args, "", ""},
};

} // namespace

std::span<const KernelProbe> sched_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
