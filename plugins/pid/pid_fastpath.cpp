// pid_fastpath.cpp: the pid provider's side of the in-kernel fast path
// (dtrace_fastpath_ops, docs/fastpath.md). The uprobe program tail-calls the
// program dtrace generated for a probe's slot (uprobe_fastpath) before
// anything else, so such a probe's events never reach the ring. Its context
// is the probed instruction's struct pt_regs: an entry's arguments are the
// SysV argument registers, then the words above the return address (read
// from user memory by the program), a return's arg0 its offset in the
// function (the high half of the attach cookie) and arg1 rax (probe_layout's
// fields); a walk of the user stack starts from its rip, rsp and rbp, and
// an event the walk declines goes back to the uprobe program's way back
// (fill_way_back).
#include "pid_plugin.h"

#include <cerrno>
#include <cstddef>
#include <cstring>

#include <asm/ptrace.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

namespace dtrace::pid {

int PidPlugin::fastpath_layout(dtrace_probe_id, uint64_t cookie, dtrace_fastpath_probe &out) {
    std::lock_guard guard(mutex_);
    const ProbeSlot *slot = slots_.get(static_cast<uint32_t>(cookie));
    if (slot == nullptr || !slot->enabled || slot->internal || !uprobes_ ||
        out.struct_size <
            offsetof(dtrace_fastpath_probe, arg_field_user_displacement) + sizeof out.arg_field_user_displacement)
        return -1;
    out.flags = DTRACE_FASTPATH_ARG_FIELDS;
    switch (slot->kind) {
    case ProbeKind::Entry:
        // arg6..arg9 are the words above the return address (user memory, read by the program).
        live::FastpathLoader::register_arguments(out, slot->nargs, true);
        break;
    case ProbeKind::Return:
        out.nargs = 2;
        out.arg_field_size[0] = DTRACE_FASTPATH_ARG_FIELD_COOKIE_HIGH; // uprobe_cookie(slot, offset)
        out.arg_field_offset[1] = offsetof(pt_regs, rax);
        out.arg_field_size[1] = 8;
        break;
    case ProbeKind::Offset:
        out.nargs = 0;
        break;
    }
    live::FastpathLoader::describe_task(out);
    if (out.struct_size >= offsetof(dtrace_fastpath_probe, user_bp_offset) + sizeof out.user_bp_offset) {
        out.flags |= DTRACE_FASTPATH_USER_REGISTERS; // where a walk of the user stack starts
        out.user_ip_offset = offsetof(pt_regs, rip);
        out.user_sp_offset = offsetof(pt_regs, rsp);
        out.user_bp_offset = offsetof(pt_regs, rbp);
    }
    return 0;
}

// The generated programs are tail-called by the uprobe program: loaded as
// its kind (a kprobe program, with uprobe_multi's attach type when it uses
// those links).
int32_t PidPlugin::load_fastpath_program(const dtrace_bpf_program &program) {
    std::lock_guard guard(mutex_);
    if (!ensure_loaded())
        return -1;
    fastpath_.set_program_kind(BPF_PROG_TYPE_KPROBE, uprobes_->expected_attach_type());
    return fastpath_.load_program(program);
}

int PidPlugin::attach_fastpath_program(int32_t program, dtrace_probe_id, uint64_t cookie) {
    std::lock_guard guard(mutex_);
    const ProbeSlot *slot = slots_.get(static_cast<uint32_t>(cookie));
    const int fd = fastpath_.program_fd(program);
    if (fd < 0 || slot == nullptr || !slot->enabled || !uprobes_)
        return fail("attaching a generated program to a pid probe that is not enabled (cookie " +
                    std::to_string(cookie) + ")");
    const uint32_t key = static_cast<uint32_t>(cookie);
    if (bpf_map_update_elem(uprobes_->programs().map_fd("uprobe_fastpath"), &key, &fd, BPF_ANY) != 0)
        return fail("cannot attach a generated program to pid probe " + slot->function->name + ": " +
                    std::strerror(errno));
    return 0;
}

// A pid probe is one process's: its table goes in the walk's maps, and
// refresh_libraries() writes it again when the process, stopped at its
// link-map hook, has loaded or unloaded a library.
int PidPlugin::fastpath_fill_user_stacks(dtrace_probe_id, uint64_t cookie, int32_t rows, int32_t blocks,
                                         int32_t mappings) {
    std::lock_guard guard(mutex_);
    const ProbeSlot *slot = slots_.get(static_cast<uint32_t>(cookie));
    if (slot == nullptr || !slot->enabled || slot->internal)
        return -1;
    std::string error;
    return user_stack_table_.fill(fastpath_, {rows, blocks, mappings}, slot->pid, stacks_.images(), error) ? 0 : -1;
}

// The way back of an event a walk declines: the uprobe program without
// its tail call, which delivers the event to the ring with what the slot
// asks for (its user stack, as the slot's clauses read ustack()).
int PidPlugin::fastpath_fill_way_back(dtrace_probe_id, uint64_t cookie, int32_t program_array) {
    std::lock_guard guard(mutex_);
    const ProbeSlot *slot = slots_.get(static_cast<uint32_t>(cookie));
    if (slot == nullptr || !slot->enabled || slot->internal || !uprobes_)
        return -1;
    return fastpath_.set_way_back(program_array, uprobes_->declined_program_fd()) ? 0 : -1;
}

void PidPlugin::detach_fastpath_program(uint32_t slot) {
    if (uprobes_)
        (void)bpf_map_delete_elem(uprobes_->programs().map_fd("uprobe_fastpath"), &slot);
}

} // namespace dtrace::pid
