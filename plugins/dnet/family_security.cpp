// family_security.cpp: dnet::security, the loader's verification of
// assemblies (DotNETRuntime, Security keyword 0x400; .NET Framework).
//
// strongname-start, strongname-done StrongNameVerificationStart/Stop (181,
// 182), authenticode-start, authenticode-done AuthenticodeVerification
// Start/Stop (183, 184): netsec_t, clr_name the assembly's name or the
// module's path.
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kStrongName[] = {
    {"clr_verflags", "uint32_t", "VerificationFlags"},
    {"clr_errcode", "uint32_t", "ErrorCode"},
    {"clr_name", "string", "FullyQualifiedAssemblyName"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetStrongName = {"netsec", kStrongName};

// The same members over Authenticode's fields: one D type, two twins.
constexpr DnetMember kAuthenticode[] = {
    {"clr_verflags", "uint32_t", "VerificationFlags"},
    {"clr_errcode", "uint32_t", "ErrorCode"},
    {"clr_name", "string", "ModulePath"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetAuthenticode = {"netsec", kAuthenticode};

constexpr ClrProvider kRuntime = ClrProvider::Runtime;

constexpr DnetProbe kRows[] = {
    {"security", "strongname-start", kRuntime, {181}, &kNetStrongName},
    {"security", "strongname-done", kRuntime, {182}, &kNetStrongName},
    {"security", "authenticode-start", kRuntime, {183}, &kNetAuthenticode},
    {"security", "authenticode-done", kRuntime, {184}, &kNetAuthenticode},
};

} // namespace

std::span<const DnetProbe> security_family() {
    return kRows;
}

} // namespace dtrace::dnet
