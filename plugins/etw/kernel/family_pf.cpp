// family_pf.cpp: pf — page faults, hard faults, virtual memory and
// image-backed sections (PageFault class).
#include "kernel/probe_family.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId VirtualAddress{"VirtualAddress"};
const MofFieldId ProgramCounter{"ProgramCounter"};
const MofFieldId FileObject{"FileObject"};
const MofFieldId InitialTime{"InitialTime"};
const MofFieldId ReadOffset{"ReadOffset"};
const MofFieldId TThreadId{"TThreadId"};
const MofFieldId ByteCount{"ByteCount"};
const MofFieldId BaseAddress{"BaseAddress"};
const MofFieldId ProcessId{"ProcessId"};
const MofFieldId RegionSize{"RegionSize"};
const MofFieldId Flags{"Flags"};
const MofFieldId LoadFlags{"LoadFlags"};
const MofFieldId DeviceChar{"DeviceChar"};
const MofFieldId FileChar{"FileChar"};
} // namespace field

// trans_flt ... av_flt: the faulting address and the PC.
constexpr dtrace_arg_desc kFault[] = {kernel_arg("uintptr_t", 0), kernel_arg("uintptr_t", 1)};
size_t fault(const ArgContext &c, KernelArgs &a) {
    a[0] = c.record.u(field::VirtualAddress);
    a[1] = c.record.u(field::ProgramCounter);
    return 2;
}

// hardflt: file, address, initial time, offset, thread, bytes.
constexpr dtrace_arg_desc kHardFault[] = {kernel_arg("char *", 0),   kernel_arg("uintptr_t", 1),
                                          kernel_arg("uint64_t", 2), kernel_arg("uint64_t", 3),
                                          kernel_arg("uint32_t", 4), kernel_arg("uint32_t", 5)};
size_t hard_fault(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    a[0] = c.memory.text(c.state.file_name(r.u(field::FileObject)));
    a[1] = r.u(field::VirtualAddress);
    a[2] = static_cast<uint64_t>(c.ns(r.u(field::InitialTime)));
    a[3] = r.u(field::ReadOffset);
    a[4] = r.u(field::TThreadId);
    a[5] = r.u(field::ByteCount);
    return 6;
}

// valloc, vfree: base, pid, size, flags.
constexpr dtrace_arg_desc kVirtualMemory[] = {kernel_arg("uintptr_t", 0), kernel_arg("uint32_t", 1),
                                              kernel_arg("size_t", 2), kernel_arg("uint32_t", 3)};
size_t virtual_memory(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    a[0] = r.u(field::BaseAddress);
    a[1] = r.u(field::ProcessId);
    a[2] = r.u(field::RegionSize);
    a[3] = r.u(field::Flags);
    return 4;
}

// imgload: file, load flags, device and file characteristics.
constexpr dtrace_arg_desc kImageBacked[] = {kernel_arg("char *", 0), kernel_arg("uint16_t", 1),
                                            kernel_arg("uint32_t", 2), kernel_arg("uint16_t", 3)};
size_t image_backed(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    a[0] = c.memory.text(c.state.file_name(r.u(field::FileObject)));
    a[1] = r.u(field::LoadFlags);
    a[2] = r.u(field::DeviceChar);
    a[3] = r.u(field::FileChar);
    return 4;
}

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"pf", "trans_flt", K::PageFault, {10}, kFault, fault, "", ""},
    {"pf", "dzero_flt", K::PageFault, {11}, kFault, fault, "", ""},
    {"pf", "cow_flt", K::PageFault, {12}, kFault, fault, "", ""},
    {"pf", "gp_flt", K::PageFault, {13}, kFault, fault, "", ""},
    {"pf", "hp_flt", K::PageFault, {14}, kFault, fault, "", ""},
    {"pf", "av_flt", K::PageFault, {15}, kFault, fault, "", ""},
    {"pf", "hardflt", K::PageFault, {32}, kHardFault, hard_fault, "", "TThreadId"},
    {"pf", "valloc", K::PageFault, {98}, kVirtualMemory, virtual_memory, "ProcessId", ""},
    {"pf", "vfree", K::PageFault, {99}, kVirtualMemory, virtual_memory, "ProcessId", ""},
    {"pf", "imgload", K::PageFault, {105}, kImageBacked, image_backed, "", ""},
};

} // namespace

std::span<const KernelProbe> pf_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
