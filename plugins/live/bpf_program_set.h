// bpf_program_set.h: one BPF object of a live plugin, from load to teardown.
//
// The plugins' BPF programs are BPF C compiled at build time (clang -target
// bpf) and embedded in the plugin as bytes (embed_bpf.cmake); this class
// opens such an image with libbpf, sizes its ring buffer, sets its load-time
// settings, loads it (the verifier's log is part of the error when that
// fails) and attaches its programs to tracepoints, each attachment with a
// cookie (the probe slot the program reads its configuration from).
//
// Everything it creates in the kernel is owned by file descriptors held
// here: links are destroyed first, then the object (programs and maps).
// Nothing is pinned or written to tracefs, so even a process killed outright
// leaves nothing attached.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bpf/live_record.h"
#include "recursion_misses.h"
#include "result.h"

struct bpf_object;
struct bpf_link;
struct bpf_program;

namespace dtrace::live {

struct BpfLoadSettings {
    uint32_t ring_bytes = 0; // the ring buffer's size: a power of two, >= a page
    live_settings settings{};
    // Run on the opened object before it is loaded (set a program's BTF
    // attach target, leave programs out); false fails the load.
    std::function<bool(bpf_object *)> before_load;
    // Counts the skipped firings of the object's programs (nullptr: nobody reads them).
    RecursionMisses *misses = nullptr;
};

class BpfProgramSet {
  public:
    // name: the object's name in error messages ("syscall"). With
    // share_maps_with, the maps both objects define (the ring, the probe
    // configurations...) are that object's: one ring for both.
    static Result<std::unique_ptr<BpfProgramSet>> load(std::span<const uint8_t> image, const std::string &name,
                                                       const BpfLoadSettings &load_settings,
                                                       const BpfProgramSet *share_maps_with = nullptr);
    ~BpfProgramSet();
    BpfProgramSet(const BpfProgramSet &) = delete;
    BpfProgramSet &operator=(const BpfProgramSet &) = delete;

    // Attaches program `program` to tracepoint group:event with `cookie`.
    // Returns the attachment's index for detach().
    Result<size_t> attach_tracepoint(const std::string &program, const std::string &group, const std::string &event,
                                     uint64_t cookie);
    // Attaches program `program` to the entry (or, with `retprobe`, the
    // return) of kernel function `function` through the kprobe PMU, with
    // `cookie`. Returns the attachment's index for detach().
    Result<size_t> attach_kprobe(const std::string &program, const std::string &function, bool retprobe,
                                 uint64_t cookie);
    // Attaches BTF-typed tracing program `program` (fentry, fexit) to the
    // target it was loaded for, with `cookie`.
    Result<size_t> attach_trace(const std::string &program, uint64_t cookie);
    // Attaches program `program` where its section names (a BTF tracepoint,
    // "tp_btf/sched_switch"), without a cookie. Returns the attachment's index.
    Result<size_t> attach_program(const std::string &program);
    // Removes one attachment (idempotent).
    void detach(size_t attachment);
    // Removes every attachment: no program runs after this returns.
    void detach_all();

    // A program of the object; nullptr if it has none of that name.
    bpf_program *program(const std::string &name) const;
    // A map's file descriptor; -1 if the object has no such map.
    int map_fd(const std::string &map) const;
    // Writes one probe slot's configuration into live_probes.
    Status configure(uint32_t slot, const live_probe_config &config);

  private:
    BpfProgramSet() = default;
    std::string name_;
    bpf_object *object_ = nullptr;
    std::vector<bpf_link *> links_;
    int probes_fd_ = -1;
};

// Rounds a requested ring size to what the kernel accepts (a power of two
// of at least one page).
uint32_t ring_size_for(uint64_t requested_bytes);

} // namespace dtrace::live
