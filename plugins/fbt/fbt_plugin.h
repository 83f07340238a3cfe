// fbt_plugin.h: the fbt provider, live: fbt:<module>:<function>:entry and
// fbt:<module>:<function>:return for the kernel's traceable functions
// (function_catalog.h), typed from BTF (kernel_btf.h).
//
// | probe                  | kernel event               | arguments                                  |
// |------------------------|----------------------------|--------------------------------------------|
// | fbt:mod:func:entry     | fentry (else kprobe) on it | the function's, typed from its prototype   |
// | fbt:mod:func:return    | fexit (else kretprobe)     | arg0 = return offset (return_offset.h),    |
// |                        |                            | arg1 = the return value, typed as it       |
//
// Probes are registered when a description names them (nothing is read at
// startup; `dtrace -l -P fbt` registers them all). A probe's cookie is its
// function's index in the catalog times two, plus one for return; enabling
// it gives it a slot (the BPF attach cookie and its index in the program's
// configuration map) and attaches an fentry/fexit program loaded for its
// function where the kernel allows it, else a kprobe through the kprobe PMU. A
// kernel without kprobes (CONFIG_KPROBES off) lists and types every probe,
// and enabling says that it lacks them. The firing carries the kernel stack
// (first frame: the probed function, as DTrace on Linux prints it) and the
// kernel memory the clauses load, read at the event (event_memory.h); D's
// other reads of kernel memory go through kernel_memory.h, late.
//
// The plugin also answers for the kernel's types (lookup_type: BTF, one
// struct at a time, btf_type_graph.h) and symbols (lookup_kernel_symbol:
// the address from kallsyms, the type from BTF; lookup_symbol: names
// kernel addresses for stack(), sym(), func(), mod()).
//
// Clauses dtrace compiles to BPF run in the kernel, dtrace's program on the
// probe's own kprobe (fbt_fastpath.cpp, docs/fastpath.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <dtrace/provider.h>

#include "bpf_program_set.h"
#include "btf_type_graph.h"
#include "btf_type_names.h"
#include "event_memory.h"
#include "event_ring.h"
#include "fastpath_loader.h"
#include "function_catalog.h"
#include "kernel_btf.h"
#include "kernel_filter.h"
#include "kernel_memory.h"
#include "kernel_symbols.h"
#include "live_firing.h"
#include "live_options.h"
#include "module_watcher.h"
#include "return_offset.h"

namespace dtrace::fbt {

// A probe's cookie is its function's index times two, plus one for return.
inline bool is_return(uint64_t cookie) {
    return (cookie & 1) != 0;
}

class FbtPlugin {
  public:
    FbtPlugin(dtrace_host *host, const dtrace_host_ops *ops);
    ~FbtPlugin();

    int init();
    int provide(const dtrace_probe_spec *spec);
    int arg_info(dtrace_probe_id probe, uint64_t cookie, uint32_t index, dtrace_arg_desc *out);
    int enable(dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_probe_id probe, uint64_t cookie);
    int set_filters(dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters);
    int start();
    void stop();
    int lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out);
    int lookup_type(const char *name, const dtrace_type_graph **out);
    int lookup_kernel_symbol(const char *module, const char *name, dtrace_kernel_symbol *out);

    // The in-kernel fast path (dtrace_fastpath_ops, fbt_fastpath.cpp).
    int fastpath_layout(dtrace_probe_id probe, uint64_t cookie, dtrace_fastpath_probe &out);
    int attach_fastpath_program(int32_t program, dtrace_probe_id probe, uint64_t cookie);
    live::FastpathLoader &fastpath_loader() { return fastpath_; } // maps and rings (plugin_entry.h)

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

  private:
    struct ProbeSlot {
        uint64_t cookie = 0;
        std::atomic<dtrace_probe_id> id{0};
        uint32_t nargs = 0;
        bool enabled = false;
        std::optional<size_t> attachment;
        live::ProbeFilter filter;
        // The fentry/fexit object of this probe's function; null: a kprobe.
        std::unique_ptr<live::BpfProgramSet> trampoline;
        // A return probe's arg0 (return_offset.h; 0: unknown), once a clause reads it.
        uint32_t return_offset = 0;
        // dtrace's program on the probe's own kprobe (fastpath_'s link), its
        // clauses run in the kernel; -1: none (fbt_fastpath.cpp).
        int32_t fastpath_link = -1;
    };
    // How probes attach (-x fbtattach): fentry/fexit where the kernel allows
    // them, else kprobes (Auto), or only one of the two.
    enum class AttachMode { Auto, Kprobe, Fentry };

