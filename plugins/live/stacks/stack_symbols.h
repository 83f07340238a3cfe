// stack_symbols.h: the one stack and symbol helper of the live plugins.
//
// Every live plugin (profile's sampler, pmc, pid, fpid) unwinds and names
// stacks through this class, so their stack(), ustack(), sym(), usym() and
// friends print identically. It owns what that needs: the kernel's symbols
// (/proc/kallsyms, loaded at the first kernel lookup), the mappings of every
// process seen (learnt from /proc or from the kernel's mmap/exec records, and
// kept after the process exits), and the ELF images of mapped files (symbol
// tables and CFI, one per build-id).
//
// Threads: the plugin's event thread unwinds and feeds mappings while the
// consumer's thread names addresses; every method is thread-safe, but
// lookup() writes its answer's strings into this object (valid until the next
// lookup, as the SDK's lookup_symbol allows), so it has one caller at a time.
#pragma once

#include "cfi_unwinder.h"
#include "image_cache.h"
#include "kernel_symbols.h"
#include "mapping_tracker.h"
#include "process_maps.h"

#include <dtrace/provider.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>

namespace dtrace::live::stacks {

class StackSymbols {
  public:
    ProcessMaps &maps() { return maps_; }
    // The ELF images of mapped files (also the in-kernel walk's rows: live/fastpath_user_stacks.h).
    ImageCache &images() { return images_; }

    // The user stack of a sample of process `pid`: program counters,
    // innermost first, into `out`; returns how many.
    size_t unwind_user(int64_t pid, const UserRegs &regs, StackCopy stack, std::span<uint64_t> out);

    // How many of a kernel stack's innermost frames belong to the tracing
    // machinery that ran a BPF program (its helpers, the tracepoint's
    // dispatch), not to the code that hit the probe.
    size_t tracing_frames(std::span<const uint64_t> kernel_stack);
    // Loads the kernel's symbols now, before tracing starts: loading them at
    // the first event would hold up the events behind it while the
    // processes whose user stacks they carry run on (and may exit).
    void load_kernel_symbols() { (void)kernel_.lookup(0); }

    // Follows every process's mappings from the kernel's records from now
    // on (mapping_tracker.h), for a plugin whose programs copy user stacks
    // that are unwound after the process may have exited. False with
    // `error` when the kernel refuses the events.
    bool follow_mappings(std::string &error);
    // Brings the followed mappings up to an event at `time` (ns of
    // CLOCK_MONOTONIC, bpf_ktime_get_ns()), before its user stack is unwound.
    void catch_up(uint64_t time);

    // The SDK's lookup_symbol: fills `out` (module, function, offset) for an
    // address of the kernel (DTRACE_SYMBOL_KERNEL) or of process `pid`.
    bool lookup(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out);

  private:
    // The image and link-time address of a user address of `pid`.
    std::shared_ptr<ElfImage> locate(int64_t pid, uint64_t address, uint64_t &link_address, std::string *path);

    KernelSymbols kernel_;
    ProcessMaps maps_;
    ImageCache images_;
    std::mutex tracker_mutex_; // follow_mappings() runs while events are unwound
    std::unique_ptr<MappingTracker> tracker_;
    std::string module_, function_; // the last lookup's answer
};

// The module name DTrace prints for a mapped file: its base name.
std::string module_name(const std::string &path);

} // namespace dtrace::live::stacks
