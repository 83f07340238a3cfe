// shared_probes.h: one program for many probes whose clauses name their
// probe (records carry the enabled probe id; probefunc and the others).
//
// A plugin whose probes tell themselves apart by a word of their context
// (dtrace_fastpath_probe.probe_word: the syscall number of a system call's
// tracepoint) lets such probes share a program: the program looks its
// probe's entry up in a hash map keyed by that word (filled by the
// installer through update_map) and keeps the entry's address in the frame
// (frame::kProbeInfo). An entry holds each clause's enabled probe id (u32,
// in clause order, padded to 8 bytes), then the probe's provider, module,
// function and name, MapPlan::string_bytes each, zero-padded. A firing
// whose word has no entry (a probe of the plugin's that the program does
// not serve) does nothing.
#pragma once

#include "fastpath/bpf_emitter.h"
#include "fastpath/kernel_frame.h"

#include <cstdint>
#include <vector>

namespace dtrace::fastpath {

using SharedProbeList = std::vector<const ProbeIdentity *>;

struct SharedProgram {
    SharedProbeList probes; // each with its probe_word
    uint32_t clauses = 0;
    uint32_t map = 0; // the probes' entries (plan_shared_program())
};

// Adds the map of `program`'s probe entries to the plan, with the entries
// the installer writes (MapPlan::initial_entries).
void plan_shared_program(MapPlan &plan, SharedProgram &program);

// Where the entry keeps the name `which` (0..3: provider, module, function, name).
int16_t probe_name_offset(const MapPlan &plan, const SharedProgram &program, int which);

// Finds the firing probe's entry by the word at `shape`'s probe_word_offset
// and keeps its address at frame::kProbeInfo; returns when there is none.
void emit_probe_lookup(BpfEmitter &out, const ProbeShape &shape, const SharedProgram &program);

} // namespace dtrace::fastpath
