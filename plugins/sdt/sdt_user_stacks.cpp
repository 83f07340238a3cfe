// sdt_user_stacks.cpp: ustack() keys in the kernel at sdt probes
// (docs/fastpath.md, "Stacks"; $target's table: live/target_user_stacks.h).
// The walk reads the current task's user registers: at a tracepoint, the
// thread the event arose in; at sched:::off-cpu, the thread leaving. Where
// the current task is not the event's, ustack() keys stay in user space:
// sched:::on-cpu (its thread is the one coming on), and the tracepoints
// that fire in interrupts (io:::done's block_rq_complete ...: the current
// task is whichever the interrupt landed in).
//
// An event dtrace's program declined goes back to the plugin's program
// without its tail call (sdt_events.bpf.c): sdt_declined_event for a
// tracepoint's probe, by its link's configuration; sdt_declined_off_cpu for
// sched:::off-cpu, by its slot's. Either delivers it to the ring with its
// user stack as the clauses ask (the pre-filter dropping what their
// predicates reject).
#include "sdt_plugin.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "live_plugin_setup.h"

namespace dtrace::sdt {

namespace {

constexpr const char *kDeclinedEvent = "sdt_declined_event";
constexpr const char *kDeclinedOffCpu = "sdt_declined_off_cpu";

// Tracepoints that fire in interrupts (hard or soft): a block request's
// completion, the interrupts' own, the timers' expiries, a packet's
// receipt. An empty event: the whole group.
constexpr std::pair<std::string_view, std::string_view> kInterruptTracepoints[] = {
    {"block", "block_rq_complete"},
    {"block", "block_bio_complete"},
    {"block", "block_rq_error"},
    {"irq", ""},
    {"irq_vectors", ""},
    {"napi", ""},
    {"timer", "hrtimer_expire_entry"},
    {"timer", "hrtimer_expire_exit"},
    {"timer", "timer_expire_entry"},
    {"timer", "timer_expire_exit"},
    {"net", "netif_receive_skb"},
    {"net", "netif_receive_skb_entry"},
    {"net", "netif_rx"},
    {"net", "napi_gro_receive_entry"},
};

bool fires_in_interrupts(std::string_view group, std::string_view event) {
    return std::any_of(std::begin(kInterruptTracepoints), std::end(kInterruptTracepoints),
                       [&](const auto &t) { return t.first == group && (t.second.empty() || t.second == event); });
}

} // namespace

// Why ustack() keys cannot be walked from the current task at the probe; nullptr: they can.
const char *SdtPlugin::user_stacks_elsewhere(const ProbeSlot &slot) const {
    if (slot.row != nullptr && slot.row->source == EventSource::OnCpu)
        return "at sched:::on-cpu the probe's thread is the one coming on, not the current task whose user "
               "registers the walk reads";
    if (fires_in_interrupts(slot.group, slot.event))
        return "the probe's tracepoint fires in interrupts, where the current task is whichever the interrupt "
               "landed in";
    return nullptr;
}

void SdtPlugin::describe_user_stacks(const ProbeSlot &slot, dtrace_fastpath_probe &out) const {
    if (const char *why = user_stacks_elsewhere(slot)) {
        live::refuse_user_stacks(out, why);
        return;
    }
    user_stacks_.describe(
        out, "at tracepoint probes (sdt, proc, sched, io ...) the walk by the CFI reads one process's rows: $target's "
             "(run dtrace with -c or -p)");
}

bool SdtPlugin::ensure_way_back() {
    if (declined_bpf_)
        return true;
    live::BpfLoadSettings settings = load_settings_; // the ring and maps are bpf_'s
    settings.before_load = live::load_only({kDeclinedEvent, kDeclinedOffCpu});
    live::Result<std::unique_ptr<live::BpfProgramSet>> set =
        live::BpfProgramSet::load(events_image(), "sdt", settings, bpf_.get());
    if (!set) {
        fail(set.error());
        return false;
    }
    declined_bpf_ = std::move(set.value());
    return true;
}

int SdtPlugin::fastpath_fill_way_back(dtrace_probe_id, uint64_t cookie, int32_t program_array) {
    if (cookie >= slot_count_.load(std::memory_order_acquire) || !slots_[cookie].enabled || !bpf_ || !ensure_way_back())
        return -1;
    ProbeSlot &slot = slots_[cookie];
    const bool off_cpu = slot.row != nullptr && slot.row->source == EventSource::OffCpu;
    if (!off_cpu && !slot.link)
        return -1; // neither a tracepoint's probe nor off-cpu: no way back (fastpath_unavailable refuses it)
    if (!fastpath_.set_way_back(program_array,
                                bpf_program__fd(declined_bpf_->program(off_cpu ? kDeclinedOffCpu : kDeclinedEvent))))
        return -1;
    slot.way_back = true;
    if (!off_cpu)
        return 0; // the way back delivers by the link's configuration, which stays armed
    const uint32_t zero = 0, value = static_cast<uint32_t>(cookie) + 1;
    if (bpf_map_update_elem(declined_bpf_->map_fd("sdt_off_cpu_way_back"), &zero, &value, BPF_ANY) != 0)
        return -1;
    return bpf_->configure(static_cast<uint32_t>(cookie), config_of(slot, false)) ? 0 : -1;
}

} // namespace dtrace::sdt
