// event_memory.h: kernel memory read at the event.
//
// dtrace tells, for each probe, which kernel memory its clauses load from
// the event's values (dtrace_probe_usage.fetches: args[0]->f_path.dentry,
// then that dentry's d_name.name, then the string). fetch_plan_of() turns
// that into the plan the BPF programs run when the function is called
// (bpf/kernel_fetch.bpf.h); EventMemory answers the clause's loads from
// what the record brought back. A load the plan did not foresee is not
// answered here (the plugin then reads the kernel's memory as it is now,
// late); a load of an address the program could not read at the event is
// refused (-1: D's invalid address fault), as the load would have faulted
// then. The plan's reads of user addresses (copyin(), copyinstr(): the
// process's memory) are made at the event too; one the program could not
// make (a page not present: a BPF program cannot fault it in) is not
// answered here: it is read from the process, late.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include <dtrace/provider.h>

#include "bpf/fbt_record.h"

namespace dtrace::fbt {

// The BPF plan of a probe's fetches (nsteps 0: nothing to read). Steps
// the program cannot make at the event (a constant address below the
// kernel's half: a user-space symbol; an argument past the sixth) are left
// out, with those that build on them.
fbt_fetch_plan fetch_plan_of(const dtrace_probe_usage &usage);

// Adds to `plan` the user strings the clauses take of arguments
// (copyinstr(argN): usage.string_args), `length` bytes at most, read at the
// event with the plan's other steps, as far as it has room.
void add_user_strings(fbt_fetch_plan &plan, const dtrace_probe_usage &usage, uint32_t length);

class EventMemory {
  public:
    // A record's fetches: fetched[0 .. nfetched) with their bytes in data.
    EventMemory(std::span<const live_fetched> fetched, std::span<const uint8_t> data)
        : fetched_(fetched), data_(data) {}

    // Bytes copied (a string may stop at its NUL), -1 when the kernel address
    // could not be read at the event, nullopt when no fetch holds it.
    std::optional<int64_t> read(uint64_t address, void *buffer, size_t length) const;

  private:
    std::span<const live_fetched> fetched_;
    std::span<const uint8_t> data_;
};

} // namespace dtrace::fbt
