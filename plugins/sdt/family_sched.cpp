// family_sched.cpp: sched — CPU scheduling, over sched_switch (a BTF
// tracepoint program that describes the thread leaving and the one coming
// on) and sched_wakeup.
//
// | probe   | event                                | context / arguments                          |
// |---------|--------------------------------------|----------------------------------------------|
// | off-cpu | sched_switch                         | the thread leaving; args[0..1] the next one  |
// | on-cpu  | sched_switch                         | the thread coming on (its pid, comm, vtimestamp) |
// | sleep   | sched_switch, the thread waits       | the thread leaving                           |
// | preempt | sched_switch, the thread stays runnable | the thread leaving                        |
// | wakeup  | sched:sched_wakeup                   | the waker; args[0..1] the woken thread       |
//
// The switch records' args: [0] the other thread's tid, [1] its pid.
// Not here (no tracepoint tells them): enqueue, dequeue, change-pri,
// remain-cpu, tick, surrender.
#include "thread_args.h"

namespace dtrace::sdt {

namespace {

size_t next_thread(const ArgContext &c, ProbeArgs &a) {
    thread_args(c, static_cast<uint32_t>(c.record.args[1]), static_cast<uint32_t>(c.record.args[0]), a, 0);
    return 2;
}

constexpr std::string_view kWakeupFields[] = {"pid"};
size_t woken_thread(const ArgContext &c, ProbeArgs &a) {
    thread_args(c, 0, static_cast<uint32_t>(c.u(0)), a, 0); // pid 0: looked up
    return 2;
}

using S = EventSource;
constexpr StableProbe kRows[] = {
    {"sched", "off-cpu", S::OffCpu, "", "", {}, kThreadArgs, next_thread},
    {"sched", "on-cpu", S::OnCpu, "", "", {}, {}, nullptr},
    {"sched", "sleep", S::Sleep, "", "", {}, {}, nullptr},
    {"sched", "preempt", S::Preempt, "", "", {}, {}, nullptr},
    {"sched", "wakeup", S::Tracepoint, "sched", "sched_wakeup", kWakeupFields, kThreadArgs, woken_thread},
};

} // namespace

std::span<const StableProbe> sched_family() {
    return kRows;
}

} // namespace dtrace::sdt
