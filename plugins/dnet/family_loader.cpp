// family_loader.cpp: dnet::loader, application domains, assemblies and
// modules (DotNETRuntime, Loader keyword 0x8).
//
// appdomain-load, appdomain-unload AppDomainLoad/Unload (156, 157):
// netappdom_t; assembly-load, assembly-unload AssemblyLoad/Unload (154,
// 155): netassm_t; module-load, module-unload ModuleLoad/Unload (152, 153):
// netmodule_t (the PDB signatures are the addresses of their 16 bytes);
// module-range ModuleRangeLoad (158, PerfTrack keyword 0x20000000):
// netmodrange_t.
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kAppDomain[] = {
    {"clr_appdomid", "uint64_t", "AppDomainID"},   {"clr_appdomflgs", "uint32_t", "AppDomainFlags"},
    {"clr_appdomname", "string", "AppDomainName"}, {"clr_appdomindex", "uint32_t", "AppDomainIndex"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetAppDomain = {"netappdom", kAppDomain};

constexpr DnetMember kAssembly[] = {
    {"clr_assmid", "uint64_t", "AssemblyID"},
    {"clr_appdmid", "uint64_t", "AppDomainID"},
    {"clr_bindid", "uint64_t", "BindingID"},
    {"clr_assmflgs", "uint32_t", "AssemblyFlags"},
    {"clr_assmname", "string", "FullyQualifiedAssemblyName"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetAssembly = {"netassm", kAssembly};

constexpr DnetMember kModule[] = {
    {"clr_modid", "uint64_t", "ModuleID"},
    {"clr_assmid", "uint64_t", "AssemblyID"},
    {"clr_modflgs", "uint32_t", "ModuleFlags"},
    {"clr_reserved", "uint32_t", "Reserved1"},
    {"clr_modilpath", "string", "ModuleILPath"},
    {"clr_modnativepath", "string", "ModuleNativePath"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
    {"clr_mngpdb_guid", "uintptr_t", "ManagedPdbSignature"},
    {"clr_mngpdb_age", "uint32_t", "ManagedPdbAge"},
    {"clr_mngpdb_path", "string", "ManagedPdbBuildPath"},
    {"clr_nativepdb_guid", "uintptr_t", "NativePdbSignature"},
    {"clr_nativepdb_age", "uint32_t", "NativePdbAge"},
    {"clr_nativepdb_path", "string", "NativePdbBuildPath"},
};
constexpr DnetType kNetModule = {"netmodule", kModule};

constexpr DnetMember kModuleRange[] = {
    {"clr_instid", "uint16_t", "ClrInstanceID"},  {"clr_modid", "uint64_t", "ModuleID"},
    {"clr_rangebegin", "uint32_t", "RangeBegin"}, {"clr_rangesize", "uint32_t", "RangeSize"},
    {"clr_rangetype", "uint8_t", "RangeType"},
};
constexpr DnetType kNetModuleRange = {"netmodrange", kModuleRange};

constexpr ClrProvider kRuntime = ClrProvider::Runtime;

constexpr DnetProbe kRows[] = {
    {"loader", "appdomain-load", kRuntime, {156}, &kNetAppDomain},
    {"loader", "appdomain-unload", kRuntime, {157}, &kNetAppDomain},
    {"loader", "assembly-load", kRuntime, {154}, &kNetAssembly},
    {"loader", "assembly-unload", kRuntime, {155}, &kNetAssembly},
    {"loader", "module-load", kRuntime, {152}, &kNetModule},
    {"loader", "module-unload", kRuntime, {153}, &kNetModule},
    {"loader", "module-range", kRuntime, {158}, &kNetModuleRange},
};

} // namespace

std::span<const DnetProbe> loader_family() {
    return kRows;
}

} // namespace dtrace::dnet
