// speculation.cpp: speculative buffers (see speculation.h).
#include "engine/speculation.h"

namespace dtrace::engine {

void Speculations::configure(uint32_t count, size_t bytes_per_cpu) {
    speculations_.clear();
    count_ = count;
    bytes_per_cpu_ = bytes_per_cpu;
    drops_ = unavailable_ = 0;
}

uint64_t Speculations::acquire() {
    for (size_t i = 0; i < speculations_.size(); i++) {
        if (!speculations_[i].active) {
            speculations_[i].active = true;
            return i + 1;
        }
    }
    if (speculations_.size() < count_) {
        speculations_.emplace_back().active = true;
        return speculations_.size();
    }
    unavailable_++;
    return 0;
}

Speculations::Speculation *Speculations::find(uint64_t id, bool &illegal) {
    illegal = id > count_;
    if (id == 0 || illegal || id > speculations_.size()) // a legal id not handed out yet is inactive
        return nullptr;
    return &speculations_[id - 1];
}

PrincipalBuffer *Speculations::buffer(uint64_t id, uint32_t cpu, bool &illegal) {
    Speculation *spec = find(id, illegal);
    if (!spec || !spec->active)
        return nullptr;
    while (spec->cpus.size() <= cpu) {
        spec->cpus.emplace_back();
        spec->cpus.back().configure({bytes_per_cpu_});
    }
    return &spec->cpus[cpu];
}

// The speculation is inactive again. What did not fit its buffers counts
// as speculative drops when it is committed; a discard forgets those drops
// with the records, as DTrace's does.
void Speculations::release(Speculation &spec, bool count_drops) {
    for (PrincipalBuffer &b : spec.cpus) {
        const uint64_t dropped = b.clear();
        if (count_drops)
            drops_ += dropped;
    }
    spec.active = false;
}

bool Speculations::commit(uint64_t id, std::vector<PrincipalBuffer> &principal, uint64_t &sequence) {
    bool illegal = false;
    Speculation *spec = find(id, illegal);
    if (!spec || !spec->active)
        return !illegal;
    std::vector<uint8_t> records;
    for (size_t cpu = 0; cpu < spec->cpus.size() && cpu < principal.size(); cpu++) {
        if (spec->cpus[cpu].empty())
            continue;
        uint64_t drops = 0;
        spec->cpus[cpu].swap(records, drops);
        drops_ += drops;
        principal[cpu].append_records(records.data(), records.size(), sequence);
    }
    release(*spec, true);
    return true;
}

bool Speculations::discard(uint64_t id) {
    bool illegal = false;
    Speculation *spec = find(id, illegal);
    if (spec && spec->active)
        release(*spec, false);
    return !illegal;
}

} // namespace dtrace::engine
