// family_arm.cpp: dnet::arm, application domain resource monitoring
// (DotNETRuntime, AppDomainResourceManagement keyword 0x800).
//
// appdomain-mem-alloc AppDomainMemAllocated (83), appdomain-mem-survived
// AppDomainMemSurvived (84), thread-created ThreadCreated (85),
// thread-terminated ThreadTerminated (86), thread-domain-enter
// ThreadDomainEnter (87): netarm_t.
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kArm[] = {
    {"clr_appdomid", "uint64_t", "AppDomainID"},
    {"clr_allocated", "uint64_t", "Allocated"},
    {"clr_survived", "uint64_t", "Survived"},
    {"clr_procsurvived", "uint64_t", "ProcessSurvived"},
    {"clr_thrid", "uint64_t", "ManagedThreadID"},
    {"clr_flgs", "uint32_t", "Flags"},
    {"clr_mngthrindex", "uint32_t", "ManagedThreadIndex"},
    {"clr_osthrid", "uint32_t", "OSThreadID"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetArm = {"netarm", kArm};

constexpr ClrProvider kRuntime = ClrProvider::Runtime;

constexpr DnetProbe kRows[] = {
    {"arm", "appdomain-mem-alloc", kRuntime, {83}, &kNetArm},
    {"arm", "appdomain-mem-survived", kRuntime, {84}, &kNetArm},
    {"arm", "thread-created", kRuntime, {85}, &kNetArm},
    {"arm", "thread-terminated", kRuntime, {86}, &kNetArm},
    {"arm", "thread-domain-enter", kRuntime, {87}, &kNetArm},
};

} // namespace

std::span<const DnetProbe> arm_family() {
    return kRows;
}

} // namespace dtrace::dnet
