// kernel_probes.h: the NT kernel events as the providers of the Windows port.
//
// The Dtrace-ETW port (seed 001) presents the kernel logger's events as
// providers with DTrace's names and translated arguments. Each row of the
// table below is one probe (its row is in its family's file): its provider and name, the kernel
// class and opcodes that fire it, the shape of its arguments, and which
// payload fields give the firing's pid and tid (kernel events are often
// logged in another thread's context: a process start in its parent's, a
// disk completion in whichever thread ran the interrupt). The probes are
// registered whenever a file is replayed; module is MSNT_SystemTrace (the
// kernel's MOF parent class) and function the event's class.
//
// | probe                        | class/opcodes              | args[]                                  | pid, tid    |
// |------------------------------|----------------------------|-----------------------------------------|-------------|
// | proc:::create                | Process 1 (Start)          | 0 psinfo_t * (the new process)          | the parent  |
// | proc:::start                 | Process 1 (Start)          | 0 psinfo_t *                            | new process |
// | proc:::exit                  | Process 2 (End)            | 0 int exit status                       | ProcessId   |
// | proc:::lwp-create            | Thread 1 (Start)           | 0 lwpsinfo_t *, 1 psinfo_t * (new one)  | the creator |
// | proc:::lwp-start             | Thread 1 (Start)           | as lwp-create                           | new thread  |
// | proc:::lwp-exit              | Thread 2 (End)             | none (curlwpsinfo)                      | the thread  |
// | proc:::module-load           | Image 10 (Load)            | 0 char * path, 1 uintptr_t base,        | ProcessId   |
// | proc:::module-unload         | Image 2 (Unload)           |   2 size_t size                         |             |
// | sched:::off-cpu              | Thread 36 (CSwitch)        | 0 lwpsinfo_t *, 1 psinfo_t * (next)     | old thread  |
// | sched:::on-cpu               | Thread 36 (CSwitch)        | none                                    | new thread  |
// | sched:::wakeup               | Thread 50 (ReadyThread)    | 0 lwpsinfo_t *, 1 psinfo_t * (woken)    | the waker   |
// | io:::start                   | DiskIo 12, 13, 15 (*Init)  | 0 bufinfo_t *, 1 devinfo_t *,           | issuer      |
// | io:::done                    | DiskIo 10, 11, 14          |   2 fileinfo_t *                        | issuer      |
// | fsinfo:::create ... dirnotify| FileIo 64 ... 77 (below)   | 0 fileinfo_t *                          | TTID        |
// | reg:::create ... querysecurity| Registry 10 ... 29 (below)| 0 registry_t *                          | header      |
// | pf:::trans_flt ... av_flt    | PageFault 10 ... 15        | 0 uintptr_t va, 1 uintptr_t pc          | header      |
// | pf:::hardflt                 | PageFault 32               | 0 char * file, 1 uintptr_t va, 2 uint64_t| TThreadId  |
// |                              |                            |   initial time, 3 uint64_t offset,      |             |
// |                              |                            |   4 uint32_t tid, 5 uint32_t bytes      |             |
// | pf:::valloc, pf:::vfree      | PageFault 98, 99           | 0 uintptr_t base, 1 uint32_t pid,       | ProcessId   |
// |                              |                            |   2 size_t size, 3 uint32_t flags       |             |
// | pf:::imgload                 | PageFault 105              | 0 char * file, 1 uint16_t flags,        | header      |
// |                              |                            |   2 uint32_t devchar, 3 uint16_t filechar|            |
// | tcpip:::send ... copy        | TcpIp 10-18, 26-34 (below) | 0 ipinfo_t *, 1 tcpinfo_t *             | PID         |
// | tcpip:::fail, udpip:::fail   | TcpIp/UdpIp 17             | 0 uint16_t protocol, 1 uint16_t code    | header      |
// | udpip:::send, receive        | UdpIp 10/26, 11/27         | 0 udpinfo_t *, 1 ipinfo_t *             | PID         |
// | dpc:::thread, dpc, timer     | PerfInfo 66, 68, 69        | 0 uint64_t entry time (ns since the     | header      |
// |                              |                            |   epoch), 1 uintptr_t routine           |             |
// | isr:::isr                    | PerfInfo 67, 50, 95        | 0, 1 as dpc, 2 uint8_t return value,    | header      |
// |                              |                            |   3 uint16_t vector                     |             |
// | syscall:::entry              | PerfInfo 51 (SysClEnter)   | 0 uintptr_t address of the service      | header      |
// | syscall:::return             | PerfInfo 52 (SysClExit)    | 0 int NTSTATUS                          | header      |
// | sampled:::profile            | PerfInfo 46 SampledProfile | arg0 kernel PC, arg1 user PC (0 when    | ThreadId    |
// |                              |                            |   not there), 2 uint32_t tid, 3 count   |             |
// | pmc:::sample-src             | PerfInfo 72, 73            | 0 uint32_t source, 1 char * name,       | header      |
// |                              |                            |   2 uint32_t interval                   |             |
// | pmc:::counter-src            | PerfInfo 48                | 0 uint32_t count, 1 char * names        | header      |
// | pmc:::<source>, pmc:::sample | PerfInfo 47                | 0 uintptr_t ip, 1 uint32_t source,      | ThreadId    |
// |                              |   (PmcCounterProfile)      |   2 char * source name                  |             |
//
// The opcodes of fsinfo, reg and tcpip are listed in their family's file
// (probe_family.h: one file per family, family_<name>.cpp).
//
// The SampledProfile probe is sampled:::profile: the profile provider is
// dtrace's own (profile-N and tick-N fire on trace time when replaying), and
// perfinfo is the PerfInfo class's own provider (perfinfo:::events). A
// kernel class that shares a name with a provider here (TcpIp, UdpIp) is
// reached through etw and diag only.
// A probe fires after the event has updated what the plugin knows
// (kernel_state.h, process_table.h), so curpsinfo in proc:::start is the new
// process and curlwpsinfo in sched:::off-cpu the thread going off the CPU,
// in the state it goes to.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <dtrace/provider.h>

