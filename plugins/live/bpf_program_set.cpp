// bpf_program_set.cpp: loading, attaching and tearing down a BPF object.
#include "bpf_program_set.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace dtrace::live {

namespace {

constexpr size_t kVerifierLogTail = 2048; // bytes of libbpf's log kept for an error

// libbpf prints its warnings to stderr by default; a load that fails should
// instead say why in its error, and a load that works should print nothing.
// The log is process-wide (libbpf's print hook is), so it is guarded.
std::mutex g_log_lock;
std::string g_log;

int capture_libbpf_log(enum libbpf_print_level level, const char *format, va_list args) {
    if (level == LIBBPF_DEBUG)
        return 0;
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, format, again);
    va_end(again);
    if (n <= 0)
        return n;
    std::string text(static_cast<size_t>(n) + 1, '\0');
    std::vsnprintf(text.data(), text.size(), format, args);
    text.pop_back();
    std::lock_guard guard(g_log_lock);
    g_log += text;
    if (g_log.size() > 4 * kVerifierLogTail)
        g_log.erase(0, g_log.size() - kVerifierLogTail);
    return n;
}

void start_log() {
    static std::once_flag once;
    std::call_once(once, [] { libbpf_set_print(capture_libbpf_log); });
    std::lock_guard guard(g_log_lock);
    g_log.clear();
}

std::string log_tail() {
    std::lock_guard guard(g_log_lock);
    std::string tail = g_log.size() > kVerifierLogTail ? g_log.substr(g_log.size() - kVerifierLogTail) : g_log;
    while (!tail.empty() && tail.back() == '\n')
        tail.pop_back();
    return tail.empty() ? "" : "\n" + tail;
}

bpf_map *find_map_ending(bpf_object *object, const char *suffix) {
    bpf_map *map = nullptr;
    bpf_object__for_each_map(map, object) {
        std::string name = bpf_map__name(map);
        if (name.size() >= std::strlen(suffix) && name.ends_with(suffix))
            return map;
    }
    return nullptr;
}

} // namespace

uint32_t ring_size_for(uint64_t requested_bytes) {
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    constexpr uint64_t kMaxRing = 1ull << 30;
    uint64_t size = page;
    while (size < requested_bytes && size < kMaxRing)
        size <<= 1;
    return static_cast<uint32_t>(size);
}

Result<std::unique_ptr<BpfProgramSet>> BpfProgramSet::load(std::span<const uint8_t> image, const std::string &name,
                                                           const BpfLoadSettings &load_settings,
                                                           const BpfProgramSet *share_maps_with) {
    start_log();
    std::unique_ptr<BpfProgramSet> set(new BpfProgramSet());
    set->name_ = name;
    LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = name.c_str());
    set->object_ = bpf_object__open_mem(image.data(), image.size(), &opts);
    if (set->object_ == nullptr)
        return Error{"cannot open the " + name + " BPF object: " + std::strerror(errno) + log_tail()};
    bpf_map *ring = bpf_object__find_map_by_name(set->object_, "live_events");
    bpf_map *rodata = find_map_ending(set->object_, ".rodata");
    if (ring == nullptr || rodata == nullptr)
        return Error{"the " + name + " BPF object has no live_events ring or settings"};
    if (bpf_map__set_max_entries(ring, ring_size_for(load_settings.ring_bytes)) != 0 ||
        bpf_map__set_initial_value(rodata, &load_settings.settings, sizeof load_settings.settings) != 0)
        return Error{"cannot size the " + name + " BPF ring buffer: " + std::strerror(errno) + log_tail()};
    if (share_maps_with != nullptr) {
        bpf_map *map = nullptr;
        bpf_object__for_each_map(map, set->object_) {
            const int shared = bpf_map__is_internal(map) ? -1 : share_maps_with->map_fd(bpf_map__name(map));
            if (shared >= 0 && bpf_map__reuse_fd(map, shared) != 0)
                return Error{"cannot share map " + std::string(bpf_map__name(map)) + " with the " + name +
                             " BPF object: " + std::strerror(errno)};
        }
    }
    if (load_settings.before_load && !load_settings.before_load(set->object_))
        return Error{"cannot prepare the " + name + " BPF object: " + std::strerror(errno) + log_tail()};
    if (bpf_object__load(set->object_) != 0) {
        int e = errno;
        return Error{"cannot load the " + name + " BPF programs: " + std::strerror(e) + log_tail()};
    }
    set->probes_fd_ = set->map_fd("live_probes");
    if (load_settings.misses != nullptr) {
        std::vector<int> programs;
        bpf_program *program = nullptr;
        bpf_object__for_each_program(program, set->object_) {
            if (bpf_program__fd(program) >= 0)
                programs.push_back(bpf_program__fd(program));
        }
        load_settings.misses->watch(programs);
    }
    return set;
}

