// verifier_load.h: generated programs loaded through the live plugins'
// loader (live/fastpath_loader.h) as the host installs them, for the tests
// that put them before this kernel's verifier.
#pragma once

#include "compiled_clauses.h"
#include "created_maps.h"
#include "fastpath_loader.h"

#include <optional>
#include <string>
#include <vector>

namespace dtrace::test {

// Loads `insns` using `maps`; returns the verifier's log when it refuses.
inline std::optional<std::string> load_insns(live::FastpathLoader &loader, const std::vector<uint64_t> &insns,
                                             const std::vector<int32_t> &maps, uint32_t layout_flags = 0) {
    std::string log(1 << 20, '\0');
    dtrace_bpf_program p{
        sizeof p,   "fastpath_test",      insns.data(), uint32_t(insns.size()), uint32_t(maps.size()), maps.data(),
        log.data(), uint32_t(log.size()), layout_flags};
    if (loader.load_program(p) >= 0)
        return std::nullopt;
    return std::string(log.c_str());
}

// Compiles `source`, builds its program for `shape` with the maps it plans,
// and loads it as the host would; returns why not (the verifier's log).
inline std::optional<std::string> load_clauses(live::FastpathLoader &loader, const std::string &source,
                                               const fastpath::ProbeShape &shape) {
    auto program = compile_d(source);
    if (!program)
        return "does not compile";
    fastpath::MapPlan plan;
    plan.ring_bytes = 1u << 16;
    const fastpath::ProbeIdentity probe = test_probe(*program);
    const std::vector<uint64_t> insns = fastpath::build_program(plan, shape, clauses_of(*program), &probe);
    std::vector<int32_t> handles;
    if (std::string error = create_maps(loader, plan, handles); !error.empty())
        return error;
    return load_insns(loader, insns, handles, shape.context.flags);
}

} // namespace dtrace::test
