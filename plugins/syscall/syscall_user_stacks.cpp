// syscall_user_stacks.cpp: ustack() keys in the kernel at syscall probes
// (docs/fastpath.md, "Stacks"; $target's table: live/target_user_stacks.h).
// An event dtrace's program declined goes back to syscall_declined_event,
// the plugin's program without its tail call, which delivers it to the
// ring with its user stack as the slot's clauses ask (the pre-filter
// dropping what their predicates reject).
#include "syscall_plugin.h"

#include <bpf/libbpf.h>

namespace dtrace::syscall {

void SyscallPlugin::describe_user_stacks(dtrace_fastpath_probe &out) const {
    user_stacks_.describe(out, "at syscall probes the walk by the CFI reads one process's rows: $target's "
                               "(run dtrace with -c or -p)");
}

int SyscallPlugin::fastpath_fill_way_back(dtrace_probe_id, uint64_t cookie, int32_t program_array) {
    if (cookie >= slot_count_.load(std::memory_order_acquire) || !slots_[cookie].enabled || !ensure_way_back())
        return -1;
    ProbeSlot &slot = slots_[cookie];
    if (!fastpath_.set_way_back(program_array, bpf_program__fd(declined_bpf_->program(kDeclinedProgram))))
        return -1;
    // The way back delivers by the slot's configuration, armed or not.
    slot.way_back = true;
    return bpf_->configure(static_cast<uint32_t>(cookie), config_of(slot)) ? 0 : -1;
}

} // namespace dtrace::syscall
