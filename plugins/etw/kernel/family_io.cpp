// family_io.cpp: io — disk I/O (DiskIo class): bufinfo_t, devinfo_t, fileinfo_t.
#include "kernel/shared_args.h"

#include <string>

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr uint8_t kDiskRead = 10, kDiskWrite = 11, kDiskFlush = 14;
constexpr uint8_t kDiskReadInit = 12, kDiskWriteInit = 13;
constexpr uint64_t kSectorSize = 512;
const std::string kUnknown = "<unknown>";

namespace field {
const MofFieldId IrpFlags{"IrpFlags"};
const MofFieldId TransferSize{"TransferSize"};
const MofFieldId Irp{"Irp"};
const MofFieldId ByteOffset{"ByteOffset"};
const MofFieldId DiskNumber{"DiskNumber"};
const MofFieldId HighResResponseTime{"HighResResponseTime"};
const MofFieldId FileObject{"FileObject"};
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
    const bool done = op == kDiskRead || op == kDiskWrite || op == kDiskFlush;
    b[buf::b_flags] = (op == kDiskRead || op == kDiskReadInit     ? kBufRead
                       : op == kDiskWrite || op == kDiskWriteInit ? kBufWrite
                                                                  : 0) |
                      (done ? kBufDone : 0);
    b[buf::b_irpflags] = r.u(field::IrpFlags);
    b[buf::b_bcount] = r.u(field::TransferSize);
    b[buf::b_addr] = r.u(field::Irp);
    b[buf::b_lblkno] = r.u(field::ByteOffset) / kSectorSize;
    b[buf::b_blkno] = b[buf::b_lblkno];
    b[buf::b_bufsize] = r.u(field::TransferSize);
    b[buf::b_edev] = r.u(field::DiskNumber);
    const uint64_t ticks = r.u(field::HighResResponseTime);
    b[buf::resp] = static_cast<uint64_t>(c.event.time_ns - c.ns(static_cast<uint64_t>(c.event.timestamp) - ticks));
    KernelRecord &d = memory.record(dev_address);
    // Init events name the IRP only: the disk is known at completion.
    const bool disk_known = r.has(field::DiskNumber);
    const std::string disk = std::to_string(r.u(field::DiskNumber));
    d[dev::dev_minor] = r.u(field::DiskNumber);
    d[dev::dev_instance] = r.u(field::DiskNumber);
    d[dev::dev_name] = memory.text(disk_known ? "disk" : kUnknown);
    d[dev::dev_statname] = memory.text(disk_known ? "PhysicalDrive" + disk : kUnknown);
    d[dev::dev_pathname] = memory.text(disk_known ? "\\\\.\\PhysicalDrive" + disk : kUnknown);
    a[0] = buf_address;
    a[1] = dev_address;
    a[2] = build_fileinfo(c, r.u(field::FileObject), r.u(field::Irp));
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
