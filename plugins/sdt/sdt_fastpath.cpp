// sdt_fastpath.cpp: the sdt plugin's side of the in-kernel fast path
// (docs/fastpath.md): which probes run dtrace's programs and how their
// context holds the event, and where the programs run.
//
// - A tracepoint's probe (sdt:<group>::<event>, or a stable row over a
//   tracepoint): the tracepoint program (bpf/sdt_events.bpf.c) tail-calls the
//   program at its link's configuration slot in live_fastpath before doing
//   anything else. The context is the tracepoint's record: an sdt probe's
//   integer and pointer fields are its arguments in the kernel (strings and
//   arrays are not); a stable row's arguments are records built in user
//   space, so none is. Only a probe alone on its tracepoint, whose row takes
//   every event (no accept, no lock pairing), runs a program.
// - sched:::on-cpu and off-cpu: the program is attached to sched_switch as a
//   raw tracepoint (its context: preempt, prev, next), and the sched_switch
//   program stops delivering the probe. on-cpu's thread builtins are those
//   of `next` (the thread coming on), off-cpu's the current thread's.
//   sleep and preempt take only some switches, chosen in the BPF program:
//   they stay in user space, as do the per-packet ip/tcp/udp probes.
#include "sdt_plugin.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

#include <bpf/bpf.h>

