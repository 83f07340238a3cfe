// target_user_stacks.h: ustack() keys in the kernel at probes that fire in
// every process (syscall, sdt; docs/fastpath.md, "Stacks"). The walk's maps
// hold one process's table: $target's (-c or -p). dtrace's program walks
// only that process's stacks (its gate reads the table's process) and
// declines every other event to the plugin's way back. The walk starts from
// the user registers of the current task (bpf_task_pt_regs), as the
// user-space path's copy does. A mapping call of the process disables the
// table (the marks); a thread writes it again within milliseconds, the
// events in between declined.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>

#include <dtrace/provider.h>

#include "fastpath_loader.h"
#include "fastpath_user_stacks.h"
#include "periodic_task.h"
#include "stack_symbols.h"

namespace dtrace::live {

// A probe layout's reason why ustack() keys stay in user space (`why`: a
// static string), where the layout has room for it.
void refuse_user_stacks(dtrace_fastpath_probe &out, const char *why);

class TargetUserStacks {
  public:
    TargetUserStacks(dtrace_host *host, const dtrace_host_ops *ops, FastpathLoader &loader,
                     stacks::StackSymbols &stacks);
    ~TargetUserStacks();

    // A probe layout's part (fastpath_layout): the walk starts from the
    // current task's pt_regs when the session has a $target; else `out`
    // says why not, `without_target` (a static string).
    void describe(dtrace_fastpath_probe &out, const char *without_target) const;
    // fill_user_stack_maps: $target's table into `maps`; 0, or -1.
    int fill(const UserStackMaps &maps);
    // From now until stop_following(): the table written again after the
    // marks disabled it, every few milliseconds, off the ring's thread (a
    // table written again computes the rows of the files new to it).
    void start_following();
    void stop_following();

  private:
    void follow_marks();

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    FastpathLoader &loader_;
    stacks::StackSymbols &stacks_;
    std::mutex mutex_; // the table: the control thread, the follower's
    UserStackTable table_;
    std::unique_ptr<PeriodicTask> follower_;
};

} // namespace dtrace::live
