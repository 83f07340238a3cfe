// kernel_dispatch.cpp: firing the kernel providers' probes (see kernel_probes.h).
#include "kernel/kernel_dispatch.h"

namespace dtrace::etw::plugin::kernel {

namespace {

using K = KernelClass;

int64_t known_or_minus_one(uint32_t id) {
    return id == kUnknownId ? -1 : static_cast<int64_t>(id);
}

} // namespace

KernelDispatch::KernelDispatch(dtrace_host *host, const dtrace_host_ops *ops, const KernelProbes &probes,
                               const TraceClock &clock, EventMemory &event_memory, ProcessTable &processes,
                               ModuleMap &modules)
    : host_(host), ops_(ops), probes_(probes), clock_(clock), processes_(processes), modules_(modules),
      memory_(event_memory, processes, state_) {
    for (const KernelProbe &probe : kernel_probe_table()) {
        firing_fields_.push_back({MofFieldId(probe.pid_field), MofFieldId(probe.tid_field)}); // "" finds nothing
    }
}

void KernelDispatch::decode_and_fire(const Event &event, int klass, const dtrace_event_ctx &base) {
    if (!decode_mof(event, klass, record_)) {
        return;
    }
    if (static_cast<K>(klass) == K::Process) {
        processes_.note(event, record_);
    } else if (static_cast<K>(klass) == K::Image) {
        modules_.note(event, record_);
    } else {
        state_.note(event, klass, record_);
    }
    if (!probes_.any_enabled(klass)) {
        return;
    }
    for (uint16_t row : probes_.rows(klass, event.opcode)) {
        if (const dtrace_probe_id id = probes_.enabled(row)) {
            fire(row, id, event, base);
        }
    }
}

void KernelDispatch::fire(uint16_t row, dtrace_probe_id id, const Event &event, const dtrace_event_ctx &base) {
    const KernelProbe &probe = kernel_probe_table()[row];
    const FiringFields &fields = firing_fields_[row];
    uint32_t pid = event.pid;
    uint32_t tid = event.tid;
    if (record_.has(fields.tid)) {
        tid = static_cast<uint32_t>(record_.u(fields.tid));
        pid = state_.pid_of(tid);
    }
    if (record_.has(fields.pid)) {
        pid = static_cast<uint32_t>(record_.u(fields.pid));
    } else if (pid == kUnknownId) {
        pid = state_.pid_of(tid);
    }
    memory_.begin_firing(pid, tid, event.cpu);
    dtrace_event_ctx ctx = base;
    ctx.pid = known_or_minus_one(pid);
    ctx.tid = known_or_minus_one(tid);
    ctx.execname = "";
    ctx.ppid = -1;
    if (const ProcessInfo *p = pid == kUnknownId ? nullptr : processes_.find(pid)) {
        ctx.execname = p->execname.c_str();
        ctx.ppid = p->ppid;
    }
    KernelArgs args{};
    const size_t nargs = probe.build ? probe.build({event, record_, memory_, state_, clock_}, args) : 0;
    ctx.nargs = static_cast<uint32_t>(nargs);
    ctx.args = args.data();
    if (nargs != kNotThisEvent) {
        ops_->fire(host_, id, &ctx);
    }
    begin_event(event); // curpsinfo of the event's other probes
}

} // namespace dtrace::etw::plugin::kernel
