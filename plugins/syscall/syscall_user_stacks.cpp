// syscall_user_stacks.cpp: ustack() keys in the kernel at syscall probes
// (docs/fastpath.md, "Stacks"). A system call's probe fires in every
// process, and the walk's maps hold one process's table: $target's (-c or
// -p). dtrace's program walks only that process's stacks (its gate reads
// the table's process) and declines every other event; a declined event
// goes back to syscall_declined_event, the plugin's program without its
// tail call, which delivers it to the ring with its user stack as the
// slot's clauses ask (the pre-filter dropping what their predicates
// reject). A mapping call of the process disables the table (the marks);
// a thread of the plugin writes it again within milliseconds, the events
// in between declined. The walk starts from the user registers of the current task
// (bpf_task_pt_regs), as the user-space path's copy does.
#include "syscall_plugin.h"

#include <cstddef>

#include <asm/ptrace.h>
#include <bpf/libbpf.h>

namespace dtrace::syscall {

void SyscallPlugin::describe_user_stacks(dtrace_fastpath_probe &out) const {
    if (out.struct_size < offsetof(dtrace_fastpath_probe, user_stacks_unavailable) + sizeof out.user_stacks_unavailable)
        return;
    if (!live::table_process(host_, ops_)) {
        out.user_stacks_unavailable = "at syscall probes the walk by the CFI reads one process's rows: $target's "
                                      "(run dtrace with -c or -p)";
        return;
    }
    out.flags |= DTRACE_FASTPATH_USER_REGISTERS | DTRACE_FASTPATH_TASK_USER_REGISTERS;
    out.user_ip_offset = offsetof(pt_regs, rip);
    out.user_sp_offset = offsetof(pt_regs, rsp);
    out.user_bp_offset = offsetof(pt_regs, rbp);
}

int SyscallPlugin::fastpath_fill_user_stacks(dtrace_probe_id, uint64_t cookie, int32_t rows, int32_t blocks,
                                             int32_t mappings) {
    const std::optional<int64_t> pid = live::table_process(host_, ops_);
    if (cookie >= slot_count_.load(std::memory_order_acquire) || !slots_[cookie].enabled || !pid)
        return -1;
    std::lock_guard guard(user_stacks_mutex_);
    std::string error;
    if (!user_stack_table_.fill(fastpath_, {rows, blocks, mappings}, *pid, stacks_.images(), error))
        return -1;
    stacks_.maps().keep(*pid);
    stacks_.maps().refresh(*pid);
    return 0;
}

int SyscallPlugin::fastpath_fill_way_back(dtrace_probe_id, uint64_t cookie, int32_t program_array) {
    if (cookie >= slot_count_.load(std::memory_order_acquire) || !slots_[cookie].enabled || !ensure_way_back())
        return -1;
    ProbeSlot &slot = slots_[cookie];
    const uint32_t index = 0;
    const int fd = bpf_program__fd(declined_bpf_->program(kDeclinedProgram));
    std::string error;
    if (fd < 0 || !fastpath_.update_map(program_array, &index, &fd, error))
        return -1;
    // The way back delivers by the slot's configuration, armed or not.
    slot.way_back = true;
    return bpf_->configure(static_cast<uint32_t>(cookie), config_of(slot)) ? 0 : -1;
}

// Each table written names what the kernel's walks may take from then on:
// the stacks' names learn the same mappings (no event of the user-space
// path brings them, RecordStacks::add_to), and keep them after the process
// exits, when its keys are printed.
void SyscallPlugin::follow_user_stack_marks() {
    std::lock_guard guard(user_stacks_mutex_);
    const std::optional<int64_t> pid = live::table_process(host_, ops_);
    if (!pid || !user_stack_table_.marked())
        return;
    std::string ignored; // a table that cannot be written again stays disabled: events come here, exact
    (void)user_stack_table_.follow_marks(fastpath_, stacks_.images(), ignored);
    stacks_.maps().refresh(*pid);
}

} // namespace dtrace::syscall
