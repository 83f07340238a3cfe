// target_user_stacks.cpp: $target's table for the walk at probes of every process.
#include "target_user_stacks.h"

#include <cstddef>
#include <optional>
#include <string>

#include <asm/ptrace.h>

namespace dtrace::live {

namespace {

// How often the table is checked against the marks (a map read).
constexpr std::chrono::milliseconds kFollowPeriod{5};

// Whether the host's layout is one with user_stacks_unavailable (and the task's registers).
bool holds_user_stacks_reason(const dtrace_fastpath_probe &out) {
    return out.struct_size >=
           offsetof(dtrace_fastpath_probe, user_stacks_unavailable) + sizeof out.user_stacks_unavailable;
}

} // namespace

TargetUserStacks::TargetUserStacks(dtrace_host *host, const dtrace_host_ops *ops, FastpathLoader &loader,
                                   stacks::StackSymbols &stacks)
    : host_(host), ops_(ops), loader_(loader), stacks_(stacks) {}

TargetUserStacks::~TargetUserStacks() {
    stop_following();
}

void refuse_user_stacks(dtrace_fastpath_probe &out, const char *why) {
    if (holds_user_stacks_reason(out))
        out.user_stacks_unavailable = why;
}

void TargetUserStacks::describe(dtrace_fastpath_probe &out, const char *without_target) const {
    if (!holds_user_stacks_reason(out))
        return;
    if (!table_process(host_, ops_)) {
        out.user_stacks_unavailable = without_target;
        return;
    }
    out.flags |= DTRACE_FASTPATH_USER_REGISTERS | DTRACE_FASTPATH_TASK_USER_REGISTERS;
    out.user_ip_offset = offsetof(pt_regs, rip);
    out.user_sp_offset = offsetof(pt_regs, rsp);
    out.user_bp_offset = offsetof(pt_regs, rbp);
}

int TargetUserStacks::fill(const UserStackMaps &maps) {
    const std::optional<int64_t> pid = table_process(host_, ops_);
    if (!pid)
        return -1;
    std::lock_guard guard(mutex_);
    std::string error;
    if (!table_.fill(loader_, maps, *pid, stacks_.images(), error))
        return -1;
    // Keys the kernel walked bring no event that would teach the stacks'
    // names these mappings: they learn them here, and keep them after the
    // process exits, when its keys are printed.
    stacks_.maps().keep(*pid);
    stacks_.maps().refresh(*pid);
    return 0;
}

void TargetUserStacks::start_following() {
    if (!follower_)
        follower_ = std::make_unique<PeriodicTask>(kFollowPeriod, [this] { follow_marks(); });
}

void TargetUserStacks::stop_following() {
    follower_.reset();
}

void TargetUserStacks::follow_marks() {
    std::lock_guard guard(mutex_);
    const std::optional<int64_t> pid = table_process(host_, ops_);
    if (!pid || !table_.marked())
        return;
    std::string ignored; // a table that cannot be written again stays disabled: events go to user space, exact
    (void)table_.follow_marks(loader_, stacks_.images(), ignored);
    stacks_.maps().refresh(*pid);
}

} // namespace dtrace::live
