// fbt_fastpath.cpp: the fbt provider's side of the in-kernel fast path
// (dtrace_fastpath_ops, docs/fastpath.md). The program dtrace generated for
// a probe is attached to the probe's own kprobe or kretprobe in place of the
// plugin's (bpf/fbt_events.bpf.c), so such a probe's events never reach the
// ring. Its context is the probed function's struct pt_regs: an entry's
// arguments are the SysV argument registers (the six a live record holds,
// as the user-space path reads them), a return's arg0 its return offset
// (the high half of the attach cookie) and arg1 rax.
//
// fentry/fexit programs are typed by their function, and the generated
// programs read struct pt_regs: a probe with a program of dtrace's runs on a
// kprobe whatever -x fbtattach says, except fentry, where its clauses stay
// in user space. Probes are attached when tracing starts, after dtrace
// attached its programs, so no fentry/fexit program is loaded for a probe
// that moves to a kprobe.
#include "fbt_plugin.h"

#include <cstddef>
#include <string>

#include <asm/ptrace.h>

namespace dtrace::fbt {

const char *FbtPlugin::fastpath_unavailable(const ProbeSlot *slot) const {
    if (slot == nullptr || !slot->enabled || !bpf_)
        return "the probe is not enabled";
    if (attach_mode_ == AttachMode::Fentry)
        return "-x fbtattach=fentry: dtrace's kernel programs run at kprobes (they read the registers a kprobe sees)";
    return nullptr;
}

int FbtPlugin::fastpath_layout(dtrace_probe_id, uint64_t cookie, dtrace_fastpath_probe &out) {
    auto it = slot_of_cookie_.find(cookie);
    const ProbeSlot *slot = it == slot_of_cookie_.end() ? nullptr : &slots_[it->second];
    if (const char *why = fastpath_unavailable(slot)) {
        out.unavailable = why;
        return -1;
    }
    if (out.struct_size < offsetof(dtrace_fastpath_probe, arg_field_signed) + sizeof out.arg_field_signed)
        return -1;
    if (is_return(cookie)) {
        out.flags = DTRACE_FASTPATH_ARG_FIELDS;
        out.nargs = 2;
        out.arg_field_size[0] = DTRACE_FASTPATH_ARG_FIELD_COOKIE_HIGH; // attach_fastpath_program's cookie
        out.arg_field_offset[1] = offsetof(pt_regs, rax);
        out.arg_field_size[1] = 8;
    } else {
        live::FastpathLoader::register_arguments(out, slot->nargs, false);
    }
    live::FastpathLoader::describe_task(out);
    return 0;
}

// The program goes on the probe's own kprobe (kretprobe), whose cookie
// carries a return probe's offset: the plugin's program does not run for
// the probe. Before tracing starts (the usual case) the probe has nothing
// attached yet; a probe registered late is disarmed first, so that no event
// runs both, and its program (fentry/fexit or kprobe) is detached after.
int FbtPlugin::attach_fastpath_program(int32_t program, dtrace_probe_id, uint64_t cookie) {
    auto it = slot_of_cookie_.find(cookie);
    const KernelFunction *f = function_of(cookie);
    if (fastpath_.program_fd(program) < 0 || f == nullptr || it == slot_of_cookie_.end() ||
        fastpath_unavailable(&slots_[it->second]) != nullptr)
        return fail("attaching a generated program to an fbt probe that cannot run it (cookie " +
                    std::to_string(cookie) + ")");
    const uint32_t index = it->second;
    ProbeSlot &slot = slots_[index];
    if (slot.attachment && !bpf_->configure(index, live_probe_config{}))
        return fail("cannot disarm fbt probe " + f->name + " for its generated program");
    std::string error;
    const int32_t link = fastpath_.attach_kprobe(program, f->name, is_return(cookie),
                                                 index | static_cast<uint64_t>(slot.return_offset) << 32, error);
    if (link < 0) {
        if (slot.attachment)
            (void)bpf_->configure(index, config_of(slot));
        return fail(error);
    }
    detach(slot);
    slot.fastpath_link = link;
    return 0;
}

} // namespace dtrace::fbt
