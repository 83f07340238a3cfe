// family_fsinfo.cpp: fsinfo — file I/O (FileIo class): fileinfo_t *.
//
// create 64, cleanup 65, close 66, read 67, write 68, setinfo 69, delete 70,
// rename 71, direnum 72, flush 73, queryinfo 74, fscontrol 75, done 76
// (OperationEnd: the file of the IRP, fi_extinfo, fi_rstatus), dirnotify 77.
#include "kernel/shared_args.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId IrpPtr{"IrpPtr"};
const MofFieldId FileKey{"FileKey"};
const MofFieldId FileObject{"FileObject"};
} // namespace field

constexpr dtrace_arg_desc kFileIo[] = {kernel_arg("etw_fileinfo_t *", 0, "fileinfo_t *")};

// The file is the event's FileKey, else its FileObject, else (OperationEnd)
// the one its IRP was started on.
size_t file_io(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    const uint64_t irp = r.u(field::IrpPtr);
    const uint64_t file = r.has(field::FileKey)      ? r.u(field::FileKey)
                          : r.has(field::FileObject) ? r.u(field::FileObject)
                                                     : c.state.file_of_irp(irp);
    a[0] = build_fileinfo(c, file, irp);
    return 1;
}

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"fsinfo", "create", K::FileIo, {64}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "cleanup", K::FileIo, {65}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "close", K::FileIo, {66}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "read", K::FileIo, {67}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "write", K::FileIo, {68}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "setinfo", K::FileIo, {69}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "delete", K::FileIo, {70}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "rename", K::FileIo, {71}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "direnum", K::FileIo, {72}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "flush", K::FileIo, {73}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "queryinfo", K::FileIo, {74}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "fscontrol", K::FileIo, {75}, kFileIo, file_io, "", "TTID"},
    {"fsinfo", "done", K::FileIo, {76}, kFileIo, file_io, "", ""},
    {"fsinfo", "dirnotify", K::FileIo, {77}, kFileIo, file_io, "", "TTID"},
};

} // namespace

std::span<const KernelProbe> fsinfo_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
