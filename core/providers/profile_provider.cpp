// profile_provider.cpp: the profile provider's timers.
//
//   profile:::profile-N[unit]  fires on every CPU at that rate
//   profile:::tick-N[unit]     fires on one CPU at that rate
//
// N without a unit is a frequency in hertz; units are ns nsec us usec ms msec
// s sec m min h hour d day hz, as in DTrace. Intervals shorter than 200 us
// (faster than 5000 Hz) are refused, as DTrace's profile provider refuses
// them: no probe is created and the description matches nothing. A common set
// of rates is listed up front; any other valid name is created on demand
// when a description names it.
//
// When a trace file is replayed (-E) the timers run on trace time instead:
// the provider hands them to the host (add_trace_timer), which fires them as
// the replayed events' timestamps pass each deadline.
//
// Live, each enabled timer is first offered to the platform plugins
// (add_live_timer): one that samples with the kernel's clock events (pmc on
// Linux) fires it in the interrupted thread's context, with arg0/arg1 the
// kernel/user PC and the thread's stacks. When no plugin takes it, this
// provider runs a portable timer thread (one per CPU for profile-N, pinned
// where the OS allows): the firing thread is then dtrace's own, so pid, tid
// and execname describe dtrace, and arg0/arg1 are 0.
#include "providers/dtrace_provider.h"

#include "common/own_process.h"
#include "common/time_units.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <sched.h>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unistd.h>
#include <vector>

namespace dtrace::providers {

namespace {

constexpr int64_t kMinimumInterval = common::kNanosPerSecond / 5000;
constexpr std::string_view kProfilePrefix = "profile-";
constexpr std::string_view kTickPrefix = "tick-";
constexpr uint64_t kPerCpuFlag = 1ull << 63; // cookie bit: profile-N (else tick-N)

const char *const kDefaultProbes[] = {"profile-97",   "profile-199",  "profile-499", "profile-997", "profile-1999",
                                      "profile-4001", "profile-4999", "tick-1",      "tick-10",     "tick-100",
                                      "tick-500",     "tick-1000",    "tick-5000"};

constexpr dtrace_attribute kEvolvingCommon = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
                                              DTRACE_CLASS_COMMON};
constexpr dtrace_attribute kUnstableUnknown = {DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE,
                                               DTRACE_CLASS_UNKNOWN};
constexpr dtrace_attribute kPrivateUnknown = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};

struct TimerProbe {
    bool per_cpu;
    int64_t interval_ns;
};

// "profile-997" -> {true, 1003009}; nullopt when the name is not a timer.
std::optional<TimerProbe> parse_timer_name(std::string_view name) {
    TimerProbe probe{};
    if (name.substr(0, kProfilePrefix.size()) == kProfilePrefix) {
        probe.per_cpu = true;
        name.remove_prefix(kProfilePrefix.size());
    } else if (name.substr(0, kTickPrefix.size()) == kTickPrefix) {
        probe.per_cpu = false;
        name.remove_prefix(kTickPrefix.size());
    } else {
        return std::nullopt;
    }
    size_t digits = 0;
    int64_t value = 0;
    while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9') {
        if (value > common::kNanosPerSecond * 1000)
            return std::nullopt;
        value = value * 10 + (name[digits] - '0');
        digits++;
    }
    if (digits == 0 || value == 0)
        return std::nullopt;
    // A bare number is a frequency in hertz, as in DTrace's profile provider.
    std::optional<int64_t> unit = common::nanos_per_unit(name.substr(digits), common::kHertz);
    if (!unit)
        return std::nullopt;
    std::optional<int64_t> interval = common::interval_nanos(value, *unit);
    if (!interval || *interval < kMinimumInterval)
        return std::nullopt;
    probe.interval_ns = *interval;
    return probe;
}

uint64_t cookie_of(const TimerProbe &t) {
    return uint64_t(t.interval_ns) | (t.per_cpu ? kPerCpuFlag : 0);
}
TimerProbe timer_of(uint64_t cookie) {
    return TimerProbe{(cookie & kPerCpuFlag) != 0, static_cast<int64_t>(cookie & ~kPerCpuFlag)};
}

class ProfileProvider {
  public:
    ProfileProvider(dtrace_host *host, const dtrace_host_ops *ops, dtrace_provider_id provider)
        : host_(host), ops_(ops), provider_(provider) {}
    ~ProfileProvider() { stop(); }

    void add_defaults() {
        for (const char *name : kDefaultProbes)
            add(name);
    }

    // The common rates exist from the start; a plain name may create another
    // (profile-1234, tick-3s). A glob names no new probe.
    int provide(const dtrace_probe_spec *spec) {
        if (spec && spec->name && std::strpbrk(spec->name, "*?[") == nullptr && parse_timer_name(spec->name))
            add(spec->name);
        return 0;
    }

    int enable(dtrace_probe_id probe, uint64_t cookie) {
        const TimerProbe timer = timer_of(cookie);
        if (offer_live_timer(probe, timer))
            return 0;
        std::lock_guard guard(lock_);
        enabled_[probe] = timer;
        return 0;
    }

