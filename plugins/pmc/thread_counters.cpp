// thread_counters.cpp: pmc["name"] from the counts an event carries.
#include "thread_counters.h"

#include "counters.h"

#include <array>
#include <cstddef>
#include <string_view>

namespace dtrace::pmc {

namespace {

using Reader = uint64_t (*)(const dtrace_thread_counts &counts, const dtrace_event_ctx &ctx);

struct ThreadCounter {
    std::string_view name;
    Reader read;
};

// As perf counts them for one thread; the kernel's per-thread fault counts
// are the faults it completed (getrusage's), which perf's page-faults equals
// but for faults retried after a lock was dropped.
constexpr std::array kThreadCounters{
    ThreadCounter{"page-faults", [](const dtrace_thread_counts &c,
                                    const dtrace_event_ctx &) { return c.minor_faults + c.major_faults; }},
    ThreadCounter{"minor-faults",
                  [](const dtrace_thread_counts &c, const dtrace_event_ctx &) { return c.minor_faults; }},
    ThreadCounter{"major-faults",
                  [](const dtrace_thread_counts &c, const dtrace_event_ctx &) { return c.major_faults; }},
    ThreadCounter{"context-switches",
                  [](const dtrace_thread_counts &c, const dtrace_event_ctx &) {
                      return c.voluntary_switches + c.involuntary_switches;
                  }},
    ThreadCounter{"cpu-migrations",
                  [](const dtrace_thread_counts &c, const dtrace_event_ctx &) { return c.migrations; }},
    // The thread's on-CPU ns as the scheduler last accounted it (the
    // event's vtimestamp): up to a scheduler tick behind within a slice.
    ThreadCounter{"task-clock",
                  [](const dtrace_thread_counts &, const dtrace_event_ctx &ctx) { return ctx.vtimestamp; }},
};

std::string readable_names() {
    std::string names;
    for (const ThreadCounter &c : kThreadCounters)
        names += (names.empty() ? "" : ", ") + std::string(c.name);
    return names;
}

bool carries_counts(const dtrace_event_ctx &ctx) {
    const size_t end = offsetof(dtrace_event_ctx, thread_counts) + sizeof ctx.thread_counts;
    return ctx.struct_size >= end && ctx.thread_counts != nullptr &&
           ctx.thread_counts->struct_size >= offsetof(dtrace_thread_counts, migrations) + sizeof(uint64_t);
}

} // namespace

std::optional<uint64_t> resolve_thread_counter(const std::string &name, std::string &why) {
    for (size_t i = 0; i < kThreadCounters.size(); ++i)
        if (kThreadCounters[i].name == name)
            return i;
    const bool known = parse_probe_name(name + "-1").has_value();
    if (!known) {
        why = "unknown counter (the counters: " + readable_names() + ")";
        return std::nullopt;
    }
    std::string not_here;
    if (std::optional<CounterProbe> probe = parse_probe_name(name + "-1"); !countable(probe->counter, not_here)) {
        why = not_here;
        return std::nullopt;
    }
    why = "only the kernel's per-thread counts can be read at other probes yet (" + readable_names() + "); sample " +
          name + " with pmc:::" + name + "-<interval>";
    return std::nullopt;
}

std::optional<uint64_t> read_thread_counter(uint64_t cookie, const dtrace_event_ctx &ctx) {
    if (cookie >= kThreadCounters.size() || !carries_counts(ctx))
        return std::nullopt;
    return kThreadCounters[cookie].read(*ctx.thread_counts, ctx);
}

} // namespace dtrace::pmc