namespace dtrace::sdt {

namespace {

constexpr const char *kSwitchTracepoint = "sched_switch";
constexpr uint32_t kSwitchNextTask = 16; // the raw sched_switch's context: preempt, prev, next, prev_state

bool is_load_size(uint32_t bytes) {
    return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
}

} // namespace

const char *SdtPlugin::fastpath_unavailable(const ProbeSlot &slot) const {
    switch (slot.row != nullptr ? slot.row->source : EventSource::Tracepoint) {
    case EventSource::OnCpu:
    case EventSource::OffCpu:
        return nullptr;
    case EventSource::Sleep:
    case EventSource::Preempt:
        return "the probe fires on some of sched_switch's events only (the BPF program chooses them)";
    case EventSource::SendPacket:
    case EventSource::ReceivePacket:
        return "the packet programs do not run dtrace's programs (their arguments are decoded in user space)";
    case EventSource::Tracepoint:
        break;
    }
    if (slot.row != nullptr && (slot.row->accept != nullptr || !slot.row->wait_begin.empty()))
        return "the probe fires on some of its tracepoint's events only (chosen in user space)";
    if (!slot.link)
        return "the probe is not enabled on its tracepoint";
    size_t members = 0;
    links_.for_each_member(TracepointLinks::config_slot(*slot.link), [&](uint32_t) { members++; });
    if (members != 1)
        return "another enabled probe shares its tracepoint";
    return nullptr;
}

// Arguments as the record's fields: an sdt probe's integers and pointers
// (RawRecord::arg's values), nothing of a stable row's.
void SdtPlugin::fill_tracepoint_layout(const ProbeSlot &slot, dtrace_fastpath_probe &out) const {
    out.flags |= DTRACE_FASTPATH_ARG_FIELDS;
    if (slot.row != nullptr) {
        out.nargs = DTRACE_FASTPATH_MAX_ARG_FIELDS; // every argument read refuses
        return;
    }
    out.nargs = static_cast<uint32_t>(slot.fields.size());
    const size_t n = std::min<size_t>(slot.fields.size(), DTRACE_FASTPATH_MAX_ARG_FIELDS);
    for (size_t i = 0; i < n; i++) {
        const live::TracepointField &f = *slot.fields[i];
        const FieldKind kind = kind_of(f);
        if ((kind != FieldKind::Integer && kind != FieldKind::Pointer) || !is_load_size(f.size) ||
            f.offset % f.size != 0 || f.offset > UINT16_MAX)
            continue; // size 0: not in the kernel
        out.arg_field_offset[i] = static_cast<uint16_t>(f.offset);
        out.arg_field_size[i] = static_cast<uint8_t>(f.size);
        if (f.is_signed)
            out.arg_field_signed |= 1u << i;
    }
}

int SdtPlugin::fastpath_layout(dtrace_probe_id, uint64_t cookie, dtrace_fastpath_probe &out) const {
    if (cookie >= slot_count_.load(std::memory_order_acquire) || !slots_[cookie].enabled)
        return -1;
    const ProbeSlot &slot = slots_[cookie];
    if (const char *why = fastpath_unavailable(slot)) {
        out.unavailable = why;
        return -1;
    }
    live::FastpathLoader::describe_task(out);
    describe_user_stacks(slot, out);
    if (slot.row != nullptr && slot.row->source != EventSource::Tracepoint) {
        // on-cpu, off-cpu: arguments are built in user space.
        out.flags |= DTRACE_FASTPATH_RAW_TRACEPOINT | DTRACE_FASTPATH_ARG_FIELDS;
        out.nargs = DTRACE_FASTPATH_MAX_ARG_FIELDS;
        if (slot.row->source == EventSource::OnCpu) {
            out.flags |= DTRACE_FASTPATH_THREAD_TASK;
            out.thread_task_offset = kSwitchNextTask;
        }
        return 0;
    }
    fill_tracepoint_layout(slot, out);
    return 0;
}

// The program on sched_switch, in place of the switch program's record for
// this probe (which detaches when no probe needs it any more).
bool SdtPlugin::attach_switch_program(uint32_t index, ProbeSlot &slot, int program_fd) {
    const int link = bpf_raw_tracepoint_open(kSwitchTracepoint, program_fd);
    if (link < 0) {
        fail("cannot attach a generated program to sched_switch: " + std::string(std::strerror(errno)));
        return false;
    }
    slot.switch_link = link;
    const uint32_t kind = static_cast<uint32_t>(slot.row->source) - 1, none = 0;
    bpf_map_update_elem(bpf_->map_fd("sdt_switch_slots"), &kind, &none, BPF_ANY);
    if (--switch_users_ == 0 && switch_attachment_) {
        bpf_->detach(*switch_attachment_);
        switch_attachment_.reset();
    }
    // The way back delivers by the slot's configuration (the switch program no longer does).
    (void)bpf_->configure(index, slot.way_back ? config_of(slot, false) : live_probe_config{});
    return true;
}

int SdtPlugin::attach_fastpath_program(int32_t program, dtrace_probe_id, uint64_t cookie) {
    const int fd = fastpath_.program_fd(program);
    if (fd < 0 || !bpf_ || cookie >= slot_count_.load(std::memory_order_acquire) || !slots_[cookie].enabled ||
        fastpath_unavailable(slots_[cookie]) != nullptr)
        return fail("attaching a generated program to an sdt probe that cannot run it (cookie " +
                    std::to_string(cookie) + ")");
    ProbeSlot &slot = slots_[cookie];
    if (slot.in_kernel)
        return fail("an sdt probe given a second generated program (cookie " + std::to_string(cookie) + ")");
    if (!slot.link) {
        if (!attach_switch_program(static_cast<uint32_t>(cookie), slot, fd))
            return -1;
    } else {
        const uint32_t key = TracepointLinks::config_slot(*slot.link);
        if (bpf_map_update_elem(bpf_->map_fd("live_fastpath"), &key, &fd, BPF_ANY) != 0)
            return fail("cannot attach a generated program to " + slot.group + ":" + slot.event + ": " +
                        std::strerror(errno));
    }
    slot.in_kernel = true;
    return 0;
}

void SdtPlugin::detach_fastpath(ProbeSlot &slot) {
    if (!slot.in_kernel)
        return;
    if (slot.switch_link >= 0)
        close(slot.switch_link);
    slot.switch_link = -1;
    if (slot.link && bpf_) {
        const uint32_t key = TracepointLinks::config_slot(*slot.link);
        (void)bpf_map_delete_elem(bpf_->map_fd("live_fastpath"), &key);
    }
    slot.in_kernel = false;
}

} // namespace dtrace::sdt
