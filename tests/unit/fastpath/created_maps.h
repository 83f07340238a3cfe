// created_maps.h: a plan's maps created through the live plugins' loader
// (live/fastpath_loader.h), as the host creates them, for the tests that
// load generated programs and the ustack() walk's benchmark.
#pragma once

#include "fastpath/kernel_frame.h"
#include "fastpath_loader.h"

#include <string>
#include <vector>

namespace dtrace::test {

// Creates the maps `plan` asks for, their handles in `handles` in its order;
// the loader's error for the first it cannot create, else "".
inline std::string create_maps(live::FastpathLoader &loader, const fastpath::MapPlan &plan,
                               std::vector<int32_t> &handles) {
    for (const fastpath::MapSpec &m : plan.maps) {
        dtrace_bpf_map_spec spec{sizeof spec,  uint32_t(m.type), m.key_size,
                                 m.value_size, m.max_entries,    m.name.c_str()};
        std::string error;
        handles.push_back(loader.create_map(spec, error));
        if (handles.back() < 0)
            return error;
    }
    return "";
}

} // namespace dtrace::test
