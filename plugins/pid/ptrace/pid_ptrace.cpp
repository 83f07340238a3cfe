// pid_ptrace.cpp: the pid plugin's side of the ptrace backend
// (ptrace_tracer.h): choosing it, arming probes, handing the session's
// processes over from dtrace's own hold to the tracer.
#include "pid_plugin.h"

#include "pid_backend.h"

namespace dtrace::pid {

bool PidPlugin::load_ptrace(const std::string &why) {
    if (!why.empty())
        ops_->report_error(host_, ptrace_backend::fallback_notice(why).c_str());
    ptrace_backend::TracerCallbacks callbacks;
    callbacks.deliver = [this](std::span<const uint8_t> record) { deliver(record); };
    callbacks.link_map = [this](int64_t pid) { refresh_libraries(pid); };
    callbacks.report = [this](const std::string &message) { ops_->report_error(host_, message.c_str()); };
    ptrace_ = std::make_unique<ptrace_backend::PtraceTracer>(std::move(callbacks));
    return true;
}

void PidPlugin::arm_ptrace(uint32_t index, const ProbeSlot &slot) {
    ptrace_backend::HitConfig config;
    config.armed = true;
    config.kind = slot.kind == ProbeKind::Entry    ? LIVE_KIND_UPROBE_ENTRY
                  : slot.kind == ProbeKind::Return ? LIVE_KIND_UPROBE_RETURN
                                                   : LIVE_KIND_UPROBE_OFFSET;
    config.nargs = slot.nargs;
    config.with_tail = slot.wants_stack || slot.wants_regs || slot.nargs > LIVE_MAX_ARGS;
    config.stack_bytes = slot.wants_stack ? UPROBE_STACK_MAX : 0;
    config.stops = slot.internal;
    ptrace_->configure(index, config);
}

// A -c or -p target is still held by dtrace (stopped under its ptrace):
// the tracer takes it over when it is released (target_changed).
int PidPlugin::start_ptrace() {
    for (const auto &[pid, process] : processes_) {
        bool held = false;
        dtrace_target_info target{};
        target.struct_size = sizeof target;
        for (uint32_t i = 0; ops_->get_target != nullptr && ops_->get_target(host_, i, &target) == 0; ++i)
            held = held || (target.pid == pid && target.state == DTRACE_TARGET_STOPPED);
        if (live::Status traced = ptrace_->trace(pid, held); !traced)
            return fail(traced.error());
    }
    return 0;
}

void PidPlugin::target_changed(int64_t pid, uint32_t state) {
    if (state != DTRACE_TARGET_RUNNING || !ptrace_)
        return;
    if (live::Status taken = ptrace_->take_over(pid); !taken)
        ops_->report_error(host_, taken.error().c_str());
}

} // namespace dtrace::pid
