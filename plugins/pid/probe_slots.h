// probe_slots.h: the pid provider's probes, one slot each.
//
// A slot's index is the probe's cookie and the uprobe cookie's slot (see
// live/bpf/uprobe_record.h). Slots live in fixed chunks that never move, so
// the ring's thread reads a slot by index while the control thread (or the
// ring's own thread, for a library loaded later) adds more.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <dtrace/provider.h>

#include "bpf/uprobe_record.h"
#include "elf_functions.h"
#include "kernel_filter.h"

namespace dtrace::pid {

enum class ProbeKind { Entry, Return, Offset };

// One load object of a traced process, its functions read once.
struct PidModule {
    std::string path;
    bool executable = false;
    std::string file_name; // the probes' module (libc.so.6)
    std::vector<std::string> aliases;
    std::unique_ptr<live::ElfFunctions> functions;
};

struct ProbeSlot {
    int64_t pid = 0;
    std::shared_ptr<const PidModule> module;
    const live::ElfFunction *function = nullptr;
    ProbeKind kind = ProbeKind::Entry;
    uint32_t offset = 0;           // Offset: the instruction's offset in the function
    std::vector<uint32_t> returns; // Return: offsets of the instructions that leave the function
    uint32_t nargs = 0;
    std::vector<std::string> arg_types; // D types from DWARF; empty: uint64_t each
    std::atomic<dtrace_probe_id> id{0};
    // Control thread only:
    bool enabled = false;
    bool attached = false;
    live::ProbeFilter filter;
    bool internal = false;                // the link-map hook: no probe of the engine's
    bool usage_known = false;             // learn_usage ran after its clauses were enabled
    bool wants_stack = false;             // ustack() and its kin: the user stack is copied
    bool wants_regs = false;              // uregs[]: the registers handed to D
    uint32_t string_args = 0;             // bit N: copyinstr(argN), copied at the event
    std::vector<live_fetch_step> fetches; // other memory the clauses read, fetched at the event
};

class ProbeSlots {
  public:
    static constexpr uint32_t kChunk = 1024;
    static_assert(UPROBE_MAX_SLOTS % kChunk == 0);

    // The slot of `key` (provider:module:function:name), made when new: its
    // index, or nothing when every slot is taken.
    std::optional<uint32_t> slot_for(const std::string &key, bool &created);
    ProbeSlot *get(uint32_t index) const;
    uint32_t count() const { return count_.load(std::memory_order_acquire); }

  private:
    std::mutex mutex_;
    std::unordered_map<std::string, uint32_t> by_key_;
    std::array<std::unique_ptr<ProbeSlot[]>, UPROBE_MAX_SLOTS / kChunk> chunks_;
    std::atomic<uint32_t> count_{0};
};

} // namespace dtrace::pid
