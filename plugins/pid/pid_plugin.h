// pid_plugin.h: the pid provider, live: pid<PID>:<module>:<function>:entry,
// :return and :<offset> (hex) probes in a process, through uprobes
// (live/uprobe_attach.h).
//
// | probe          | fires at                                  | arguments                          |
// |----------------|-------------------------------------------|------------------------------------|
// | entry          | the function's first instruction          | arg0..arg5 the argument registers, |
// |                |                                           | arg6..arg9 from the stack          |
// | return         | each instruction that leaves the function | arg0 = its offset, arg1 = rax      |
// |                | (ret, a jmp out of it)                    |                                    |
// | <hex offset>   | the instruction at that offset            | none (uregs[])                     |
//
// Probes are made on demand (provide) for the process a description names
// (pid$target is pid<N>), in the modules and functions its fields match
// (process_modules.h, elf_functions.h). They are registered without
// argument types; arg_info gives them (DWARF where the module has it, else
// uint64_t). Enabling a probe arms its slot; its uprobes are attached in one
// batch per file at start (one uprobe_multi link for thousands of
// functions), or at once for a probe enabled after start. Events reach
// fire() from one thread that drains the ring (live/event_ring.h), or, for
// the probes whose clauses dtrace compiled to BPF, run that program in the
// kernel (pid_fastpath.cpp). Where uprobes are missing, int3 breakpoints
// under ptrace (ptrace/ptrace_tracer.h) fire the same records instead.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "dwarf_types.h"
#include "event_fetches.h"
#include "event_ring.h"
#include "fastpath_loader.h"
#include "fastpath_user_stacks.h"
#include "live_firing.h"
#include "live_options.h"
#include "probe_slots.h"
#include "ptrace/ptrace_tracer.h"
#include "stack_symbols.h"
#include "uprobe_attach.h"

namespace dtrace::pid {

class PidPlugin {
  public:
    PidPlugin(dtrace_host *host, const dtrace_host_ops *ops) : host_(host), ops_(ops), fastpath_(host, ops, &misses_) {}
    ~PidPlugin();

    int init();
    int provide(const dtrace_probe_spec *spec);
    int arg_info(dtrace_probe_id probe, uint64_t cookie, uint32_t index, dtrace_arg_desc *out);
    int enable(dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_probe_id probe, uint64_t cookie);
    int set_filters(dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters);
    int start();
    void stop();
    // A type of a traced program's DWARF ("struct request") D does not know.
    int lookup_type(const char *name, const dtrace_type_graph **out);
    int lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out);
    // A -c or -p target released by dtrace: the ptrace backend takes it over.
    void target_changed(int64_t pid, uint32_t state);

    // The in-kernel fast path (dtrace_fastpath_ops, pid_fastpath.cpp).
    int fastpath_layout(dtrace_probe_id probe, uint64_t cookie, dtrace_fastpath_probe &out);
    int32_t load_fastpath_program(const dtrace_bpf_program &program);
    int attach_fastpath_program(int32_t program, dtrace_probe_id probe, uint64_t cookie);
    // fill_user_stack_maps: the walk's maps get the probe's process's table.
    int fastpath_fill_user_stacks(dtrace_probe_id probe, uint64_t cookie, int32_t rows, int32_t blocks,
                                  int32_t mappings);
    // fill_way_back: the uprobe program that delivers an event the walk declined.
    int fastpath_fill_way_back(dtrace_probe_id probe, uint64_t cookie, int32_t program_array);
    live::FastpathLoader &fastpath_loader() { return fastpath_; } // maps and rings (plugin_entry.h)

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

  private:
    struct Process {
        dtrace_provider_id provider = 0;
        std::vector<std::shared_ptr<const PidModule>> modules;
        // The descriptions' module, function and name fields provided so
        // far: provided again when the process loads a library.
        std::vector<std::array<std::string, 3>> specs;
        bool hooked = false; // its dynamic linker's link-map hook is armed
    };

