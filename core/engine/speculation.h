// speculation.h: speculative buffers (speculation(), speculate(), commit(),
// discard(); options nspec and specsize).
//
// There are `nspec` speculations, each with a buffer of `specsize` bytes per
// CPU. speculation() hands out an inactive one (ids 1..nspec; 0 when none is
// free, counted as a failed speculation); speculate(id) sends the rest of a
// clause's record to that speculation's buffer on the firing's CPU;
// commit(id) appends every CPU's speculative records to that CPU's principal
// buffer (all of a CPU's records, or a drop) and discard(id) forgets them;
// both make the speculation inactive again. Records that do not fit a
// speculative buffer are speculative drops, counted when it is committed
// (a discard forgets them, as DTrace's does). An id above nspec is an illegal
// operation; id 0 (a failed speculation()) silently does nothing.
//
// DTrace commits the other CPUs' buffers asynchronously and meanwhile
// reports speculation() as "busy"; probe context here is serialised, so a
// commit is complete when it returns and a speculation is never busy.
#pragma once

#include "engine/buffer.h"

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace dtrace::engine {

class Speculations {
  public:
    void configure(uint32_t count, size_t bytes_per_cpu);

    // speculation(): an id, or 0 (counted as unavailable).
    uint64_t acquire();
    // speculate(id): the buffer the clause's record goes to, or nullptr to
    // record nothing. `illegal` is set for an id no speculation has.
    PrincipalBuffer *buffer(uint64_t id, uint32_t cpu, bool &illegal);
    // commit(id) into `principal` (indexed by CPU), numbering the records
    // from `sequence`; discard(id). False for an illegal id.
    bool commit(uint64_t id, std::vector<PrincipalBuffer> &principal, uint64_t &sequence);
    bool discard(uint64_t id);

    // Counters since the last call: speculative drops, failed speculation() calls.
    uint64_t take_drops() { return std::exchange(drops_, 0); }
    uint64_t take_unavailable() { return std::exchange(unavailable_, 0); }

  private:
    struct Speculation {
        bool active = false;
        std::vector<PrincipalBuffer> cpus; // grown as CPUs speculate
    };
    Speculation *find(uint64_t id, bool &illegal);
    void release(Speculation &spec, bool count_drops);

    std::deque<Speculation> speculations_; // the ones handed out so far: a large nspec costs nothing up front
    uint64_t count_ = 0;                   // nspec
    size_t bytes_per_cpu_ = 0;
    uint64_t drops_ = 0;
    uint64_t unavailable_ = 0;
};

} // namespace dtrace::engine
