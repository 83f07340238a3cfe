// kernel_probes.cpp: the kernel providers' table, registration and enablings.
#include "kernel/kernel_probes.h"

#include <string>

#include "kernel/kernel_library.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw::plugin::kernel {

namespace {

using K = KernelClass;
using A = ArgShape;

constexpr KernelProbe kTable[] = {
    {"proc", "create", K::Process, {1}, A::NewProcess, "", ""},
    {"proc", "start", K::Process, {1}, A::NewProcess, "ProcessId", ""},
    {"proc", "exit", K::Process, {2}, A::ExitStatus, "ProcessId", ""},
    {"proc", "lwp-create", K::Thread, {1}, A::Thread, "", ""},
    {"proc", "lwp-start", K::Thread, {1}, A::Thread, "ProcessId", "TThreadId"},
    {"proc", "lwp-exit", K::Thread, {2}, A::None, "ProcessId", "TThreadId"},
    {"proc", "module-load", K::Image, {10}, A::Module, "ProcessId", ""},
    {"proc", "module-unload", K::Image, {2}, A::Module, "ProcessId", ""},
    {"sched", "off-cpu", K::Thread, {36}, A::Thread, "", "OldThreadId"},
    {"sched", "on-cpu", K::Thread, {36}, A::None, "", "NewThreadId"},
    {"sched", "wakeup", K::Thread, {50}, A::Thread, "", ""},
    {"io", "start", K::DiskIo, {12, 13, 15}, A::DiskIo, "", "IssuingThreadId"},
    {"io", "done", K::DiskIo, {10, 11, 14}, A::DiskIo, "", "IssuingThreadId"},
    {"fsinfo", "create", K::FileIo, {64}, A::FileIo, "", "TTID"},
    {"fsinfo", "cleanup", K::FileIo, {65}, A::FileIo, "", "TTID"},
    {"fsinfo", "close", K::FileIo, {66}, A::FileIo, "", "TTID"},
    {"fsinfo", "read", K::FileIo, {67}, A::FileIo, "", "TTID"},
    {"fsinfo", "write", K::FileIo, {68}, A::FileIo, "", "TTID"},
    {"fsinfo", "setinfo", K::FileIo, {69}, A::FileIo, "", "TTID"},
    {"fsinfo", "delete", K::FileIo, {70}, A::FileIo, "", "TTID"},
    {"fsinfo", "rename", K::FileIo, {71}, A::FileIo, "", "TTID"},
    {"fsinfo", "direnum", K::FileIo, {72}, A::FileIo, "", "TTID"},
    {"fsinfo", "flush", K::FileIo, {73}, A::FileIo, "", "TTID"},
    {"fsinfo", "queryinfo", K::FileIo, {74}, A::FileIo, "", "TTID"},
    {"fsinfo", "fscontrol", K::FileIo, {75}, A::FileIo, "", "TTID"},
    {"fsinfo", "done", K::FileIo, {76}, A::FileIo, "", ""},
    {"fsinfo", "dirnotify", K::FileIo, {77}, A::FileIo, "", "TTID"},
    {"reg", "create", K::Registry, {10}, A::Registry, "", ""},
    {"reg", "open", K::Registry, {11}, A::Registry, "", ""},
    {"reg", "delete", K::Registry, {12}, A::Registry, "", ""},
    {"reg", "query", K::Registry, {13}, A::Registry, "", ""},
    {"reg", "setvalue", K::Registry, {14}, A::Registry, "", ""},
    {"reg", "delvalue", K::Registry, {15}, A::Registry, "", ""},
    {"reg", "queryvalue", K::Registry, {16}, A::Registry, "", ""},
    {"reg", "enumkey", K::Registry, {17}, A::Registry, "", ""},
    {"reg", "enumvaluekey", K::Registry, {18}, A::Registry, "", ""},
    {"reg", "querymulvalue", K::Registry, {19}, A::Registry, "", ""},
    {"reg", "setinfo", K::Registry, {20}, A::Registry, "", ""},
    {"reg", "flush", K::Registry, {21}, A::Registry, "", ""},
    {"reg", "kcbcreate", K::Registry, {22}, A::Registry, "", ""},
    {"reg", "kcbdelete", K::Registry, {23}, A::Registry, "", ""},
    {"reg", "virtualize", K::Registry, {26}, A::Registry, "", ""},
    {"reg", "close", K::Registry, {27}, A::Registry, "", ""},
    {"reg", "setsecurity", K::Registry, {28}, A::Registry, "", ""},
    {"reg", "querysecurity", K::Registry, {29}, A::Registry, "", ""},
    {"pf", "trans_flt", K::PageFault, {10}, A::Fault, "", ""},
    {"pf", "dzero_flt", K::PageFault, {11}, A::Fault, "", ""},
    {"pf", "cow_flt", K::PageFault, {12}, A::Fault, "", ""},
    {"pf", "gp_flt", K::PageFault, {13}, A::Fault, "", ""},
    {"pf", "hp_flt", K::PageFault, {14}, A::Fault, "", ""},
    {"pf", "av_flt", K::PageFault, {15}, A::Fault, "", ""},
    {"pf", "hardflt", K::PageFault, {32}, A::HardFault, "", "TThreadId"},
    {"pf", "valloc", K::PageFault, {98}, A::VirtualMemory, "ProcessId", ""},
    {"pf", "vfree", K::PageFault, {99}, A::VirtualMemory, "ProcessId", ""},
    {"pf", "imgload", K::PageFault, {105}, A::ImageBacked, "", ""},
    {"tcpip", "send", K::TcpIp, {10, 26}, A::Tcp, "PID", ""},
    {"tcpip", "receive", K::TcpIp, {11, 27}, A::Tcp, "PID", ""},
    {"tcpip", "connect", K::TcpIp, {12, 28}, A::Tcp, "PID", ""},
    {"tcpip", "disconnect", K::TcpIp, {13, 29}, A::Tcp, "PID", ""},
    {"tcpip", "retransmit", K::TcpIp, {14, 30}, A::Tcp, "PID", ""},
    {"tcpip", "accept", K::TcpIp, {15, 31}, A::Tcp, "PID", ""},
    {"tcpip", "reconnect", K::TcpIp, {16, 32}, A::Tcp, "PID", ""},
    {"tcpip", "fail", K::TcpIp, {17}, A::NetFail, "", ""},
    {"tcpip", "copy", K::TcpIp, {18, 34}, A::Tcp, "PID", ""},
    {"udpip", "send", K::UdpIp, {10, 26}, A::Udp, "PID", ""},
    {"udpip", "receive", K::UdpIp, {11, 27}, A::Udp, "PID", ""},
    {"udpip", "fail", K::UdpIp, {17}, A::NetFail, "", ""},
    {"dpc", "thread", K::PerfInfo, {66}, A::Dpc, "", ""},
    {"dpc", "dpc", K::PerfInfo, {68}, A::Dpc, "", ""},
    {"dpc", "timer", K::PerfInfo, {69}, A::Dpc, "", ""},
    {"isr", "isr", K::PerfInfo, {67, 50, 95}, A::Isr, "", ""},
    {"syscall", "entry", K::PerfInfo, {51}, A::SyscallEntry, "", ""},
    {"syscall", "return", K::PerfInfo, {52}, A::SyscallReturn, "", ""},
    {"sampled", "profile", K::PerfInfo, {46}, A::Sample, "", "ThreadId"},
};

constexpr std::string_view kModule = "MSNT_SystemTrace";
// The provider whose d_source carries the library (types, translators, curpsinfo).
constexpr std::string_view kLibraryProvider = "proc";

constexpr dtrace_arg_desc arg(const char *native, uint8_t index, const char *translated = nullptr) {
    return {sizeof(dtrace_arg_desc), native, translated, index};
}
constexpr dtrace_arg_desc kNewProcess[] = {arg("etw_psinfo_t *", 0, "psinfo_t *")};
constexpr dtrace_arg_desc kExitStatus[] = {arg("int", 0)};
constexpr dtrace_arg_desc kThread[] = {arg("etw_lwpsinfo_t *", 0, "lwpsinfo_t *"),
                                       arg("etw_psinfo_t *", 1, "psinfo_t *")};
constexpr dtrace_arg_desc kModuleArgs[] = {arg("char *", 0), arg("uintptr_t", 1), arg("size_t", 2)};
constexpr dtrace_arg_desc kDiskIo[] = {arg("etw_bufinfo_t *", 0, "bufinfo_t *"),
                                       arg("etw_devinfo_t *", 1, "devinfo_t *"),
                                       arg("etw_fileinfo_t *", 2, "fileinfo_t *")};
constexpr dtrace_arg_desc kFileIo[] = {arg("etw_fileinfo_t *", 0, "fileinfo_t *")};
constexpr dtrace_arg_desc kRegistry[] = {arg("etw_registry_t *", 0, "registry_t *")};
constexpr dtrace_arg_desc kFault[] = {arg("uintptr_t", 0), arg("uintptr_t", 1)};
constexpr dtrace_arg_desc kHardFault[] = {arg("char *", 0),   arg("uintptr_t", 1), arg("uint64_t", 2),
                                          arg("uint64_t", 3), arg("uint32_t", 4),  arg("uint32_t", 5)};
constexpr dtrace_arg_desc kVirtualMemory[] = {arg("uintptr_t", 0), arg("uint32_t", 1), arg("size_t", 2),
                                              arg("uint32_t", 3)};
constexpr dtrace_arg_desc kImageBacked[] = {arg("char *", 0), arg("uint16_t", 1), arg("uint32_t", 2),
                                            arg("uint16_t", 3)};
constexpr dtrace_arg_desc kTcp[] = {arg("etw_ipinfo_t *", 0, "ipinfo_t *"), arg("etw_tcpinfo_t *", 1, "tcpinfo_t *")};
constexpr dtrace_arg_desc kUdp[] = {arg("etw_udpinfo_t *", 0, "udpinfo_t *"), arg("etw_ipinfo_t *", 1, "ipinfo_t *")};
constexpr dtrace_arg_desc kNetFail[] = {arg("uint16_t", 0), arg("uint16_t", 1)};
constexpr dtrace_arg_desc kDpc[] = {arg("uint64_t", 0), arg("uintptr_t", 1)};
constexpr dtrace_arg_desc kIsr[] = {arg("uint64_t", 0), arg("uintptr_t", 1), arg("uint8_t", 2), arg("uint16_t", 3)};
constexpr dtrace_arg_desc kSyscallEntry[] = {arg("uintptr_t", 0)};
constexpr dtrace_arg_desc kSyscallReturn[] = {arg("int", 0)};
constexpr dtrace_arg_desc kSample[] = {arg("uint64_t", 0), arg("uint64_t", 1), arg("uint32_t", 2), arg("uint16_t", 3)};

std::span<const dtrace_arg_desc> args_of(ArgShape shape) {
    switch (shape) {
    case A::None:
        return {};
    case A::NewProcess:
        return kNewProcess;
    case A::ExitStatus:
        return kExitStatus;
    case A::Thread:
        return kThread;
    case A::Module:
        return kModuleArgs;
    case A::DiskIo:
        return kDiskIo;
    case A::FileIo:
        return kFileIo;
    case A::Registry:
        return kRegistry;
    case A::Fault:
        return kFault;
    case A::HardFault:
        return kHardFault;
    case A::VirtualMemory:
        return kVirtualMemory;
    case A::ImageBacked:
        return kImageBacked;
    case A::Tcp:
        return kTcp;
    case A::Udp:
        return kUdp;
    case A::NetFail:
        return kNetFail;
    case A::Dpc:
        return kDpc;
    case A::Isr:
        return kIsr;
    case A::SyscallEntry:
        return kSyscallEntry;
    case A::SyscallReturn:
        return kSyscallReturn;
    case A::Sample:
        return kSample;
    }
    return {};
}

size_t slot(int klass, uint8_t opcode) {
    return static_cast<size_t>(klass) * 256 + opcode;
}

constexpr dtrace_attribute kEvolving = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON};
constexpr dtrace_attribute kPrivate = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};

} // namespace

