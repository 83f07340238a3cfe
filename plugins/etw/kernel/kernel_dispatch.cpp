// kernel_dispatch.cpp: firing the kernel providers' probes (see kernel_probes.h).
#include "kernel/kernel_dispatch.h"

#include <string>

#include "kernel/kernel_library.h"
#include "stack_walk.h"

namespace dtrace::etw::plugin::kernel {

namespace {

using K = KernelClass;

constexpr uint8_t kDiskRead = 10, kDiskWrite = 11, kDiskFlush = 14;
constexpr uint8_t kDiskReadInit = 12, kDiskWriteInit = 13;
constexpr uint8_t kFirstIpv6Opcode = 26;
constexpr uint64_t kSectorSize = 512;
constexpr unsigned kCreateDispositionShift = 24;
constexpr uint64_t kCreateOptionsMask = 0xFFFFFF;
// Solaris' translators name a missing file "<none>" and a nameless one "<unknown>".
const std::string kNoFile = "<none>";
const std::string kUnknown = "<unknown>";

// The fields of the sched and lwp probes' arguments (a firing per context
// switch when sched is enabled), looked up once.
namespace field {
const MofFieldId NewThreadId{"NewThreadId"};
const MofFieldId TThreadId{"TThreadId"};
const MofFieldId ProcessId{"ProcessId"};
} // namespace field

int64_t known_or_minus_one(uint32_t id) {
    return id == kUnknownId ? -1 : static_cast<int64_t>(id);
}

} // namespace

KernelDispatch::KernelDispatch(dtrace_host *host, const dtrace_host_ops *ops, const KernelProbes &probes,
                               const TraceClock &clock, EventMemory &event_memory, ProcessTable &processes,
                               ModuleMap &modules)
    : host_(host), ops_(ops), probes_(probes), clock_(clock), processes_(processes), modules_(modules),
      memory_(event_memory, processes, state_) {
    for (const KernelProbe &probe : kernel_probe_table()) {
        firing_fields_.push_back({MofFieldId(probe.pid_field), MofFieldId(probe.tid_field)}); // "" finds nothing
    }
}

void KernelDispatch::decode_and_fire(const Event &event, int klass, const dtrace_event_ctx &base) {
    if (!decode_mof(event, klass, record_)) {
        return;
    }
    if (static_cast<K>(klass) == K::Process) {
        processes_.note(event, record_);
    } else if (static_cast<K>(klass) == K::Image) {
        modules_.note(event, record_);
    } else {
        state_.note(event, klass, record_);
    }
    if (!probes_.any_enabled(klass)) {
        return;
    }
    const std::span<const KernelProbe> table = kernel_probe_table();
    for (uint16_t row : probes_.rows(klass, event.opcode)) {
        if (const dtrace_probe_id id = probes_.enabled(row)) {
            fire(row, id, event, base);
        }
    }
}

void KernelDispatch::fire(uint16_t row, dtrace_probe_id id, const Event &event, const dtrace_event_ctx &base) {
    const KernelProbe &probe = kernel_probe_table()[row];
    const FiringFields &fields = firing_fields_[row];
    uint32_t pid = event.pid;
    uint32_t tid = event.tid;
    if (record_.has(fields.tid)) {
        tid = static_cast<uint32_t>(record_.u(fields.tid));
        pid = state_.pid_of(tid);
    }
    if (record_.has(fields.pid)) {
        pid = static_cast<uint32_t>(record_.u(fields.pid));
    } else if (pid == kUnknownId) {
        pid = state_.pid_of(tid);
    }
    memory_.begin_firing(pid, tid, event.cpu);
    dtrace_event_ctx ctx = base;
    ctx.pid = known_or_minus_one(pid);
    ctx.tid = known_or_minus_one(tid);
    ctx.execname = "";
    ctx.ppid = -1;
    if (const ProcessInfo *p = pid == kUnknownId ? nullptr : processes_.find(pid)) {
        ctx.execname = p->execname.c_str();
        ctx.ppid = p->ppid;
    }
    Args args{};
    ctx.nargs = static_cast<uint32_t>(build_args(probe, event, args));
    ctx.args = args.data();
    ops_->fire(host_, id, &ctx);
    begin_event(event); // curpsinfo of the event's other probes
}

uint64_t KernelDispatch::fileinfo(const Event &event, uint64_t file, uint64_t irp) {
    const MofRecord &r = record_;
    uint64_t address = 0;
    KernelRecord &f = memory_.record(address);
    const std::string &path = file == 0 ? kNoFile : state_.file_name(file).empty() ? kUnknown : state_.file_name(file);
    const size_t slash = path.find_last_of('\\');
    const bool split = slash != std::string::npos && file != 0 && !state_.file_name(file).empty();
    f[fi::fi_pathname] = memory_.text(path);
    f[fi::fi_name] = split ? memory_.text(path.substr(slash + 1)) : f[fi::fi_pathname];
    f[fi::fi_dirname] = split ? memory_.text(path.substr(0, slash)) : f[fi::fi_pathname];
    f[fi::fi_fs] = memory_.text(kUnknown);
    f[fi::fi_mount] = f[fi::fi_fs];
    f[fi::fi_offset] = r.has("Offset") ? r.u("Offset") : r.u("ByteOffset");
    f[fi::fi_oflags] = r.u("CreateOptions") >> kCreateDispositionShift;
    f[fi::fi_cflags] = r.u("CreateOptions") & kCreateOptionsMask;
    f[fi::fi_aflags] = r.u("FileAttributes");
    f[fi::fi_sflags] = r.u("ShareAccess");
    f[fi::fi_bcount] = r.has("IoSize") ? r.u("IoSize") : r.has("Length") ? r.u("Length") : r.u("TransferSize");
    f[fi::fi_extinfo] = r.u("ExtraInfo");
    f[fi::fi_rstatus] = r.u("NtStatus");
    f[fi::fi_dbuflen] = r.u("Length");
    f[fi::fi_irp] = irp;
    f[fi::fi_dpattern] = memory_.text(event.opcode == 72 || event.opcode == 77 ? r.s("FileName") : std::string());
    return address;
}

uint64_t KernelDispatch::ipinfo(uint8_t version) {
    const MofRecord &r = record_;
    uint64_t address = 0;
    KernelRecord &ip = memory_.record(address);
    ip[ip::ip_ver] = version;
    ip[ip::ip_plength] = r.u("size");
    ip[ip::ip_saddr] = memory_.text(r.s("saddr"));
    ip[ip::ip_daddr] = memory_.text(r.s("daddr"));
    ip[ip::ip_connid] = r.u("connid");
    ip[ip::ip_stime] = r.u("startime");
    ip[ip::ip_etime] = r.u("endtime");
    return address;
}

size_t KernelDispatch::build_args(const KernelProbe &probe, const Event &event, Args &a) {
    const MofRecord &r = record_;
    switch (probe.args) {
    case ArgShape::None:
        return 0;
    case ArgShape::NewProcess:
        a[0] = memory_.psinfo(static_cast<uint32_t>(r.u("ProcessId")));
        return 1;
    case ArgShape::ExitStatus:
        a[0] = static_cast<uint64_t>(r.i("ExitStatus"));
        return 1;
    case ArgShape::Thread: {
        const uint32_t tid =
            static_cast<uint32_t>(r.has(field::NewThreadId) ? r.u(field::NewThreadId) : r.u(field::TThreadId));
        a[0] = memory_.lwpsinfo(tid);
        a[1] =
            memory_.psinfo(r.has(field::ProcessId) ? static_cast<uint32_t>(r.u(field::ProcessId)) : state_.pid_of(tid));
        return 2;
    }
    case ArgShape::Module:
        a[0] = memory_.text(r.s("FileName"));
        a[1] = r.u("ImageBase");
        a[2] = r.u("ImageSize");
        return 3;
    case ArgShape::DiskIo: {
        uint64_t buf_address = 0, dev_address = 0;
        KernelRecord &b = memory_.record(buf_address);
        const uint8_t op = event.opcode;
        const bool done = op == kDiskRead || op == kDiskWrite || op == kDiskFlush;
        b[buf::b_flags] = (op == kDiskRead || op == kDiskReadInit     ? kBufRead
                           : op == kDiskWrite || op == kDiskWriteInit ? kBufWrite
                                                                      : 0) |
                          (done ? kBufDone : 0);
        b[buf::b_irpflags] = r.u("IrpFlags");
        b[buf::b_bcount] = r.u("TransferSize");
        b[buf::b_addr] = r.u("Irp");
        b[buf::b_lblkno] = r.u("ByteOffset") / kSectorSize;
        b[buf::b_blkno] = b[buf::b_lblkno];
        b[buf::b_bufsize] = r.u("TransferSize");
        b[buf::b_edev] = r.u("DiskNumber");
        const uint64_t ticks = r.u("HighResResponseTime");
        b[buf::resp] = static_cast<uint64_t>(event.time_ns - ns(static_cast<uint64_t>(event.timestamp) - ticks));
        KernelRecord &d = memory_.record(dev_address);
        // Init events name the IRP only: the disk is known at completion.
        const bool disk_known = r.has("DiskNumber");
        const std::string disk = std::to_string(r.u("DiskNumber"));
        d[dev::dev_minor] = r.u("DiskNumber");
        d[dev::dev_instance] = r.u("DiskNumber");
        d[dev::dev_name] = memory_.text(disk_known ? "disk" : kUnknown);
        d[dev::dev_statname] = memory_.text(disk_known ? "PhysicalDrive" + disk : kUnknown);
        d[dev::dev_pathname] = memory_.text(disk_known ? "\\\\.\\PhysicalDrive" + disk : kUnknown);
        a[0] = buf_address;
        a[1] = dev_address;
        a[2] = fileinfo(event, r.u("FileObject"), r.u("Irp"));
        return 3;
    }
    case ArgShape::FileIo: {
        const uint64_t irp = r.u("IrpPtr");
        const uint64_t file = r.has("FileKey")      ? r.u("FileKey")
                              : r.has("FileObject") ? r.u("FileObject")
                                                    : state_.file_of_irp(irp);
        a[0] = fileinfo(event, file, irp);
        return 1;
    }
    case ArgShape::Registry: {
        uint64_t address = 0;
        KernelRecord &g = memory_.record(address);
        g[reg::r_index] = r.u("Index");
        g[reg::r_status] = r.u("Status");
        g[reg::r_intime] = static_cast<uint64_t>(ns(r.u("InitialTime")));
        g[reg::r_rname] = memory_.text(state_.key_name(r.u("KeyHandle"), r.s("KeyName")));
        a[0] = address;
        return 1;
    }
    case ArgShape::Fault:
        a[0] = r.u("VirtualAddress");
        a[1] = r.u("ProgramCounter");
        return 2;
    case ArgShape::HardFault:
        a[0] = memory_.text(state_.file_name(r.u("FileObject")));
        a[1] = r.u("VirtualAddress");
        a[2] = static_cast<uint64_t>(ns(r.u("InitialTime")));
        a[3] = r.u("ReadOffset");
        a[4] = r.u("TThreadId");
        a[5] = r.u("ByteCount");
        return 6;
    case ArgShape::VirtualMemory:
        a[0] = r.u("BaseAddress");
        a[1] = r.u("ProcessId");
        a[2] = r.u("RegionSize");
        a[3] = r.u("Flags");
        return 4;
    case ArgShape::ImageBacked:
        a[0] = memory_.text(state_.file_name(r.u("FileObject")));
        a[1] = r.u("LoadFlags");
        a[2] = r.u("DeviceChar");
        a[3] = r.u("FileChar");
        return 4;
    case ArgShape::Tcp: {
        uint64_t address = 0;
        a[0] = ipinfo(event.opcode >= kFirstIpv6Opcode ? 6 : 4);
        KernelRecord &t = memory_.record(address);
        t[tcp::tcp_sport] = r.u("sport");
        t[tcp::tcp_dport] = r.u("dport");
        t[tcp::tcp_seq] = r.u("seqnum");
        t[tcp::tcp_window] = r.u("rcvwin");
        t[tcp::tcp_mss] = r.u("mss");
        t[tcp::tcp_sackopt] = r.u("sackopt");
        t[tcp::tcp_tsopt] = r.u("tsopt");
        t[tcp::tcp_wsopt] = r.u("wsopt");
        t[tcp::tcp_rcvws] = r.u("rcvwinscale");
        t[tcp::tcp_sndws] = r.u("sndwinscale");
        a[1] = address;
        return 2;
    }
    case ArgShape::Udp: {
        uint64_t address = 0;
        KernelRecord &u = memory_.record(address);
        u[udp::udp_sport] = r.u("sport");
        u[udp::udp_dport] = r.u("dport");
        u[udp::udp_length] = r.u("size");
        a[0] = address;
        a[1] = ipinfo(event.opcode >= kFirstIpv6Opcode ? 6 : 4);
        return 2;
    }
    case ArgShape::NetFail:
        a[0] = r.u("Proto");
        a[1] = r.u("FailureCode");
        return 2;
    case ArgShape::Dpc:
    case ArgShape::Isr:
        a[0] = static_cast<uint64_t>(ns(r.u("InitialTime")));
        a[1] = r.u("Routine");
        if (probe.args == ArgShape::Dpc) {
            return 2;
        }
        a[2] = r.u("ReturnValue");
        a[3] = r.u("Vector");
        return 4;
    case ArgShape::SyscallEntry:
        a[0] = r.u("SysCallAddress");
        return 1;
    case ArgShape::SyscallReturn:
        a[0] = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(r.u("SysCallNtStatus"))));
        return 1;
    case ArgShape::Sample: {
        const uint64_t pc = r.u("InstructionPointer");
        const bool in_kernel = is_kernel_address(pc, event.pointer_size);
        a[0] = in_kernel ? pc : 0;
        a[1] = in_kernel ? 0 : pc;
        a[2] = r.u("ThreadId");
        a[3] = r.u("Count");
        return 4;
    }
    }
    return 0;
}

} // namespace dtrace::etw::plugin::kernel