BpfProgramSet::~BpfProgramSet() {
    detach_all();
    if (object_ != nullptr)
        bpf_object__close(object_);
}

Result<size_t> BpfProgramSet::attach_tracepoint(const std::string &program, const std::string &group,
                                                const std::string &event, uint64_t cookie) {
    bpf_program *prog = bpf_object__find_program_by_name(object_, program.c_str());
    if (prog == nullptr)
        return Error{"the " + name_ + " BPF object has no program " + program};
    LIBBPF_OPTS(bpf_tracepoint_opts, opts, .bpf_cookie = cookie);
    bpf_link *link = bpf_program__attach_tracepoint_opts(prog, group.c_str(), event.c_str(), &opts);
    if (link == nullptr) {
        int e = errno;
        return Error{"cannot attach to tracepoint " + group + ":" + event + ": " + std::strerror(e)};
    }
    links_.push_back(link);
    return links_.size() - 1;
}

Result<size_t> BpfProgramSet::attach_kprobe(const std::string &program, const std::string &function, bool retprobe,
                                            uint64_t cookie) {
    bpf_program *prog = bpf_object__find_program_by_name(object_, program.c_str());
    if (prog == nullptr)
        return Error{"the " + name_ + " BPF object has no program " + program};
    LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = cookie, .retprobe = retprobe);
    bpf_link *link = bpf_program__attach_kprobe_opts(prog, function.c_str(), &opts);
    if (link == nullptr) {
        int e = errno;
        return Error{"cannot attach a " + std::string(retprobe ? "kretprobe" : "kprobe") + " to " + function + ": " +
                     std::strerror(e)};
    }
    links_.push_back(link);
    return links_.size() - 1;
}

Result<size_t> BpfProgramSet::attach_trace(const std::string &program, uint64_t cookie) {
    bpf_program *prog = bpf_object__find_program_by_name(object_, program.c_str());
    if (prog == nullptr)
        return Error{"the " + name_ + " BPF object has no program " + program};
    LIBBPF_OPTS(bpf_trace_opts, opts, .cookie = cookie);
    bpf_link *link = bpf_program__attach_trace_opts(prog, &opts);
    if (link == nullptr) {
        int e = errno;
        return Error{"cannot attach " + program + " of the " + name_ + " BPF object: " + std::strerror(e)};
    }
    links_.push_back(link);
    return links_.size() - 1;
}

Result<size_t> BpfProgramSet::attach_program(const std::string &program) {
    bpf_program *prog = bpf_object__find_program_by_name(object_, program.c_str());
    if (prog == nullptr)
        return Error{"the " + name_ + " BPF object has no program " + program};
    bpf_link *link = bpf_program__attach(prog);
    if (link == nullptr) {
        int e = errno;
        return Error{"cannot attach the " + name_ + " BPF program " + program + " (" + bpf_program__section_name(prog) +
                     "): " + std::strerror(e)};
    }
    links_.push_back(link);
    return links_.size() - 1;
}

void BpfProgramSet::detach(size_t attachment) {
    if (attachment < links_.size() && links_[attachment] != nullptr) {
        bpf_link__destroy(links_[attachment]);
        links_[attachment] = nullptr;
    }
}

void BpfProgramSet::detach_all() {
    for (size_t i = 0; i < links_.size(); ++i)
        detach(i);
}

bpf_program *BpfProgramSet::program(const std::string &name) const {
    return bpf_object__find_program_by_name(object_, name.c_str());
}

int BpfProgramSet::map_fd(const std::string &map) const {
    bpf_map *m = bpf_object__find_map_by_name(object_, map.c_str());
    return m == nullptr ? -1 : bpf_map__fd(m);
}

Status BpfProgramSet::configure(uint32_t slot, const live_probe_config &config) {
    if (slot >= LIVE_MAX_PROBES)
        return Error{"probe slot " + std::to_string(slot) + " is beyond the " + std::to_string(LIVE_MAX_PROBES) +
                     " the " + name_ + " BPF object has"};
    if (bpf_map_update_elem(probes_fd_, &slot, &config, BPF_ANY) != 0)
        return Error{"cannot configure probe slot " + std::to_string(slot) + ": " + std::strerror(errno)};
    return Done{};
}

} // namespace dtrace::live
