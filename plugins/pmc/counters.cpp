// counters.cpp: the counter table, probe names and the availability check.
#include "counters.h"

#include "perf_event.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <linux/perf_event.h>
#include <unistd.h>

namespace dtrace::pmc {

namespace {

constexpr uint64_t kTimerInterval = 1000000; // 1 ms of a clock counter
constexpr uint64_t kEventInterval = 10000;

std::vector<Counter> make_counters() {
    std::vector<Counter> counters = {
        {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, kTimerInterval},
        {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, kTimerInterval},
        {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1},
        {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, 1},
        {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1},
        {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 1},
        {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 1},
        {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1},
        {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, 1},
        {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, kTimerInterval},
        {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, kTimerInterval},
        {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, kTimerInterval},
        {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, kEventInterval},
        {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, kEventInterval},
        {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, kEventInterval},
        {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, kEventInterval},
        {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, kEventInterval},
        {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, kTimerInterval},
        {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, kTimerInterval},
        {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, kTimerInterval},
        {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, kTimerInterval},
    };
    // The generic cache events: <cache>-<op>s and <cache>-<op>-misses.
    const std::pair<const char *, uint64_t> caches[] = {
        {"L1-dcache", PERF_COUNT_HW_CACHE_L1D}, {"L1-icache", PERF_COUNT_HW_CACHE_L1I},
        {"LLC", PERF_COUNT_HW_CACHE_LL},        {"dTLB", PERF_COUNT_HW_CACHE_DTLB},
        {"iTLB", PERF_COUNT_HW_CACHE_ITLB},     {"branch", PERF_COUNT_HW_CACHE_BPU},
        {"node", PERF_COUNT_HW_CACHE_NODE}};
    struct Op {
        const char *plural, *singular;
        uint64_t id;
    };
    const Op ops[] = {{"loads", "load", PERF_COUNT_HW_CACHE_OP_READ},
                      {"stores", "store", PERF_COUNT_HW_CACHE_OP_WRITE},
                      {"prefetches", "prefetch", PERF_COUNT_HW_CACHE_OP_PREFETCH}};
    for (const auto &[cache, cache_id] : caches) {
        for (const Op &op : ops) {
            const uint64_t base = cache_id | (op.id << 8);
            counters.push_back({std::string(cache) + "-" + op.plural, PERF_TYPE_HW_CACHE,
                                base | (PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16), kEventInterval});
            counters.push_back({std::string(cache) + "-" + op.singular + "-misses", PERF_TYPE_HW_CACHE,
                                base | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16), kEventInterval});
        }
    }
    return counters;
}

std::optional<uint64_t> number(std::string_view text, int base) {
    uint64_t value = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

} // namespace

bool Counter::hardware() const {
    return type != PERF_TYPE_SOFTWARE;
}

const std::vector<Counter> &known_counters() {
    static const std::vector<Counter> counters = make_counters();
    return counters;
}

std::optional<CounterProbe> parse_probe_name(std::string_view name) {
    const size_t dash = name.rfind('-');
    if (dash == std::string_view::npos)
        return std::nullopt;
    std::optional<uint64_t> interval = number(name.substr(dash + 1), 10);
    if (!interval || *interval == 0)
        return std::nullopt;
    const std::string_view counter = name.substr(0, dash);
    for (const Counter &c : known_counters())
        if (c.name == counter)
            return CounterProbe{c, *interval};
    // A raw PMU event: r followed by its hex code.
    if (counter.size() > 1 && counter.size() <= 17 && counter[0] == 'r') {
        if (std::optional<uint64_t> code = number(counter.substr(1), 16))
            return CounterProbe{Counter{std::string(counter), PERF_TYPE_RAW, *code, kEventInterval}, *interval};
    }
    return std::nullopt;
}

bool countable(const Counter &counter, std::string &why) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = counter.type;
    attr.config = counter.config;
    attr.disabled = 1;
    const int fd = live::perf::open_event(attr, 0, -1);
    if (fd >= 0) {
        close(fd);
        return true;
    }
    if (counter.hardware() && (fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV))
        why = "no PMU on this machine: " + counter.name +
              " is a hardware counter (perf_event_open: " + std::strerror(-fd) + ")";
    else
        why = counter.name + " cannot be counted here (perf_event_open: " + std::strerror(-fd) + ")";
    return false;
}

} // namespace dtrace::pmc
