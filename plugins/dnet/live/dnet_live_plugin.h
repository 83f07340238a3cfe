// dnet_live_plugin.h: the dnet plugin (dnet.so): the dnet probes over a
// live .NET process, through the runtime's diagnostics IPC (EventPipe).
//
// Replays (-E) are the etw plugin's, which fires the same probes over .etl
// and .nettrace files (plugins/etw/replay_families.cpp); this plugin is not
// loaded then. Live, the probes trace the session's target: they are
// registered when there is one (-p PID, or -c of a .NET program), and
// start() opens an EventPipe session with it for the enabled probes
// (live_session.h). A -c program is started with dtrace's diagnostic port
// in its environment (ipc/reverse_port.h): a .NET runtime then waits at its
// startup until the session is on, and its first events are seen; without
// dnet probes enabled it is resumed when tracing starts. Without a target there are no dnet probes, and a script
// naming them gets dtrace's "does not match any probes" with a hint naming
// this plugin.
#pragma once

#include <cstdint>
#include <memory>

#include <dtrace/provider.h>

#include "dnet_probes.h"
#include "live_session.h"

namespace dtrace::dnet::live {

class DnetLivePlugin {
  public:
    DnetLivePlugin(dtrace_host *host, const dtrace_host_ops *ops) : host_(host), ops_(ops) {}

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

    // Nothing to do: the D library goes with the probes, which exist only
    // for a target (a session without one compiles no dnet library).
    int init() { return 0; }
    int provide(const dtrace_probe_spec *) { return 0; }
    int enable(dtrace_probe_id, uint64_t cookie);
    void disable(dtrace_probe_id, uint64_t cookie);
    void target_changed(int64_t pid, uint32_t state);
    // -c: the program will connect to a diagnostic port of ours.
    void offer_diagnostic_port(int64_t pid);
    int start();
    void stop();

  private:
    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    DnetProbes probes_;
    bool registered_ = false;
    std::unique_ptr<ipc::ReversePort> port_; // before session_, which uses it
    std::unique_ptr<LiveSession> session_;
};

} // namespace dtrace::dnet::live
