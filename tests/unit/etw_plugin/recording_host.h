// recording_host.h: a stand-in for dtrace that records what the plugin does.
//
// The plugin's pieces talk to the host only through dtrace_host_ops, so the
// unit tests hand them this table instead of the real one: it keeps the
// providers and probes registered, every firing (arguments, context, and the
// bytes the memory reader serves at each argument, read while the firing is
// on), errors, drops and the end of input.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <dtrace/provider.h>

namespace dtrace::etw::test {

struct RegisteredProbe {
    std::string provider, module, function, name;
    uint32_t nargs = 0;
    uint64_t cookie = 0;
};

struct Firing {
    dtrace_probe_id probe = 0;
    std::vector<uint64_t> args;
    std::vector<std::vector<uint8_t>> memory; // what read_memory serves at each arg (up to kMemoryPeek bytes)
    uint32_t cpu = 0;
    uint64_t timestamp = 0, walltimestamp = 0;
    int64_t pid = 0, ppid = 0, tid = 0;
    std::string execname;
    uint64_t payload_size = 0;
    std::vector<uint64_t> kernel_stack, user_stack;
    uint32_t flags = 0;
};

class RecordingHost {
  public:
    static constexpr size_t kMemoryPeek = 256;

    RecordingHost();
    dtrace_host *host() { return reinterpret_cast<dtrace_host *>(this); }
    const dtrace_host_ops *ops() const { return &ops_; }

    // 0 when no such probe was registered.
    dtrace_probe_id probe(const std::string &provider, const std::string &module, const std::string &function,
                          const std::string &name) const;
    // The probe's full name, "provider:module:function:name".
    std::string probe_name(dtrace_probe_id id) const;
    // Waits (up to a generous timeout) until the plugin has said its input
    // ended; false on timeout. The plugin's thread writes the other members:
    // read them after this, or after the plugin's stop().
    bool wait_finished() const;

    // The firings of one probe.
    std::vector<Firing> firings_of(dtrace_probe_id id) const;

    std::vector<std::string> providers;
    std::vector<RegisteredProbe> probes; // probe id - 1
    std::vector<Firing> firings;
    std::vector<std::string> errors;
    std::vector<std::pair<uint64_t, dtrace_drop_kind>> drops;
    std::map<std::string, std::string> options;
    // What probe_usage answers for a probe (DTRACE_USAGE_* flags); a probe
    // not listed has no answer (-1), as from a host that cannot say.
    std::map<dtrace_probe_id, uint32_t> usage_flags;
    std::atomic<int> finished{0};

  private:
    static RecordingHost &of(dtrace_host *host) { return *reinterpret_cast<RecordingHost *>(host); }

    dtrace_host_ops ops_{};
};

} // namespace dtrace::etw::test