std::span<const KernelProbe> kernel_probe_table() {
    return kTable;
}

bool is_kernel_provider(std::string_view name) {
    for (const KernelProbe &p : kTable) {
        if (p.provider == name) {
            return true;
        }
    }
    return false;
}

KernelProbes::KernelProbes()
    : ids_(std::size(kTable), 0), enabled_(new std::atomic<dtrace_probe_id>[std::size(kTable)]),
      rows_(kClassSlots * 256) {
    for (size_t i = 0; i < std::size(kTable); ++i) {
        enabled_[i].store(0);
        const KernelProbe &p = kTable[i];
        for (size_t j = 0; j < p.opcodes.size() && (j == 0 || p.opcodes[j] != 0); ++j) {
            rows_[slot(static_cast<int>(p.klass), p.opcodes[j])].push_back(static_cast<uint16_t>(i));
        }
    }
}

bool KernelProbes::register_all(dtrace_host *host, const dtrace_host_ops *ops) {
    std::string_view provider_name;
    dtrace_provider_id provider = 0;
    const std::string module(kModule);
    for (size_t i = 0; i < std::size(kTable); ++i) {
        const KernelProbe &p = kTable[i];
        if (p.provider != provider_name) { // the table keeps each provider's rows together
            provider_name = p.provider;
            const std::string name(provider_name);
            const dtrace_provider_info info = {
                .struct_size = sizeof info,
                .name = name.c_str(),
                .attributes = {kEvolving, kPrivate, kPrivate, kEvolving, kEvolving},
                .d_source = provider_name == kLibraryProvider ? kernel_d_library().c_str() : nullptr,
            };
            provider = ops->register_provider(host, &info);
            if (provider == 0) {
                return false;
            }
        }
        const std::string function(
            kernel_class_name(kernel_class_guid(static_cast<uint16_t>(static_cast<unsigned>(p.klass) << 8))));
        const std::string name(p.name);
        const std::span<const dtrace_arg_desc> args = args_of(p.args);
        const dtrace_probe_desc desc = {
            .struct_size = sizeof desc,
            .module = module.c_str(),
            .function = function.c_str(),
            .name = name.c_str(),
            .nargs = static_cast<uint32_t>(args.size()),
            .args = args.data(),
            .cookie = kKernelCookieBase + i,
        };
        ids_[i] = ops->register_probe(host, provider, &desc);
        if (ids_[i] == 0) {
            return false;
        }
    }
    return true;
}

bool KernelProbes::set_enabled(uint64_t cookie, bool enabled) {
    if (cookie < kKernelCookieBase || cookie - kKernelCookieBase >= std::size(kTable)) {
        return false;
    }
    const size_t row = cookie - kKernelCookieBase;
    const dtrace_probe_id now = enabled ? ids_[row] : 0;
    const dtrace_probe_id before = enabled_[row].exchange(now, std::memory_order_acq_rel);
    if ((before != 0) != (now != 0)) {
        enabled_in_class_[static_cast<size_t>(kTable[row].klass)].fetch_add(now != 0 ? 1u : ~0u);
    }
    return true;
}

std::span<const uint16_t> KernelProbes::rows(int klass, uint8_t opcode) const {
    return rows_[slot(klass, opcode)];
}

} // namespace dtrace::etw::plugin::kernel
