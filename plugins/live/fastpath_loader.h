// fastpath_loader.h: the plugin's side of the in-kernel fast path
// (dtrace_fastpath_ops, docs/fastpath.md): creates the maps dtrace asks
// for, loads the BPF programs it generated (the maps' file descriptors put
// into their map loads), and reads maps back. Which events run a program is
// the plugin's business: the syscall plugin puts it in its objects'
// live_fastpath program array at the probe's slot (program_fd()), or
// attaches it to the probe's tracepoint itself (attach_tracepoint()); fbt
// to the probe's kprobe (attach_kprobe(), fastpath_attach.cpp).
//
// Every map and program is owned by a file descriptor held here, closed by
// the destructor: nothing is pinned, nothing outlives the process.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "recursion_misses.h"

struct ring_buffer;

namespace dtrace::live {

class FastpathLoader {
  public:
    FastpathLoader() = default;
    // Reporting its errors to dtrace through `ops` (the SDK entries below),
    // and the firings the kernel skips in its programs to `misses`.
    FastpathLoader(dtrace_host *host, const dtrace_host_ops *ops, RecursionMisses *misses)
        : host_(host), ops_(ops), misses_(misses) {}
    ~FastpathLoader();
    FastpathLoader(const FastpathLoader &) = delete;
    FastpathLoader &operator=(const FastpathLoader &) = delete;

    // Fills the task_struct (and cred) offsets of `layout` (those its
    // struct_size covers) from the kernel's BTF; left 0 when the BTF does
    // not say.
    static void describe_task(dtrace_fastpath_probe &layout);
    // A function's arguments at its entry as a kprobe or uprobe program sees
    // them in struct pt_regs (DTRACE_FASTPATH_ARG_FIELDS): arg0..arg5 the
    // SysV argument registers, 8 bytes each; `nargs` arguments, those past
    // the sixth the words above the return address when the stack is user
    // memory (`user_stack`: a uprobe's), else left unread in the kernel.
    static void register_arguments(dtrace_fastpath_probe &layout, uint32_t nargs, bool user_stack);

    // A handle (>= 0), or -1 with `error` set.
    int32_t create_map(const dtrace_bpf_map_spec &spec, std::string &error);
    // Programs are loaded as this kind from now on: the kind of the
    // plugin's own program that tail-calls them (the kernel calls only a
    // program of the caller's type and attach type). By default a tracepoint
    // program; the uprobe plugins' are kprobe programs (uprobe_multi's attach type).
    void set_program_kind(uint32_t program_type, uint32_t expected_attach_type);
    // A handle (>= 0), or -1 with the reason (the verifier's log) in program.log.
    // A tracepoint program, or a raw tracepoint's (DTRACE_FASTPATH_RAW_TRACEPOINT in layout_flags).
    int32_t load_program(const dtrace_bpf_program &program);
    // The program's file descriptor; -1 for an unknown handle.
    int program_fd(int32_t program) const;
    // Attaches `program` to tracepoint group:event itself (it then runs for
    // each event without the plugin's program and its tail call): a link
    // handle (>= 0), or -1 with `error` set. Its bpf_get_attach_cookie() is `cookie`.
    int32_t attach_tracepoint(int32_t program, const std::string &group, const std::string &event, uint64_t cookie,
                              std::string &error);
    // The same on a kprobe at `function`'s entry, or a kretprobe at its
    // returns: a kprobe program, whose bpf_get_attach_cookie() is `cookie`.
    int32_t attach_kprobe(int32_t program, const std::string &function, bool retprobe, uint64_t cookie,
                          std::string &error);
    // Removes one such attachment (idempotent), or all of them.
    void detach(int32_t link);
    void detach_all();
    // Calls fn for each entry of the map; false with `error` set.
    bool read_map(int32_t map, dtrace_bpf_map_entry_fn fn, void *arg, std::string &error) const;
    // Sets one entry of a map; false with `error` set.
    bool update_map(int32_t map, const void *key, const void *value, std::string &error);
    // fill_way_back's write: `program_fd` (the plugin's program without its
    // tail call; -1: not loaded) as the one entry of the walk's way-back
    // program array. False when it cannot be written.
    bool set_way_back(int32_t program_array, int program_fd);
    // A map's file descriptor (batched writes, sharing with another object); -1 for an unknown handle.
    int map_fd(int32_t map) const;
    // Calls fn for each record waiting in a ring map, and frees it; false with `error` set.
    bool read_ring(int32_t map, dtrace_bpf_ring_record_fn fn, void *arg, std::string &error);

    // The same as dtrace_fastpath_ops' entries, which plugin_entry.h calls
    // here through the plugin's fastpath_loader() (a loader made with the
    // host): -1 after reporting why to dtrace.
    int32_t create_map(const dtrace_bpf_map_spec &spec);
    int read_map(int32_t map, dtrace_bpf_map_entry_fn fn, void *arg);
    int update_map(int32_t map, const void *key, const void *value);
    int read_ring(int32_t map, dtrace_bpf_ring_record_fn fn, void *arg);

  private:
    int report(const std::string &error) const;
    // Links `program` to the perf event `event_fd` (closed on failure; -1:
    // its opening failed, errno says why) named `event` in errors.
    int32_t link_to_event(int32_t program, int event_fd, uint64_t cookie, const std::string &event, std::string &error);

    dtrace_host *host_ = nullptr;
    const dtrace_host_ops *ops_ = nullptr;
    RecursionMisses *misses_ = nullptr;
    // Where a ring's records go during one read_ring().
    struct RingReader {
        dtrace_bpf_ring_record_fn fn = nullptr;
        void *arg = nullptr;
    };
    struct Map {
        int fd = -1;
        dtrace_bpf_map_spec spec{};
        ring_buffer *ring = nullptr; // a ring map's reader, made at its first read
        std::unique_ptr<RingReader> reader;
    };
    std::vector<Map> maps_;
    std::vector<int> programs_;
    // attach_tracepoint()'s and attach_kprobe()'s links and their perf events (-1: detached).
    struct Link {
        int link_fd = -1, event_fd = -1;
    };
    std::vector<Link> links_;
    uint32_t program_type_ = 5; // BPF_PROG_TYPE_TRACEPOINT
    uint32_t expected_attach_type_ = 0;
};

} // namespace dtrace::live
