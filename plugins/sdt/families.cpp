// families.cpp: the stable providers' family table (probe-families.md):
// the order here is the order of `dtrace -l`; new families go at the end.
#include "probe_family.h"

namespace dtrace::sdt {

std::span<const std::span<const StableProbe>> stable_families() {
    static const std::span<const StableProbe> kFamilies[] = {
        proc_family(), sched_family(), io_family(), net_family(), lockstat_family(),
    };
    return kFamilies;
}

} // namespace dtrace::sdt
