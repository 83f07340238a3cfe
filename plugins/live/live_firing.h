// live_firing.h: one ring record as the event context fire() takes.
//
// Every live event carries the process context the BPF program captured in
// the kernel (pid, ppid, tid, uid, gid, execname, errno, vtimestamp,
// curthread) and the CPU and monotonic timestamp; walltimestamp is derived
// from the timestamp with the offset between the two clocks. D's reads of
// the traced process (copyin, copyinstr, and the translators behind
// curpsinfo and curlwpsinfo) go through read(): first the psinfo records,
// then the argument memory the program copied at the event (a path as the
// call saw it), then the live process through process_vm_readv, which
// fails (a D fault) when the memory is gone.
#pragma once

#include <cstdint>
#include <span>

#include <dtrace/provider.h>

#include "bpf/live_record.h"
#include "process_info.h"

namespace dtrace::live {

class LiveFiring {
  public:
    LiveFiring();

    // Fills ctx for `record` (a live_record with its captures, valid until
    // the firing ends) with nargs arguments. Returns false for a record
    // that is not whole.
    bool prepare(std::span<const uint8_t> record, uint32_t nargs, dtrace_event_ctx &ctx);

    // The record's bytes after its captures: the stack tail, if the
    // program appended one (record_stacks.h).
    std::span<const uint8_t> stack_tail() const { return stack_tail_; }

    // dtrace_memory_read_fn over a LiveFiring.
    static int64_t read(void *state, uint64_t address, void *buffer, size_t length);

  private:
    int64_t read_memory(uint64_t address, uint8_t *buffer, size_t length);
    // The captured bytes at address, if a capture covers it: how many it
    // gave (0 when none covers it); whole_string when they end a string
    // captured with its NUL (nothing after it needs reading).
    size_t read_captured(uint64_t address, uint8_t *buffer, size_t length, bool &whole_string) const;

    live_record record_{};
    std::span<const uint8_t> captures_;
    std::span<const uint8_t> stack_tail_;
    uint64_t wall_offset_ = 0; // CLOCK_REALTIME minus CLOCK_MONOTONIC
    ProcessInfo process_info_;
};

} // namespace dtrace::live
