// family_lock.cpp: dnet::lock, contention on managed locks (DotNETRuntime,
// Contention keyword 0x4000).
//
// lck-wait ContentionStart (81), lck-done ContentionStop (91): netlck_t,
// lck_flags 0 for a managed lock, 1 for a native one. (Runtimes from .NET 8
// add the lock's address and the wait's duration in later versions of the
// events; the manifest here stops before them, so those events read with the
// fields it knows.)
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kLock[] = {
    {"lck_flags", "uint8_t", "ContentionFlags"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetLock = {"netlck", kLock};

constexpr DnetProbe kRows[] = {
    {"lock", "lck-wait", ClrProvider::Runtime, {81}, &kNetLock},
    {"lock", "lck-done", ClrProvider::Runtime, {91}, &kNetLock},
};

} // namespace

std::span<const DnetProbe> lock_family() {
    return kRows;
}

} // namespace dtrace::dnet
