// traced_process.h: one process traced by fpid: its shared memory with the
// agent (hook table, rings), its hooks, loading the agent, and reading the
// records its threads wrote.
//
// Hooks are added while probes are enabled (one per function; a function's
// entry and return probes share it). attach() publishes the table and loads
// the agent (ptrace + dlopen: injector.h). When the process loads or unloads
// libraries, the agent waits (link_map_changed()) while hooks in the new
// ones are added, then answer_link_map() places them and marks those whose
// library has gone, and the agent patches them. detach() asks the agent to
// restore the original bytes and waits for it (a process that has gone
// needs nothing). drain() reads what the rings hold, in time stamp order
// across threads, and hands each record on; the mapping stays until the
// object goes, so records of a process that crashed or exited are read too.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fpid_shm.h"
#include "function_index.h"
#include "result.h"
#include "ring_reader.h"

namespace dtrace::fpid {

class TracedProcess {
  public:
    TracedProcess(int64_t pid, bool grabbed) : pid_(pid), grabbed_(grabbed) {}
    ~TracedProcess();
    TracedProcess(const TracedProcess &) = delete;
    TracedProcess &operator=(const TracedProcess &) = delete;

    int64_t pid() const { return pid_; }
    // The hook of `function` (made on first use) with `flags` added; its
    // index. Once attached, new hooks are taken only while the agent waits
    // for the answer to a change of the library list.
    live::Result<uint32_t> hook(const TracedFunction &function, uint32_t flags);
    bool has_hooks() const { return !hooks_.empty(); }

    // -c: runs the process to its entry point, once (its libraries are
    // loaded and their constructors have run, which may have dlopen'ed
    // more); nothing for a grabbed process (this thread traces it).
    live::Status run_to_entry_point();
    // Creates the shared memory, places the hooks (-c: once the process has
    // run to its entry point), fills the table and loads the agent (this
    // thread traces the process). With `link_map_hook` (the dynamic
    // linker's function called at each change of its library list) the
    // agent follows dlopen and dlclose.
    live::Status attach(const std::string &agent_path, uint32_t ring_bytes, uint32_t stack_frames,
                        const std::optional<TracedFunction> &link_map_hook);
    // The process loaded or unloaded libraries and its agent waits for answer_link_map().
    bool link_map_changed() const;
    // Places the hooks added since in the libraries now mapped, marks those
    // whose library is no longer mapped, and lets the agent patch them.
    void answer_link_map();
    // The hooks placed by answer_link_map() that the agent refused since the
    // last call, each with the agent's reason.
    std::vector<std::string> late_refusals();
    // Asks the agent to unhook and waits for it (at most a second).
    void detach();
    void set_exited() { exited_ = true; }

    // Hands every record written so far to `deliver`, in time stamp order;
    // returns the records lost since the last call (full rings, threads past the last ring).
    uint64_t drain(const std::function<void(const Hit &)> &deliver);

  private:
    struct HookSlot {
        TracedFunction function;
        uint32_t flags;
        uint64_t address = 0; // where it was placed in the process; 0: not (its library is not mapped)
    };
    live::Status create_shared_memory(uint32_t ring_bytes);
    live::Status fill_hook_table(const std::optional<TracedFunction> &link_map_hook);
    void place(uint32_t index, uint64_t address);
    fpid_ring *ring(uint32_t index) const;
    void read_ring(uint32_t index, std::vector<Hit> &out);

    int64_t pid_;
    bool grabbed_;
    bool at_entry_ = false; // run_to_entry_point() has run
    bool exited_ = false;
    std::vector<HookSlot> hooks_;
    std::vector<uint32_t> placed_late_; // by answer_link_map(), not yet seen patched or refused
    std::string shm_name_;
    fpid_shm *shm_ = nullptr;
    uint64_t shm_size_ = 0;
    uint64_t drops_seen_ = 0;
    uint64_t ring_bytes_ = 0; // ours: the process could change the shared copy
    std::vector<uint64_t> tails_ = std::vector<uint64_t>(FPID_MAX_RINGS, 0); // ours, likewise
};

} // namespace dtrace::fpid
