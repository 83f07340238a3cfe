// fastpath_attach.cpp: FastpathLoader's attachments of a generated program
// to an event of its own (see fastpath_loader.h): a perf event (a
// tracepoint's, a kprobe's) and a BPF link from the program to it, so that
// the event runs the program without the plugin's program and its tail call.
#include "fastpath_loader.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include <linux/perf_event.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>

#include "tracefs.h"

namespace dtrace::live {

namespace {

constexpr const char *kKprobePmu = "/sys/bus/event_source/devices/kprobe";

int open_perf_event(perf_event_attr &attr) {
    attr.size = sizeof attr;
    // On CPU 0 for every process, as libbpf opens them: the program runs on every CPU.
    return static_cast<int>(syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC));
}

// The kprobe PMU's event type and the bit of `config` that makes a
// kretprobe (its format/retprobe: "config:N").
bool kprobe_pmu(uint32_t &type, uint32_t &retprobe_bit, std::string &error) {
    Result<std::string> type_text = read_text_file(std::string(kKprobePmu) + "/type");
    Result<std::string> retprobe = read_text_file(std::string(kKprobePmu) + "/format/retprobe");
    if (!type_text || !retprobe) {
        error = !type_text ? type_text.error() : retprobe.error();
        return false;
    }
    const std::string::size_type colon = retprobe.value().find(':');
    if (colon == std::string::npos) {
        error = std::string(kKprobePmu) + "/format/retprobe is not config:N";
        return false;
    }
    type = static_cast<uint32_t>(std::strtoul(type_text.value().c_str(), nullptr, 10));
    retprobe_bit = static_cast<uint32_t>(std::strtoul(retprobe.value().c_str() + colon + 1, nullptr, 10));
    if (retprobe_bit >= 64) {
        error = std::string(kKprobePmu) + "/format/retprobe names no bit of config";
        return false;
    }
    return true;
}

} // namespace

int32_t FastpathLoader::link_to_event(int32_t program, int event_fd, uint64_t cookie, const std::string &event,
                                      std::string &error) {
    if (event_fd < 0) {
        error = "cannot open " + event + ": " + std::strerror(errno);
        return -1;
    }
    LIBBPF_OPTS(bpf_link_create_opts, opts);
    opts.perf_event.bpf_cookie = cookie;
    const int link_fd = bpf_link_create(program_fd(program), event_fd, BPF_PERF_EVENT, &opts);
    if (link_fd < 0) {
        error = "cannot attach a generated program to " + event + ": " + std::strerror(errno);
        close(event_fd);
        return -1;
    }
    links_.push_back({link_fd, event_fd});
    return static_cast<int32_t>(links_.size() - 1);
}

int32_t FastpathLoader::attach_tracepoint(int32_t program, const std::string &group, const std::string &event,
                                          uint64_t cookie, std::string &error) {
    Result<std::string> root = tracefs_root();
    if (program_fd(program) < 0 || !root) {
        error =
            program_fd(program) < 0 ? "attaching an unknown program (" + std::to_string(program) + ")" : root.error();
        return -1;
    }
    Result<std::string> id = read_text_file(root.value() + "/events/" + group + "/" + event + "/id");
    if (!id) {
        error = id.error();
        return -1;
    }
    perf_event_attr attr{};
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = std::strtoull(id.value().c_str(), nullptr, 10);
    return link_to_event(program, open_perf_event(attr), cookie, "tracepoint " + group + ":" + event, error);
}

int32_t FastpathLoader::attach_kprobe(int32_t program, const std::string &function, bool retprobe, uint64_t cookie,
                                      std::string &error) {
    uint32_t type = 0, retprobe_bit = 0;
    if (program_fd(program) < 0) {
        error = "attaching an unknown program (" + std::to_string(program) + ")";
        return -1;
    }
    if (!kprobe_pmu(type, retprobe_bit, error))
        return -1;
    perf_event_attr attr{};
    attr.type = type;
    attr.config = retprobe ? uint64_t{1} << retprobe_bit : 0;
    attr.config1 = reinterpret_cast<uint64_t>(function.c_str()); // the function's name
    attr.config2 = 0;                                            // at its first instruction
    return link_to_event(program, open_perf_event(attr), cookie,
                         std::string(retprobe ? "a kretprobe on " : "a kprobe on ") + function, error);
}

void FastpathLoader::detach(int32_t link) {
    if (link < 0 || static_cast<size_t>(link) >= links_.size())
        return;
    Link &l = links_[link];
    for (int *fd : {&l.link_fd, &l.event_fd})
        if (*fd >= 0) {
            close(*fd);
            *fd = -1;
        }
}

void FastpathLoader::detach_all() {
    for (size_t i = 0; i < links_.size(); i++)
        detach(static_cast<int32_t>(i));
}

} // namespace dtrace::live