#include "kernel/mof_classes.h"
#include "kernel/probe_family.h"

namespace dtrace::etw::plugin::kernel {

// Every family's rows, in the order of kernel_probes.cpp's family table (a
// row's index is its cookie's offset from kKernelCookieBase).
std::span<const KernelProbe> kernel_probe_table();
// True for the names of the kernel providers (other providers may not take them).
bool is_kernel_provider(std::string_view name);

// Cookies of the kernel probes start here (the others are ProbeRegistry's).
inline constexpr uint64_t kKernelCookieBase = uint64_t{1} << 62;

// The kernel probes' registration and enablings, shared by the control
// thread (enable) and the replay thread (enabled()).
class KernelProbes {
  public:
    KernelProbes();

    // Registers the providers (the D library with proc) and their probes.
    // False when the host refused (it has said why).
    bool register_all(dtrace_host *host, const dtrace_host_ops *ops);
    // False for a cookie that is not a kernel probe's.
    bool set_enabled(uint64_t cookie, bool enabled);

    // The probe id of row i if enabled, else 0.
    dtrace_probe_id enabled(size_t row) const { return enabled_[row].load(std::memory_order_acquire); }
    // Rows of a class and opcode, in table order.
    std::span<const uint16_t> rows(int klass, uint8_t opcode) const;
    // Whether any probe of a class is enabled.
    bool any_enabled(int klass) const { return enabled_in_class_[static_cast<size_t>(klass)].load() != 0; }

  private:
    std::span<const KernelProbe> table_;
    std::vector<dtrace_probe_id> ids_;
    std::unique_ptr<std::atomic<dtrace_probe_id>[]> enabled_;
    std::array<std::atomic<uint32_t>, kClassSlots> enabled_in_class_{};
    std::vector<std::vector<uint16_t>> rows_; // by class * 256 + opcode
};

} // namespace dtrace::etw::plugin::kernel
