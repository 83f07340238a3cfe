// syscall_plugin.h: the syscall provider, live: syscall::<name>:entry and
// syscall::<name>:return for every system call of the running kernel.
//
// | probe                    | kernel event                    | arguments                            |
// |--------------------------|---------------------------------|--------------------------------------|
// | syscall::<name>:entry    | syscalls:sys_enter_<name>       | the call's, typed from its format    |
// | syscall::<name>:return   | syscalls:sys_exit_<name>        | arg0 = arg1 = return value (-1 on    |
// |                          |                                 | failure), errno set                  |
//
// The module is empty, as DTrace on Linux shows it. Probes are registered
// when a description names them (nothing of tracefs is read before), each
// with a probe slot: its cookie, the BPF attach cookie, and its index in
// the program's configuration map. Enabling a probe attaches the program
// to its tracepoint and arms its slot; the BPF object is loaded at the
// first enabling. Events reach fire() from one thread that drains the ring
// buffer (live/event_ring.h), in timestamp order.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <dtrace/provider.h>

#include "bpf_program_set.h"
#include "event_ring.h"
#include "kernel_filter.h"
#include "live_firing.h"
#include "syscall_catalog.h"

namespace dtrace::syscall {

class SyscallPlugin {
  public:
    SyscallPlugin(dtrace_host *host, const dtrace_host_ops *ops);
    ~SyscallPlugin();

    int init();
    int provide(const dtrace_probe_spec *spec);
    int enable(uint64_t cookie);
    void disable(uint64_t cookie);
    int start();
    void stop();

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

  private:
    struct ProbeSlot {
        std::string function;
        bool is_return = false;
        const SyscallShape *shape = nullptr;
        std::atomic<dtrace_probe_id> id{0};
        std::optional<size_t> attachment;
        live::ProbeFilter filter;
    };

    int fail(const std::string &message);
    bool register_call(const std::string &name, const char *name_pattern);
    std::optional<uint32_t> slot_for(const std::string &function, bool is_return);
    bool ensure_loaded();
    live_probe_config config_of(const ProbeSlot &slot) const;
    void deliver(std::span<const uint8_t> record);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    dtrace_provider_id provider_ = 0;
    SyscallCatalog catalog_;
    // Fixed storage: the ring thread reads slots while provide() adds more.
    std::unique_ptr<ProbeSlot[]> slots_;
    std::atomic<uint32_t> slot_count_{0};
    std::unique_ptr<live::BpfProgramSet> bpf_;
    std::unique_ptr<live::EventRing> ring_;
    live::LiveFiring firing_;
    bool started_ = false;
};

} // namespace dtrace::syscall
