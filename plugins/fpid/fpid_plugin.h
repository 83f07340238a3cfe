// fpid_plugin.h: the fpid provider: fpid<PID>:<module>:<function>:entry and
// :return for the session's target processes (-c, -p), through inline hooks
// an agent loaded into the process patches into function prologues.
//
// | probe                         | fires                    | arguments                        |
// |-------------------------------|--------------------------|----------------------------------|
// | fpid<PID>:<module>:<fn>:entry | at the function's entry  | arg0..arg5: the argument registers |
// | fpid<PID>:<module>:<fn>:return| when it returns          | arg0 0, arg1 the return value    |
//
// A probe's module is the file's name (the executable's, each shared
// object's mapped or about to be when the description is read); a
// description may name it "a.out", by soname or without its version
// ("libc"), which the engine matches as the probe's module aliases. Probes are made when a
// description names them; a function whose prologue cannot be relocated is
// refused then (by name) or left out with a note (by a glob). What a hook
// cannot give, it does not pretend to: no memory of the process is readable
// (copyin and kin are refused at compile time; curpsinfo and curlwpsinfo are
// built from the hit and /proc, as the live plugins build them), arg0 at
// return is 0 (the return trampoline runs after the function's ret: which
// ret it was is gone). vtimestamp is the thread's CPU time where a clause
// reads it (a system call at each hit), else timestamp.
//
// Libraries loaded later (dlopen): the agent stops the thread that loaded
// one until the drain thread has made the probes the session's descriptions
// name in it (the engine enables them as they are registered) and added
// their hooks; the agent patches them before dlopen returns.
//
// Threads: the control thread provides, enables and (in start) loads the
// agent; one drain thread polls the rings every millisecond, answers the
// agent's link-map requests and fires.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include <dtrace/provider.h>

#include "function_index.h"
#include "process_info.h"
#include "stack_symbols.h"
#include "traced_process.h"
#include "tsc_clock.h"

namespace dtrace::fpid {

class FpidPlugin {
  public:
    FpidPlugin(dtrace_host *host, const dtrace_host_ops *ops) : host_(host), ops_(ops) {}
    ~FpidPlugin();

    int init();
    int provide(const dtrace_probe_spec *spec);
    int enable(dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_probe_id, uint64_t) {} // hooks stay until the session ends (README)
    int start();
    void stop();
    void target_changed(int64_t pid, uint32_t state);
    int lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out);

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

  private:
    struct Provider {
        int64_t pid;
        dtrace_provider_id id;
        std::unique_ptr<TracedProcess> process;
        std::vector<std::pair<uint64_t, uint64_t>> hook_probes; // per hook: the entry and return probes' cookies
        std::vector<std::array<std::string, 3>> specs;          // the descriptions provided: module, function, name
        std::set<std::string> modules_provided;                 // the modules they were provided in
        // The process's context, read when the agent is loaded.
        std::string execname;
        int64_t ppid = -1, uid = -1, gid = -1;
    };
    struct ProbeSlot {
        Provider *provider;
        TracedFunction function;
        bool is_return;
        dtrace_probe_id id = 0;
    };

    int fail(const std::string &message);
    Provider *provider_for(int64_t pid, bool grabbed);
    // The probes `spec` names in the process's modules but those of `skip`.
    int provide_process(Provider &provider, const dtrace_probe_spec &spec, const std::set<std::string> &skip = {});
    void drain_loop();
    void drain_once();
    // The process changed its list of libraries: probes and hooks in the new ones.
    void on_link_map(Provider &provider);
    // The session's descriptions provided again in the modules the process has mapped since.
    void provide_new_modules(Provider &provider);
    void fire(const Provider &provider, const Hit &hit);
    void read_context(Provider &provider);
    void record_what_is_read(Provider &provider);
    // dtrace_event_ctx.read_memory of a firing: the records behind curpsinfo
    // and curlwpsinfo, nothing of the process (-1).
    static int64_t read_process_records(void *state, uint64_t address, void *buffer, size_t length);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    std::vector<std::unique_ptr<Provider>> providers_;
    std::vector<ProbeSlot> slots_;              // by cookie
    std::unordered_set<std::string> slot_keys_; // "pid:address" + probe name, of the slots made
    std::unique_ptr<TscClock> clock_;
    live::stacks::StackSymbols symbols_;
    FunctionIndex functions_;
    std::string demangled_; // the last lookup_symbol's function name
    // The drain thread's: curpsinfo and curlwpsinfo of the firing, built from
    // a live record made of the hit (the uprobe path's records, which the
    // BPF program fills).
    live_record firing_record_{};
    live::ProcessInfo process_info_;
    std::mutex drain_mutex_; // the drain thread's passes, and the one at a target's exit
    std::thread drainer_;
    std::atomic<bool> stopping_{false};
    bool started_ = false;
};

} // namespace dtrace::fpid
