// family_event.cpp: dnet::event, the runtime's start and its exceptions.
//
// runtime RuntimeInformationStart (DotNETRuntime 187, logged at session
// start whatever the keywords) and the rundown's RuntimeInformationDCStart
// (Rundown 187): netrt_t, clr_guid the address of the COM object GUID's 16
// bytes. excp ExceptionThrown (80, Exception keyword 0x8000): netexcp_t.
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kRuntimeInfo[] = {
    {"clr_instid", "uint16_t", "ClrInstanceID"},    {"clr_sku", "uint16_t", "Sku"},
    {"clr_msmaj", "uint16_t", "BclMajorVersion"},   {"clr_msmin", "uint16_t", "BclMinorVersion"},
    {"clr_msbld", "uint16_t", "BclBuildNumber"},    {"clr_msfix", "uint16_t", "BclQfeNumber"},
    {"clr_clrmaj", "uint16_t", "VMMajorVersion"},   {"clr_clrmin", "uint16_t", "VMMinorVersion"},
    {"clr_clrbld", "uint16_t", "VMBuildNumber"},    {"clr_clrfix", "uint16_t", "VMQfeNumber"},
    {"clr_startflags", "uint32_t", "StartupFlags"}, {"clr_startmode", "uint8_t", "StartupMode"},
    {"clr_cmdline", "string", "CommandLine"},       {"clr_guid", "uintptr_t", "ComObjectGuid"},
    {"clr_clrpath", "string", "RuntimeDllPath"},
};
constexpr DnetType kNetRuntime = {"netrt", kRuntimeInfo};

constexpr DnetMember kException[] = {
    {"clr_excep", "string", "ExceptionType"},    {"clr_excepmsg", "string", "ExceptionMessage"},
    {"clr_ip", "uint64_t", "ExceptionEIP"},      {"clr_res", "uint32_t", "ExceptionHRESULT"},
    {"clr_flags", "uint16_t", "ExceptionFlags"}, {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetException = {"netexcp", kException};

constexpr DnetProbe kRows[] = {
    {"event", "runtime", ClrProvider::Runtime, {187}, &kNetRuntime},
    {"event", "runtime", ClrProvider::Rundown, {187}, &kNetRuntime},
    {"event", "excp", ClrProvider::Runtime, {80}, &kNetException},
};

} // namespace

std::span<const DnetProbe> event_family() {
    return kRows;
}

} // namespace dtrace::dnet
