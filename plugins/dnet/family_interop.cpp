// family_interop.cpp: dnet::interop, the IL stubs of P/Invoke and COM
// interop (DotNETRuntime, Interop keyword 0x2000).
//
// stub-gen ILStubGenerated (88), stub-hit ILStubCacheHit (89): netirop_t
// (the signatures and the stub's IL come with stub-gen only).
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kInterop[] = {
    {"clr_modid", "uint64_t", "ModuleID"},
    {"clr_stubid", "uint64_t", "StubMethodID"},
    {"clr_stubflags", "uint32_t", "StubFlags"},
    {"clr_mngitoken", "uint32_t", "ManagedInteropMethodToken"},
    {"clr_mim_namespace", "string", "ManagedInteropMethodNamespace"},
    {"clr_mim_name", "string", "ManagedInteropMethodName"},
    {"clr_mim_sig", "string", "ManagedInteropMethodSignature"},
    {"clr_nm_sig", "string", "NativeMethodSignature"},
    {"clr_stub_sig", "string", "StubMethodSignature"},
    {"clr_stub_code", "string", "StubMethodILCode"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetInterop = {"netirop", kInterop};

constexpr DnetProbe kRows[] = {
    {"interop", "stub-gen", ClrProvider::Runtime, {88}, &kNetInterop},
    {"interop", "stub-hit", ClrProvider::Runtime, {89}, &kNetInterop},
};

} // namespace

std::span<const DnetProbe> interop_family() {
    return kRows;
}

} // namespace dtrace::dnet
