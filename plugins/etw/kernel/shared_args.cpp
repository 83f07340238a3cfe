// shared_args.cpp: thread and file arguments (see shared_args.h).
#include "kernel/shared_args.h"

#include <string>

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr unsigned kCreateDispositionShift = 24;
constexpr uint64_t kCreateOptionsMask = 0xFFFFFF;
constexpr uint8_t kFileDirEnum = 72, kFileDirNotify = 77; // their FileName is a search pattern
// Solaris' translators name a missing file "<none>" and a nameless one "<unknown>".
const std::string kNoFile = "<none>";
const std::string kUnknown = "<unknown>";

namespace field {
const MofFieldId NewThreadId{"NewThreadId"};
const MofFieldId TThreadId{"TThreadId"};
const MofFieldId ProcessId{"ProcessId"};
const MofFieldId Offset{"Offset"};
const MofFieldId ByteOffset{"ByteOffset"};
const MofFieldId CreateOptions{"CreateOptions"};
const MofFieldId FileAttributes{"FileAttributes"};
const MofFieldId ShareAccess{"ShareAccess"};
const MofFieldId IoSize{"IoSize"};
const MofFieldId Length{"Length"};
const MofFieldId TransferSize{"TransferSize"};
const MofFieldId ExtraInfo{"ExtraInfo"};
const MofFieldId NtStatus{"NtStatus"};
const MofFieldId FileName{"FileName"};
} // namespace field

} // namespace

size_t build_thread_args(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    const uint32_t tid =
        static_cast<uint32_t>(r.has(field::NewThreadId) ? r.u(field::NewThreadId) : r.u(field::TThreadId));
    a[0] = c.memory.lwpsinfo(tid);
    a[1] =
        c.memory.psinfo(r.has(field::ProcessId) ? static_cast<uint32_t>(r.u(field::ProcessId)) : c.state.pid_of(tid));
    return 2;
}

uint64_t build_fileinfo(const ArgContext &c, uint64_t file, uint64_t irp, const IoExtent *extent) {
    const MofRecord &r = c.record;
    KernelMemory &memory = c.memory;
    uint64_t address = 0;
    KernelRecord &f = memory.record(address);
    const std::string &name = c.state.file_name(file);
    const std::string &nt_path = file == 0 ? kNoFile : name.empty() ? kUnknown : name;
    const bool named = file != 0 && !name.empty();
    const std::optional<VolumeMap::Mapped> dos = named ? c.state.dos_path(name) : std::nullopt;
    const std::string &path = dos ? dos->path : nt_path;
    const size_t slash = path.find_last_of('\\');
    const bool split = slash != std::string::npos && named;
    f[fi::fi_pathname] = memory.text(path);
    f[fi::fi_ntpath] = memory.text(nt_path);
    f[fi::fi_name] = split ? memory.text(path.substr(slash + 1)) : f[fi::fi_pathname];
    f[fi::fi_dirname] = split ? memory.text(path.substr(0, slash)) : f[fi::fi_pathname];
    f[fi::fi_fs] = memory.text(kUnknown);
    f[fi::fi_mount] = dos && !dos->drive.empty() ? memory.text(dos->drive) : f[fi::fi_fs];
    f[fi::fi_offset] = r.has(field::Offset) ? r.u(field::Offset) : r.u(field::ByteOffset);
    f[fi::fi_oflags] = r.u(field::CreateOptions) >> kCreateDispositionShift;
    f[fi::fi_cflags] = r.u(field::CreateOptions) & kCreateOptionsMask;
    f[fi::fi_aflags] = r.u(field::FileAttributes);
    f[fi::fi_sflags] = r.u(field::ShareAccess);
    f[fi::fi_bcount] = r.has(field::IoSize)   ? r.u(field::IoSize)
                       : r.has(field::Length) ? r.u(field::Length)
                                              : r.u(field::TransferSize);
    f[fi::fi_extinfo] = r.u(field::ExtraInfo);
    f[fi::fi_rstatus] = r.u(field::NtStatus);
    if (extent != nullptr) {
        f[fi::fi_offset] = extent->offset;
        f[fi::fi_bcount] = extent->bcount;
    }
    f[fi::fi_dbuflen] = r.u(field::Length);
    f[fi::fi_irp] = irp;
    const uint8_t op = c.event.opcode;
    f[fi::fi_dpattern] = memory.text(op == kFileDirEnum || op == kFileDirNotify ? r.s(field::FileName) : std::string());
    return address;
}

} // namespace dtrace::etw::plugin::kernel
