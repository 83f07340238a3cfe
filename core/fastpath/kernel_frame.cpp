// kernel_frame.cpp: the maps every plan starts with (see kernel_frame.h).
#include "fastpath/kernel_frame.h"

namespace dtrace::fastpath {

MapPlan::MapPlan() {
    add("drops", MapSpec{DTRACE_BPF_MAP_PERCPU_ARRAY, 4, 8, 3, "dt_drops"});
    add("zero", MapSpec{DTRACE_BPF_MAP_ARRAY, 4, 8, 1, "dt_zero"}); // grows with the largest aggregation value
}

uint32_t MapPlan::add(const std::string &name, MapSpec spec) {
    maps.push_back(std::move(spec));
    const uint32_t index = static_cast<uint32_t>(maps.size() - 1);
    by_name[name] = index;
    return index;
}

} // namespace dtrace::fastpath
