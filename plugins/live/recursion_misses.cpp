// recursion_misses.cpp: reading the programs' recursion_misses.
#include "recursion_misses.h"

#include <algorithm>
#include <optional>

#include <bpf/bpf.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <unistd.h>

namespace dtrace::live {

namespace {

struct ProgramCounts {
    uint32_t id;
    uint64_t misses; // 0 on kernels before 5.12, whose info ends before it
};

std::optional<ProgramCounts> counts_of(int fd) {
    bpf_prog_info info{};
    uint32_t length = sizeof info;
    if (bpf_obj_get_info_by_fd(fd, &info, &length) != 0)
        return std::nullopt;
    return ProgramCounts{info.id, info.recursion_misses};
}

} // namespace

RecursionMisses::~RecursionMisses() {
    for (const Program &p : programs_)
        close(p.fd);
}

void RecursionMisses::watch(std::span<const int> program_fds) {
    std::lock_guard guard(lock_);
    for (int fd : program_fds) {
        const std::optional<ProgramCounts> counts = counts_of(fd);
        if (!counts ||
            std::any_of(programs_.begin(), programs_.end(), [&](const Program &p) { return p.id == counts->id; }))
            continue;
        const int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        if (own >= 0)
            programs_.push_back(Program{own, counts->id, counts->misses});
    }
}

uint64_t RecursionMisses::take() {
    std::lock_guard guard(lock_);
    uint64_t missed = 0;
    for (Program &p : programs_) {
        const std::optional<ProgramCounts> counts = counts_of(p.fd);
        if (!counts || counts->misses <= p.seen)
            continue;
        missed += counts->misses - p.seen;
        p.seen = counts->misses;
    }
    return missed;
}

} // namespace dtrace::live
