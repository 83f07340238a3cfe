// usdt_plugin.h: USDT probes, live: <provider><pid>:<module>:<function>:<name>
// for every static probe (`.note.stapsdt`, stapsdt_notes.h) of a process's
// executable and libraries.
//
// Probes are made when a description names a process (python$target is
// python<N>; a description naming no pid, and `dtrace -l -p N` without one,
// looks at the session's targets). The process's files are those it maps
// executable, and for a -c command stopped at exec the libraries its
// dynamic linker is about to load (live/modules/process_modules.h): uprobes
// are placed by file and offset, so a library's probes fire once it maps.
// A probe's name is the note's with "__" as "-", its module the file's
// name, its function the symbol holding the site; one probe has every site
// of that name in that function. Arguments come from the notes' specs
// (arg_spec.h), typed as the provider's definition declares them where the
// file carries it (linked with our dtrace -G object) or one is installed
// (provider_definitions.h), else int32_t, uint64_t ... by their size and
// signedness.
//
// Enabling a probe arms one slot of the uprobe program per site (each site
// has its own argument places: uprobe_usdt_arg), attaches its sites, and adds
// one to each semaphore (semaphores.h), taken away again when it is disabled
// or tracing stops; a semaphore of a library not mapped yet is raised when
// it maps. The program copies the arguments where the notes say, and the
// strings of the first two 64-bit unsigned arguments (which may be char *)
// at the event, for copyinstr().
//
// While tracing, a uprobe on each traced process's dynamic linker
// (live::link_map_hook: _dl_debug_state, called after every change of its
// list of libraries) stops the process; the plugin reads its mappings, a
// library loaded since (dlopen) gets its probes registered (the engine
// enables those its enablings match) and its pending semaphores raised, and
// the process goes on (SIGCONT), before the library's code has run.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "elf_image.h"
#include "event_ring.h"
#include "live_firing.h"
#include "live_options.h"
#include "provider_definitions.h"
#include "stapsdt_notes.h"
#include "uprobe_attach.h"

namespace dtrace::usdt {

class UsdtPlugin {
  public:
    UsdtPlugin(dtrace_host *host, const dtrace_host_ops *ops);
    ~UsdtPlugin();

    int init() { return 0; }
    int provide(const dtrace_probe_spec *spec);
    int enable(dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_probe_id probe, uint64_t cookie);
    int start();
    void stop();

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

  private:
    struct Module {
        std::string path, name; // name: the file's, as probes show it
        FileProbes probes;
        std::shared_ptr<live::stacks::ElfImage> image; // function names
    };
    struct Process {
        std::map<std::string, dtrace_provider_id> providers;
        std::vector<const Module *> modules;
        bool hooked = false; // its dynamic linker's link-map hook is attached
    };
    // One probe site armed as its own slot of the uprobe program (or the
    // link-map hook of a process: probe kLinkMapHook).
    struct Site {
        static constexpr uint32_t kLinkMapHook = UINT32_MAX;
        uint32_t probe = 0;
        const Module *module = nullptr;
        const ProbeSite *site = nullptr;
    };
    struct Probe {
        int64_t pid = 0;
        std::vector<uint32_t> sites; // indexes in sites_ (their slots)
        uint32_t nargs = 0;
        std::vector<DefinedType> arg_types;
        std::atomic<dtrace_probe_id> id{0};
        bool enabled = false;
        std::vector<size_t> attachments;
        std::vector<std::pair<const Module *, uint64_t>> semaphores; // raised while enabled
        std::vector<std::pair<const Module *, uint64_t>> pending;    // to raise once their file maps
    };

    int fail(const std::string &message);
    std::vector<int64_t> pids_for(const dtrace_probe_spec *spec) const;
    Process *process_for(int64_t pid);
    const Module *module_for(const std::string &path);
    std::string function_of(const Module &module, uint64_t address) const;
    // Registers the probes of `modules` (of process `pid`) that `spec` matches (nullptr: all).
    bool register_sites(int64_t pid, Process &process, const std::vector<const Module *> &modules,
                        const dtrace_probe_spec *spec);
    bool add_probe(int64_t pid, Process &process, const std::string &key, const std::string &provider,
                   const std::vector<Site> &sites, const std::string &function, const std::string &name);
    // The types the provider's definition declares for `site`'s probe: the
    // file's own (our -G object), else an installed one; nullptr: none, or
    // one that disagrees with the notes on the number of arguments (reported).
    const std::vector<DefinedType> *definition_types(const Module &module, const ProbeSite &site);
    bool ensure_loaded();
    bool arm_site(uint32_t index);
    void raise_semaphore(Probe &probe, const Module *module, uint64_t offset);
    void lower_semaphores(Probe &probe);
    // Makes a slot of the next site index (false when there is none left).
    bool add_site(const Site &site, uint32_t &slot);
    // Attaches the uprobe that stops the process at each change of its list of libraries.
    bool hook_link_map(int64_t pid, Process &process);
    // The process is stopped after its dynamic linker changed its list of
    // libraries: the probes of new libraries, pending semaphores; then SIGCONT.
    void on_link_map(int64_t pid);
    void deliver(std::span<const uint8_t> record);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    InstalledDefinitions definitions_;
    // provide, enable, disable, the watcher: recursive because registering
    // a probe late makes the engine enable it from inside the registration.
    std::recursive_mutex mutex_;
    std::map<std::string, std::unique_ptr<Module>> modules_; // by path
    std::map<int64_t, Process> processes_;
    std::map<std::string, uint32_t> probe_by_key_;      // "provider:module:function:name"
    std::set<std::pair<std::string, uint64_t>> placed_; // (probe key, site address): sites registered
    // Fixed storage: the ring thread reads them while provide() adds more.
    std::unique_ptr<Probe[]> probes_;
    std::atomic<uint32_t> probe_count_{0};
    std::unique_ptr<Site[]> sites_;
    std::atomic<uint32_t> site_count_{0};
    live::LiveOptions options_;
    live::RecursionMisses misses_; // of every program below, read by ring_
    std::unique_ptr<live::UprobeAttacher> uprobes_;
    std::unique_ptr<live::EventRing> ring_;
    live::LiveFiring firing_;
    bool started_ = false;
};

} // namespace dtrace::usdt