    int fail(const std::string &message);
    const KernelFunction *function_of(uint64_t cookie) const;
    // The function's prototype, or a generic one when BTF has none.
    FunctionPrototype prototype_of(const KernelFunction &function);
    bool register_probe(uint64_t cookie);
    std::optional<uint32_t> slot_for(uint64_t cookie);
    bool ensure_loaded(uint64_t cookie);
    live_probe_config config_of(const ProbeSlot &slot) const;
    live::Result<size_t> attach(ProbeSlot &slot, const KernelFunction &f, uint32_t index);
    // Attaches the enabled slots that dtrace's programs do not run (at start).
    bool attach_pending();
    live::Result<std::unique_ptr<live::BpfProgramSet>> load_trampoline(const KernelFunction &f, bool is_return);
    // The kprobe (kretprobe) program on f, with `cookie` (bpf/fbt_events.bpf.c).
    live::Result<size_t> attach_kprobe(const KernelFunction &f, bool is_return, uint64_t cookie);
    // Removes the slot's program from its function (fentry/fexit or kprobe),
    // and dtrace's.
    void detach(ProbeSlot &slot);
    // Why dtrace's programs cannot run at the slot's probe; null: they can.
    const char *fastpath_unavailable(const ProbeSlot *slot) const;
    // The stack without the BPF trampoline's frames at its top.
    uint32_t skip_trampoline_frames(const uint64_t *stack, uint32_t depth);
    void deliver(std::span<const uint8_t> record);
    void add_module(const std::string &module);
    int open_ring();
    int write_fetch_plan(dtrace_probe_id probe, uint32_t index);
    static int64_t read_memory(void *state, uint64_t address, void *buffer, size_t length);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    dtrace_provider_id provider_ = 0;
    FunctionCatalog catalog_;
    const std::vector<KernelFunction> *functions_ = nullptr;
    std::vector<dtrace_probe_id> probe_ids_; // per cookie; 0: not registered
    KernelBtf btf_;
    BtfTypeGraph type_graph_;
    BtfTypeNames type_names_;
    std::string answer_; // the last arg_info or lookup_kernel_symbol type
    std::string symbol_module_, symbol_function_;
    live::stacks::KernelSymbols kernel_symbols_;
    // Fixed storage: the ring thread reads slots while enable() adds more.
    std::unique_ptr<ProbeSlot[]> slots_;
    std::atomic<uint32_t> slot_count_{0};
    std::unordered_map<uint64_t, uint32_t> slot_of_cookie_;
    live::LiveOptions options_;
    live::RecursionMisses misses_; // of every program below, read by ring_
    std::unique_ptr<live::BpfProgramSet> bpf_;
    // Declared after bpf_ on purpose (members are destroyed in reverse
    // order): the generated programs and their links close before the
    // kprobe object whose live_fastpath array tail-calls them.
    live::FastpathLoader fastpath_;
    std::unique_ptr<live::EventRing> ring_;
    live::LiveFiring firing_;
    KernelMemory kernel_memory_;
    // The firing's record (filled by deliver(), on the ring thread) and
    // the kernel memory its BPF program read at the event.
    std::unique_ptr<fbt_record> record_;
    std::optional<EventMemory> event_memory_;
    ReturnOffsets return_offsets_{
        [this](uint64_t address, void *buffer, size_t length) { return kernel_memory_.read(address, buffer, length); }};
    // The descriptions provide() was asked for, matched against the
    // functions of modules loaded while tracing (module_watcher.h).
    struct Description {
        std::string module, function, name;
    };
    std::vector<Description> descriptions_;
    std::unique_ptr<ModuleWatcher> module_watcher_;
    AttachMode attach_mode_ = AttachMode::Auto;
    bool trampolines_work_ = true; // until one fails to load or attach (Auto)
    bool started_ = false;
};

} // namespace dtrace::fbt