    int fail(const std::string &message);
    // The process's entry, its modules read again; its provider registered
    // unless `with_provider` is false.
    Process *process_for(int64_t pid, std::string &error, bool with_provider = true);
    std::shared_ptr<const PidModule> module_for(const std::string &path, bool executable);
    DwarfTypes *dwarf_for(const PidModule &module);
    // Registers the probes of `spec` in one module of a process.
    bool provide_module(int64_t pid, Process &process, const PidModule &module,
                        const std::shared_ptr<const PidModule> &shared, const dtrace_probe_spec &spec);
    bool add_probe(int64_t pid, Process &process, const std::shared_ptr<const PidModule> &module,
                   const std::string &module_name, const live::ElfFunction &function, const std::string &function_name,
                   ProbeKind kind, uint32_t offset, std::vector<uint32_t> returns);
    bool ensure_loaded();
    live_probe_config config_of(const ProbeSlot &slot) const;
    void learn_usage(dtrace_probe_id id, ProbeSlot &slot);
    bool arm(uint32_t index, ProbeSlot &slot);
    // Attaches the uprobes of every enabled slot not attached yet, one batch per file.
    bool attach_pending();
    bool explains() const;
    // Arms the uprobe that stops the process whenever its dynamic linker
    // changes its list of libraries (on_link_map).
    bool hook_link_map(int64_t pid, Process &process);
    // The process is stopped after loading or unloading libraries: learn
    // its mappings (stacks), make the probes the descriptions name in new
    // libraries, then let it go on.
    void on_link_map(int64_t pid);
    void refresh_libraries(int64_t pid);
    // The ptrace backend (ptrace/pid_ptrace.cpp): where uprobes are missing
    // (`why`, said once), or asked for with -x pidbackend=ptrace.
    bool load_ptrace(const std::string &why);
    void arm_ptrace(uint32_t index, const ProbeSlot &slot);
    int start_ptrace();
    void deliver(std::span<const uint8_t> record);
    // Writes the walk's table again after the marks disabled it (fastpath_user_stacks.h).
    void follow_user_stack_marks();
    // A clause's read of the process: from what the event fetched, else the process now.
    static int64_t read_event_memory(void *state, uint64_t address, void *buffer, size_t length);
    // The slot's generated program, if any, no longer runs.
    void detach_fastpath_program(uint32_t slot);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    // processes_, modules_ and enabling: the control thread and the ring's
    // (a library loaded later); recursive, as provide() registers probes
    // that the host enables at once.
    std::recursive_mutex mutex_;
    std::map<int64_t, Process> processes_;
    std::map<std::string, std::shared_ptr<const PidModule>> modules_; // by path
    std::map<std::string, std::unique_ptr<DwarfTypes>> dwarf_;        // by module path; nullptr: none
    ProbeSlots slots_;
    std::vector<uint32_t> pending_; // enabled, not attached yet
    live::LiveOptions options_;
    live::RecursionMisses misses_; // of every program below, read by ring_
    std::unique_ptr<live::UprobeAttacher> uprobes_;
    std::unique_ptr<ptrace_backend::PtraceTracer> ptrace_; // instead of uprobes_
    // Declared after uprobes_ on purpose (members are destroyed in reverse
    // order): the generated programs and their maps close before the uprobe
    // object whose uprobe_fastpath array tail-calls them and whose links
    // stop() has detached. Keep this order.
    live::FastpathLoader fastpath_;
    live::UserStackTable user_stack_table_; // the walk's maps' process (refresh_libraries)
    std::unique_ptr<live::EventRing> ring_;
    live::LiveFiring firing_;
    EventFetches event_fetches_; // the event being fired's
    live::stacks::StackSymbols stacks_;
    std::string demangled_; // lookup_symbol's last function name
    bool started_ = false;
};

} // namespace dtrace::pid