    void disable(dtrace_probe_id probe) {
        if (delegated_.erase(probe) != 0) {
            ops_->remove_live_timer(host_, probe);
            return;
        }
        std::lock_guard guard(lock_);
        enabled_.erase(probe);
    }

    int start() {
        std::vector<std::pair<dtrace_probe_id, TimerProbe>> timers(enabled_.begin(), enabled_.end());
        if (timers.empty())
            return 0;
        // Replaying a trace file: the timers run on trace time, driven by the host.
        if (ops_->get_option(host_, "replay") != nullptr) {
            for (auto &[probe, timer] : timers) {
                if (ops_->add_trace_timer(host_, probe, uint64_t(timer.interval_ns),
                                          timer.per_cpu ? DTRACE_TIMER_PER_CPU : 0) != 0)
                    return -1;
            }
            return 0;
        }
        stopping_ = false;
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        for (auto &[probe, timer] : timers) {
            if (timer.per_cpu) {
                for (long cpu = 0; cpu < std::max(cpus, 1L); cpu++)
                    threads_.emplace_back(&ProfileProvider::run, this, probe, timer.interval_ns, int(cpu));
            } else {
                threads_.emplace_back(&ProfileProvider::run, this, probe, timer.interval_ns, -1);
            }
        }
        return 0;
    }

    void stop() {
        {
            std::lock_guard guard(lock_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (std::thread &t : threads_)
            t.join();
        threads_.clear();
    }

  private:
    // True when a platform plugin took the timer (live only: a replay's
    // timers run on trace time from start()).
    bool offer_live_timer(dtrace_probe_id probe, const TimerProbe &timer) {
        if (ops_->get_option(host_, "replay") != nullptr ||
            ops_->struct_size < offsetof(dtrace_host_ops, remove_live_timer) + sizeof ops_->remove_live_timer)
            return false;
        if (ops_->add_live_timer(host_, probe, uint64_t(timer.interval_ns), timer.per_cpu ? DTRACE_TIMER_PER_CPU : 0) !=
            0)
            return false;
        delegated_.insert(probe);
        return true;
    }

    void add(const char *name) {
        std::optional<TimerProbe> timer = parse_timer_name(name);
        if (!timer)
            return;
        dtrace_probe_desc desc{};
        desc.struct_size = sizeof desc;
        desc.module = "";
        desc.function = "";
        desc.name = name;
        desc.cookie = cookie_of(*timer);
        ops_->register_probe(host_, provider_, &desc);
    }

    // One timer on one CPU (cpu < 0: wherever the thread runs).
    void run(dtrace_probe_id probe, int64_t interval_ns, int cpu) {
        if (cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            pthread_setaffinity_np(pthread_self(), sizeof set, &set);
        }
        const uint64_t args[2] = {0, 0};
        auto interval = std::chrono::nanoseconds(interval_ns);
        auto next = std::chrono::steady_clock::now() + interval;
        std::unique_lock guard(lock_);
        while (!wake_.wait_until(guard, next, [this] { return stopping_; })) {
            guard.unlock();
            dtrace_event_ctx ctx = common::own_process_context();
            if (cpu >= 0)
                ctx.cpu = uint32_t(cpu);
            ctx.args = args;
            ctx.nargs = 2;
            ops_->fire(host_, probe, &ctx);
            // Missed periods are skipped, not caught up in a burst.
            auto now = std::chrono::steady_clock::now();
            next += interval;
            if (next <= now)
                next = now + interval;
            guard.lock();
        }
    }

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    dtrace_provider_id provider_;
    std::mutex lock_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::map<dtrace_probe_id, TimerProbe> enabled_; // run here
    std::set<dtrace_probe_id> delegated_;           // taken by a platform plugin (control thread only)
    std::vector<std::thread> threads_;
};

int init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = "profile";
    info.attributes = {kEvolvingCommon, kUnstableUnknown, kPrivateUnknown, kEvolvingCommon, kEvolvingCommon};
    dtrace_provider_id provider = ops->register_provider(host, &info);
    if (provider == 0)
        return -1;
    auto *profile = new ProfileProvider(host, ops, provider);
    profile->add_defaults();
    *state = profile;
    return 0;
}

ProfileProvider &self(void *state) {
    return *static_cast<ProfileProvider *>(state);
}

const dtrace_plugin_ops kOps = {
    sizeof(dtrace_plugin_ops),
    DTRACE_SDK_ABI_VERSION,
    "profile",
    "the profile provider: profile-N and tick-N timers",
    0,
    init,
    [](void *state, const dtrace_probe_spec *spec) { return self(state).provide(spec); },
    nullptr,
    [](void *state, dtrace_probe_id probe, uint64_t cookie) { return self(state).enable(probe, cookie); },
    [](void *state, dtrace_probe_id probe, uint64_t) { self(state).disable(probe); },
    [](void *state) { return self(state).start(); },
    [](void *state) { self(state).stop(); },
    [](void *state) { delete static_cast<ProfileProvider *>(state); },
};

} // namespace

const dtrace_plugin_ops *profile_provider_ops() {
    return &kOps;
}

} // namespace dtrace::providers
