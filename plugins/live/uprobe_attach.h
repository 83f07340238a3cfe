// uprobe_attach.h: user-space probes through one BPF program (the pid
// provider's functions and instructions, USDT's probe sites).
//
// UprobeAttacher loads bpf/uprobe_events.bpf.c (its own ring, as
// BpfProgramSet loads any live object) and attaches it to sites: file
// offsets of one ELF file, each with a cookie (uprobe_record.h: the probe
// slot, and an instruction's offset in its function). The program then
// writes [live_record][captures][uprobe_tail][stack] per event (see
// uprobe_record.h); UprobeEvent splits such a record for the plugin.
//
// Where the kernel has uprobe_multi links (6.6 and later), the sites of one
// attach() call are one link: one system call for thousands of functions,
// and one file descriptor to close. Otherwise each site is one uprobe PMU
// perf event (what libbpf's bpf_program__attach_uprobe_opts makes). Either
// way a pid restricts the probes to that process (the kernel places the
// breakpoints in its address space only), and everything is owned by file
// descriptors: closing them (or dtrace dying) removes the probes.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bpf/uprobe_record.h"
#include "bpf_program_set.h"
#include "result.h"

namespace dtrace::live {

struct UprobeSite {
    uint64_t file_offset = 0; // of the probed instruction in the file
    uint64_t cookie = 0;      // uprobe_cookie(slot, offset in function)
};

inline uint64_t uprobe_cookie(uint32_t slot, uint32_t offset_in_function) {
    return static_cast<uint64_t>(offset_in_function) << 32 | slot;
}

// The kernel's uprobe PMU (its directory under /sys/bus/event_source/devices),
// what every uprobe attachment needs, whether by uprobe_multi link or PMU
// event.
inline constexpr const char *kUprobePmuDirectory = "/sys/bus/event_source/devices/uprobe";

// Done when `pmu_directory` exists; else an error saying that this kernel has
// no uprobes: USDT cannot trace here, pid falls back to ptrace breakpoints
// (pid/ptrace/ptrace_tracer.h), saying so with this error.
Status check_uprobes(const std::string &pmu_directory = kUprobePmuDirectory);

class UprobeAttacher {
  public:
    // settings: the ring's size and wakeup (before_load is the attacher's own).
    // Fails first, saying so, on a kernel without uprobes (check_uprobes).
    static Result<std::unique_ptr<UprobeAttacher>> load(const std::string &name, const BpfLoadSettings &settings);
    ~UprobeAttacher();
    UprobeAttacher(const UprobeAttacher &) = delete;
    UprobeAttacher &operator=(const UprobeAttacher &) = delete;

    // Attaches the program to every site of `path` in process `pid` (-1:
    // every process mapping the file). Returns the attachment's index. When
    // the kernel refuses the sites' uprobe_multi link (a site it cannot
    // probe), they are attached one by one instead, the sites it refuses
    // left out; `fallback`, if given, then says so (for -x fastpath=explain
    // and -x verbose).
    Result<size_t> attach(const std::string &path, int64_t pid, std::span<const UprobeSite> sites,
                          std::string *fallback = nullptr);
    // Removes one attachment (idempotent) / every one: no site fires after
    // detach_all() returns.
    void detach(size_t attachment);
    void detach_all();

    // Arms probe slot `slot` (< UPROBE_MAX_SLOTS) with a configuration;
    // slots configured alike share one entry of live_probes (and
    // uprobe_probes), of which there are LIVE_MAX_PROBES.
    Status configure(uint32_t slot, const live_probe_config &config, const uprobe_probe_config &uconfig);
    // Disarms a slot: its sites, still attached, emit nothing.
    void disarm(uint32_t slot);
    // Whether sites are attached with uprobe_multi links.
    bool uses_multi() const { return multi_; }
    // The attach type the program was loaded with (that of a program it tail-calls).
    uint32_t expected_attach_type() const;
    // The program that delivers an event a program of dtrace's declined as
    // without it (its way back, dtrace_fastpath_ops.fill_way_back): the
    // attached program but for its tail call into uprobe_fastpath.
    int declined_program_fd() const;
    BpfProgramSet &programs() { return *programs_; }

  private:
    // Writes the slots map's entry of `slot` unless it holds `configuration` already.
    Status set_slot(uint32_t slot, uint32_t configuration);
    UprobeAttacher() = default;
    Result<size_t> attach_multi(const std::string &path, int64_t pid, std::span<const UprobeSite> sites);
    Result<size_t> attach_each(const std::string &path, int64_t pid, std::span<const UprobeSite> sites);
    // One uprobe_multi link of `sites`: its file descriptor, or -1 with errno set.
    int link_multi(const std::string &path, int64_t pid, std::span<const UprobeSite> sites) const;
    // A link per site; a site the kernel refuses is left out and counted in `refused`.
    Result<size_t> attach_multi_each(const std::string &path, int64_t pid, std::span<const UprobeSite> sites,
                                     size_t &refused);

    struct Attachment {
        std::vector<int> link_fds;     // uprobe_multi links
        std::vector<bpf_link *> links; // one per site (uprobe PMU)
    };
    std::unique_ptr<BpfProgramSet> programs_;
    bool multi_ = false;
    int uprobe_probes_fd_ = -1;
    int slots_fd_ = -1;
    std::vector<Attachment> attachments_;
    // The configurations written so far, by their bytes; index i + 1 in the maps.
    std::vector<std::string> configurations_;
    // What each slot's entry of the slots map holds (0: disarmed), so that
    // arming a probe again with the same configuration writes nothing.
    std::vector<uint32_t> slot_configurations_;
};

// One uprobe event as the ring delivers it, split into its parts.
struct UprobeEvent {
    std::span<const uint8_t> live;    // live_record and captures: what LiveFiring reads
    bool has_tail = false;            // the probe asked for it (UPROBE_FLAG_TAIL)
    uprobe_tail tail{};               // copied out (the ring does not align it); zero without
    std::span<const uint8_t> fetched; // tail.fetch_bytes: what tail.fetched[] read (uprobe_record.h)
    std::span<const uint8_t> stack;   // tail->stack_size bytes from regs[UPROBE_REG_RSP]
};

// Splits `record`; false when it is not a whole uprobe record.
bool split_uprobe_event(std::span<const uint8_t> record, UprobeEvent &out);

} // namespace dtrace::live
