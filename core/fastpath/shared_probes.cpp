// shared_probes.cpp: a program shared by probes (see shared_probes.h).
#include "fastpath/shared_probes.h"

#include <cstring>

namespace dtrace::fastpath {

using namespace bpf;

namespace {

uint32_t names_offset(uint32_t clauses) {
    return (4 * clauses + 7) / 8 * 8;
}

} // namespace

int16_t probe_name_offset(const MapPlan &plan, const SharedProgram &program, int which) {
    return static_cast<int16_t>(names_offset(program.clauses) + static_cast<uint32_t>(which) * plan.string_bytes);
}

void plan_shared_program(MapPlan &plan, SharedProgram &program) {
    const uint32_t bytes = names_offset(program.clauses) + 4 * plan.string_bytes;
    const std::string name = "probes" + std::to_string(plan.maps.size());
    program.map = plan.add(
        name, MapSpec{DTRACE_BPF_MAP_HASH, 4, bytes, static_cast<uint32_t>(program.probes.size()), "dt_" + name});
    for (const ProbeIdentity *probe : program.probes) {
        MapPlan::Entry entry{program.map, std::string(4, '\0'), std::string(bytes, '\0')};
        const uint32_t word = static_cast<uint32_t>(probe->word);
        std::memcpy(entry.key.data(), &word, 4);
        for (uint32_t i = 0; i < program.clauses && i < probe->epids.size(); i++)
            std::memcpy(entry.value.data() + 4 * i, &probe->epids[i], 4);
        const std::string *names[] = {&probe->provider, &probe->module, &probe->function, &probe->name};
        for (int which = 0; which < 4; which++)
            names[which]->copy(entry.value.data() + probe_name_offset(plan, program, which),
                               std::min<size_t>(names[which]->size(), plan.string_bytes - 1));
        plan.initial_entries.push_back(std::move(entry));
    }
}

void emit_probe_lookup(BpfEmitter &out, const ProbeShape &shape, const SharedProgram &program) {
    BpfEmitter::Label found = out.new_label();
    out.load(shape.probe_word_size == 8 ? kDw : kW, R1, R6, static_cast<int16_t>(shape.probe_word_offset));
    out.store(kW, R10, frame::kIndex, R1);
    out.load_map(R1, program.map);
    out.mov(R2, R10);
    out.alu_imm(kAdd, R2, frame::kIndex);
    out.call(Helper::MapLookupElem);
    out.jump_imm(kJne, R0, 0, found);
    out.mov_imm(R0, 0);
    out.exit();
    out.bind(found);
    out.store(kDw, R10, frame::kProbeInfo, R0);
}

} // namespace dtrace::fastpath
