// hit_record.cpp: building the ring record of a ptrace breakpoint hit.
#include "hit_record.h"

#include <algorithm>
#include <cstring>
#include <ctime>

namespace dtrace::pid::ptrace_backend {

namespace {

uint64_t monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// user_regs_struct starts with the registers of struct pt_regs, in its order.
static_assert(offsetof(user_regs_struct, ss) == sizeof(uint64_t) * (UPROBE_NREGS - 1));

} // namespace

std::vector<uint8_t> build_hit_record(uint32_t slot, uint32_t offset, const HitConfig &config, const HitContext &hit,
                                      const MemoryReader &read) {
    live_record record{};
    record.timestamp = monotonic_ns();
    record.pid = static_cast<uint32_t>(hit.pid);
    record.tid = static_cast<uint32_t>(hit.tid);
    record.ppid = static_cast<uint32_t>(hit.ppid);
    record.uid = hit.uid;
    record.gid = hit.gid;
    record.slot = slot;
    record.size = sizeof record;
    record.syscall_nr = -1;
    std::memcpy(record.comm, hit.comm.data(), std::min<size_t>(hit.comm.size(), LIVE_COMM_LEN - 1));
    const user_regs_struct &r = hit.regs;
    const uint64_t registers[LIVE_MAX_ARGS] = {r.rdi, r.rsi, r.rdx, r.rcx, r.r8, r.r9};
    for (uint32_t i = 0; i < LIVE_MAX_ARGS && i < config.nargs; ++i)
        record.args[i] = registers[i];
    if (config.kind == LIVE_KIND_UPROBE_RETURN) {
        record.args[0] = offset;
        record.args[1] = config.nargs > 1 ? r.rax : 0;
    }
    std::vector<uint8_t> out(sizeof record);
    std::memcpy(out.data(), &record, sizeof record);
    if (!config.with_tail)
        return out;

    uprobe_tail tail{};
    std::memcpy(tail.regs, &r, sizeof tail.regs);
    if (config.kind == LIVE_KIND_UPROBE_ENTRY && config.nargs > LIVE_MAX_ARGS &&
        read(r.rsp + 8, tail.stack_args, sizeof tail.stack_args) != sizeof tail.stack_args)
        std::memset(tail.stack_args, 0, sizeof tail.stack_args);
    std::vector<uint8_t> stack(std::min<uint32_t>(config.stack_bytes, UPROBE_STACK_MAX));
    // (a stack shorter than asked ends at the top of its mapping: the reader gives what there is)
    const size_t copied = stack.empty() ? 0 : read(r.rsp, stack.data(), stack.size());
    tail.stack_size = static_cast<uint32_t>(copied);
    out.resize(sizeof record + sizeof tail + copied);
    std::memcpy(out.data() + sizeof record, &tail, sizeof tail);
    std::memcpy(out.data() + sizeof record + sizeof tail, stack.data(), copied);
    return out;
}

} // namespace dtrace::pid::ptrace_backend
