// fbt_fastpath.cpp: the fbt provider's side of the in-kernel fast path
// (dtrace_fastpath_ops, docs/fastpath.md). The kprobe and kretprobe programs
// (bpf/fbt_events.bpf.c) tail-call the program dtrace generated for a
// probe's slot (live_fastpath) before anything else, so such a probe's
// events never reach the ring. Their context is the probed function's
// struct pt_regs: an entry's arguments are the SysV argument registers (the
// six a live record holds, as the user-space path reads them), a return's
// arg0 its return offset (the high half of the attach cookie) and arg1 rax.
//
// fentry/fexit programs are typed by their function, and the generated
// programs read struct pt_regs: a probe attached by fentry/fexit moves to a
// kprobe when its program is attached (before tracing starts); with
// -x fbtattach=fentry its clauses stay in user space.
#include "fbt_plugin.h"

#include <cerrno>
#include <cstddef>
#include <cstring>

#include <asm/ptrace.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

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

// The generated programs are tail-called by the kprobe programs: loaded as
// kprobe programs.
int32_t FbtPlugin::load_fastpath_program(const dtrace_bpf_program &program) {
    fastpath_.set_program_kind(BPF_PROG_TYPE_KPROBE, 0);
    return fastpath_.load_program(program);
}

// The program goes in the slot's live_fastpath entry; the probe then needs
// a kprobe (not fentry/fexit) whose cookie carries a return probe's offset.
int FbtPlugin::attach_fastpath_program(int32_t program, dtrace_probe_id, uint64_t cookie) {
    auto it = slot_of_cookie_.find(cookie);
    const int fd = fastpath_.program_fd(program);
    const KernelFunction *f = function_of(cookie);
    if (fd < 0 || f == nullptr || it == slot_of_cookie_.end() || fastpath_unavailable(&slots_[it->second]) != nullptr)
        return fail("attaching a generated program to an fbt probe that cannot run it (cookie " +
                    std::to_string(cookie) + ")");
    const uint32_t index = it->second;
    ProbeSlot &slot = slots_[index];
    if (bpf_map_update_elem(bpf_->map_fd("live_fastpath"), &index, &fd, BPF_ANY) != 0)
        return fail("cannot attach a generated program to fbt probe " + f->name + ": " + std::strerror(errno));
    slot.in_kernel = true;
    if (!slot.trampoline && slot.return_offset == 0)
        return 0; // its kprobe runs the program as it is
    detach(slot);
    live::Result<size_t> attached =
        attach_kprobe(*f, is_return(cookie), index | static_cast<uint64_t>(slot.return_offset) << 32);
    if (!attached)
        return fail(attached.error());
    slot.attachment = attached.value();
    return 0;
}

} // namespace dtrace::fbt
