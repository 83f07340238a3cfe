// family_io.cpp: io — disk I/O (DiskIo class): bufinfo_t, devinfo_t, fileinfo_t.
//
// io:::done fires for the completions (Read, Write, FlushBuffers), which say
// everything; io:::start for the Init events, which name the IRP only: the
// size, offset, disk and file of a start come from its IRP's completion,
// read ahead (disk_completions_ahead.h), and stay unknown when the trace
// does not complete it.
#include "kernel/shared_args.h"

#include <string>

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr uint8_t kDiskRead = 10, kDiskWrite = 11;
constexpr uint8_t kDiskReadInit = 12, kDiskWriteInit = 13;
constexpr uint64_t kSectorSize = 512;
const std::string kUnknown = "<unknown>";

namespace field {
const MofFieldId Irp{"Irp"};
const MofFieldId HighResResponseTime{"HighResResponseTime"};
} // namespace field

constexpr dtrace_arg_desc kDiskIo[] = {kernel_arg("etw_bufinfo_t *", 0, "bufinfo_t *"),
                                       kernel_arg("etw_devinfo_t *", 1, "devinfo_t *"),
                                       kernel_arg("etw_fileinfo_t *", 2, "fileinfo_t *")};

size_t disk_io(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    KernelMemory &memory = c.memory;
    uint64_t buf_address = 0, dev_address = 0;
    KernelRecord &b = memory.record(buf_address);
    const uint8_t op = c.event.opcode;
    const bool done = DiskCompletionsAhead::completes(op);
    const DiskCompletion own = DiskCompletion::of(r);
    const DiskCompletion *completion = done ? &own : c.state.disk_completion(r.u(field::Irp));
    const DiskCompletion &io = completion != nullptr ? *completion : own;
    b[buf::b_flags] = (op == kDiskRead || op == kDiskReadInit     ? kBufRead
                       : op == kDiskWrite || op == kDiskWriteInit ? kBufWrite
                                                                  : 0) |
                      (done ? kBufDone : 0);
    b[buf::b_irpflags] = io.irp_flags;
    b[buf::b_bcount] = io.transfer_size;
    b[buf::b_addr] = r.u(field::Irp);
    b[buf::b_lblkno] = io.byte_offset / kSectorSize;
    b[buf::b_blkno] = b[buf::b_lblkno];
    b[buf::b_bufsize] = io.transfer_size;
    b[buf::b_edev] = io.disk.value_or(0);
    const uint64_t ticks = r.u(field::HighResResponseTime);
    b[buf::resp] = static_cast<uint64_t>(c.event.time_ns - c.ns(static_cast<uint64_t>(c.event.timestamp) - ticks));
    KernelRecord &d = memory.record(dev_address);
    const bool disk_known = io.disk.has_value();
    const std::string disk = std::to_string(io.disk.value_or(0));
    d[dev::dev_minor] = io.disk.value_or(0);
    d[dev::dev_instance] = io.disk.value_or(0);
    d[dev::dev_name] = memory.text(disk_known ? "disk" : kUnknown);
    d[dev::dev_statname] = memory.text(disk_known ? "PhysicalDrive" + disk : kUnknown);
    d[dev::dev_pathname] = memory.text(disk_known ? "\\\\.\\PhysicalDrive" + disk : kUnknown);
    a[0] = buf_address;
    a[1] = dev_address;
    const IoExtent extent{io.byte_offset, io.transfer_size};
    a[2] = build_fileinfo(c, io.file_object, r.u(field::Irp), &extent);
    return 3;
}

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"io", "start", K::DiskIo, {12, 13, 15}, kDiskIo, disk_io, "", "IssuingThreadId"},
    {"io", "done", K::DiskIo, {10, 11, 14}, kDiskIo, disk_io, "", "IssuingThreadId"},
};

} // namespace

std::span<const KernelProbe> io_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
