// pmc_plugin.cpp: opening the sampling events and firing their samples.
#include "pmc_plugin.h"
#include "probe_usage.h"

#include "thread_counters.h"

#include "process_library.h"
#include "user_registers.h"
#include "user_regs.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fnmatch.h>
#include <iterator>
#include <linux/perf_event.h>
#include <unistd.h>
#include <vector>

namespace dtrace::pmc {

namespace {

namespace perf = live::perf;
namespace stacks = live::stacks;

// As deep as the kernel's own limit (perf_event_max_stack).
constexpr size_t kMaxFrames = 127;
// The user stack bytes copied at each sample: what perf record copies by default.
constexpr uint32_t kUserStackBytes = 8192;
constexpr size_t kRingPages = 1024;
constexpr size_t kMaxDefaultRingPages = 16384;    // 64 MB
constexpr uint64_t kSampleOverhead = 512;         // a sample's bytes besides the stack copy
constexpr size_t kMaxRingPages = size_t(1) << 18; // 1 GB of 4 KB pages
// A sampler tag is the probe id, with this bit for probes whose arg0 is the IP in either mode,
constexpr uint64_t kArg0IsIpTag = 1ull << 32;
// and this one for probes whose clauses read the user stack (the sample's is unwound).
constexpr uint64_t kUnwindTag = 1ull << 33;
constexpr uint64_t kProbeOfTag = (1ull << 32) - 1;
constexpr int kPollTimeoutMs = 50;

std::vector<int> online_cpus(bool every_cpu) {
    long count = sysconf(_SC_NPROCESSORS_ONLN);
    std::vector<int> cpus;
    for (int cpu = 0; cpu < (every_cpu ? std::max(count, 1L) : 1L); cpu++)
        cpus.push_back(cpu);
    return cpus;
}

// Whether process `pid` has one thread: an event opened for it (its main
// thread) then follows every thread it creates; the threads it already has
// would need an event each.
bool single_threaded(int64_t pid) {
    std::error_code error;
    std::filesystem::directory_iterator tasks("/proc/" + std::to_string(pid) + "/task", error), end;
    return !error && std::distance(tasks, end) == 1;
}

// The ring pages of each event: -x perfbufsize (k, m or g suffix) rounded
// down to a power of two, at least 8 pages.
size_t ring_pages(const char *option) {
    if (option == nullptr)
        return kRingPages;
    char *end = nullptr;
    uint64_t bytes = std::strtoull(option, &end, 0);
    switch (std::tolower(static_cast<unsigned char>(*end))) {
    case 'g':
        bytes <<= 10;
        [[fallthrough]];
    case 'm':
        bytes <<= 10;
        [[fallthrough]];
    case 'k':
        bytes <<= 10;
        break;
    default:
        break;
    }
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    size_t pages = 8;
    while (pages * 2 * page <= bytes && pages < kMaxRingPages)
        pages *= 2;
    return pages;
}

// Without -x perfbufsize: rings that hold half a second of the fastest
// clock's samples with their stack copies (the reader may not be scheduled
// for that long on a loaded machine), from kRingPages up to 64 MB.
size_t default_ring_pages(const std::map<dtrace_probe_id, SamplingProbe> &enabled) {
    uint64_t fastest_hz = 0;
    for (const auto &[probe, sampling] : enabled)
        if (sampling.type == PERF_TYPE_SOFTWARE &&
            (sampling.config == PERF_COUNT_SW_CPU_CLOCK || sampling.config == PERF_COUNT_SW_TASK_CLOCK))
            fastest_hz = std::max<uint64_t>(fastest_hz, 1000000000 / sampling.period);
    const uint64_t half_second = fastest_hz * (kUserStackBytes + kSampleOverhead) / 2;
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    size_t pages = kRingPages;
    while (pages * page < half_second && pages < kMaxDefaultRingPages)
        pages *= 2;
    return pages;
}

perf_event_attr sampling_attr(const SamplingProbe &probe, const dtrace_probe_usage &usage) {
    perf_event_attr attr{};
    attr.type = probe.type;
    attr.config = probe.config;
    attr.sample_period = probe.period;
    attr.use_clockid = 1;
    attr.clockid = CLOCK_MONOTONIC;  // the clock of live timestamps
    attr.exclude_callchain_user = 1; // user stacks come from the DWARF unwinder
    attr.sample_max_stack = kMaxFrames;
    if (usage.flags & DTRACE_USAGE_USER_STACK)
        attr.sample_stack_user = kUserStackBytes;
    return attr;
}

// What the probe's clauses read: a sample copies the user stack (8 KB) only
// for ustack() and its kin, the user registers for those and uregs[], the
// kernel callchain only for stack() and its kin. Without the host's answer,
// everything.
dtrace_probe_usage usage_of(dtrace_host *host, const dtrace_host_ops *ops, dtrace_probe_id probe) {
    dtrace_probe_usage everything{};
    everything.struct_size = sizeof everything;
    everything.flags = DTRACE_USAGE_USER_STACK | DTRACE_USAGE_KERNEL_STACK | DTRACE_USAGE_USER_REGS;
    return plugin_common::probe_usage_of(host, ops, probe).value_or(everything);
}

// The user registers a sample copies: the unwinder's and uregs[]'s.
uint64_t sampled_regs_mask() {
    static const uint64_t mask = stacks::kPerfRegsMask | live::perf_user_regs_mask();
    return mask;
}

perf::RecordLayout layout_for(const dtrace_probe_usage &usage) {
    perf::RecordLayout layout{perf::kSampleType, sampled_regs_mask()};
    if (!(usage.flags & DTRACE_USAGE_USER_STACK))
        layout.sample_type &= ~static_cast<uint64_t>(PERF_SAMPLE_STACK_USER);
    if (!(usage.flags & (DTRACE_USAGE_USER_STACK | DTRACE_USAGE_USER_REGS))) {
        layout.sample_type &= ~static_cast<uint64_t>(PERF_SAMPLE_REGS_USER);
        layout.regs_user_mask = 0;
    }
    if (!(usage.flags & DTRACE_USAGE_KERNEL_STACK))
        layout.sample_type &= ~static_cast<uint64_t>(PERF_SAMPLE_CALLCHAIN);
    return layout;
}

} // namespace

bool PmcPlugin::can_sample() {
    if (sampling_works_ < 0) {
        perf_event_attr attr{};
        attr.size = sizeof attr;
        attr.type = PERF_TYPE_SOFTWARE;
        attr.config = PERF_COUNT_SW_CPU_CLOCK;
        attr.disabled = 1;
        int fd = perf::open_event(attr, 0, -1);
        sampling_works_ = fd >= 0;
        if (fd >= 0)
            close(fd);
    }
    return sampling_works_ == 1;
}

int PmcPlugin::init() {
    constexpr dtrace_attribute kEvolvingCommon = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
                                                  DTRACE_CLASS_COMMON};
    constexpr dtrace_attribute kPrivateUnknown = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE,
                                                  DTRACE_CLASS_UNKNOWN};
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = "pmc";
    info.attributes = {kEvolvingCommon, kPrivateUnknown, kPrivateUnknown, kEvolvingCommon, kEvolvingCommon};
    provider_ = ops_->register_provider(host_, &info);
    if (provider_ == 0)
        return -1;
    if (live::register_live_libraries(host_, ops_) != 0) // psinfo_t, curpsinfo ... of the sampled thread
        return -1;
    return live::register_user_registers_library(host_, ops_); // R_PC and its kin for uregs[] at profile-N
}

bool PmcPlugin::countable(const Counter &counter, std::string &why) {
    auto known = not_countable_.find(counter.name);
    if (known == not_countable_.end())
        known = not_countable_.emplace(counter.name, pmc::countable(counter, why) ? "" : why).first;
    why = known->second;
    return why.empty();
}

void PmcPlugin::add_probe(const CounterProbe &probe) {
    static const dtrace_arg_desc kArgs[2] = {{sizeof(dtrace_arg_desc), "uint64_t", nullptr, 0},
                                             {sizeof(dtrace_arg_desc), "uint64_t", nullptr, 1}};
    size_t index = 0;
    while (index < probes_.size() &&
           !(probes_[index].counter.name == probe.counter.name && probes_[index].interval == probe.interval))
        index++;
    if (index == probes_.size())
        probes_.push_back(probe);
    const std::string name = probe.counter.name + "-" + std::to_string(probe.interval);
    dtrace_probe_desc desc{};
    desc.struct_size = sizeof desc;
    desc.module = "";
    desc.function = "";
    desc.name = name.c_str();
    desc.nargs = 2;
    desc.args = kArgs;
    desc.cookie = index + 1;
    ops_->register_probe(host_, provider_, &desc);
}

void PmcPlugin::provide_listing(const char *name_pattern, bool say_why_hardware_is_missing) {
    std::string hardware_missing;
    for (const Counter &counter : known_counters()) {
        // Without a PMU no hardware counter opens: one failure says it for all.
        if (counter.hardware() && !hardware_missing.empty())
            continue;
        std::string why;
        if (!countable(counter, why)) {
            if (counter.hardware() && why.rfind("no PMU", 0) == 0)
                hardware_missing = why;
            continue;
        }
        const std::string name = counter.name + "-" + std::to_string(counter.listed_interval);
        if (name_pattern == nullptr || name_pattern[0] == '\0' || fnmatch(name_pattern, name.c_str(), 0) == 0)
            add_probe({counter, counter.listed_interval});
    }
    if (say_why_hardware_is_missing && !hardware_missing.empty()) {
        const std::string note = "no hardware counter is listed: " + hardware_missing;
        ops_->report_error(host_, note.c_str());
    }
}

int PmcPlugin::provide(const dtrace_probe_spec *spec) {
    if (spec == nullptr) {
        provide_listing(nullptr, false);
        return 0;
    }
    const char *provider = spec->provider != nullptr ? spec->provider : "";
    if (provider[0] != '\0' && fnmatch(provider, "pmc", 0) != 0)
        return 0;
    const char *name = spec->name != nullptr ? spec->name : "";
    // A plain name may create any counter's probe (page-faults-1, cycles-100000, r00c0-1000).
    if (std::strpbrk(name, "*?[") == nullptr && name[0] != '\0') {
        if (std::optional<CounterProbe> probe = parse_probe_name(name))
            add_probe(*probe);
        return 0;
    }
    provide_listing(name, std::strcmp(provider, "pmc") == 0);
    return 0;
}

int PmcPlugin::enable(dtrace_probe_id probe, uint64_t cookie) {
    if (cookie == 0 || cookie > probes_.size())
        return -1;
    const CounterProbe &counter = probes_[cookie - 1];
    std::string why;
    if (!countable(counter.counter, why)) {
        ops_->report_error(host_, why.c_str());
        return -1;
    }
    enabled_[probe] = {counter.counter.type, counter.counter.config, counter.interval, true, true};
    return 0;
}

void PmcPlugin::disable(dtrace_probe_id probe, uint64_t) {
    enabled_.erase(probe);
}

int PmcPlugin::add_live_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
    if (interval_ns == 0 || !can_sample())
        return -1;
    enabled_[probe] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, interval_ns, (flags & DTRACE_TIMER_PER_CPU) != 0};
    return 0;
}

void PmcPlugin::remove_live_timer(dtrace_probe_id probe) {
    enabled_.erase(probe);
}

int PmcPlugin::start() {
    if (enabled_.empty())
        return 0;
    const char *ring_option = ops_->get_option(host_, "perfbufsize");
    const size_t pages = ring_option != nullptr ? ring_pages(ring_option) : default_ring_pages(enabled_);
    sampler_ = std::make_unique<perf::Sampler>(*this, perf::SamplerOptions{pages, kPollTimeoutMs});
    std::string error;
    bool every_process = false;
    for (const auto &[probe, sampling] : enabled_) {
        every_process = every_process || sampling.only_pids.empty();
        const dtrace_probe_usage usage = usage_of(host_, ops_, probe);
        const uint64_t tag =
            probe | (sampling.arg0_is_ip ? kArg0IsIpTag : 0) | (usage.flags & DTRACE_USAGE_USER_STACK ? kUnwindTag : 0);
        bool added = true;
        for (int64_t pid : sampling.only_pids)
            added = added && sampler_->add_process(sampling_attr(sampling, usage), layout_for(usage), tag,
                                                   static_cast<pid_t>(pid), online_cpus(true), error);
        if (sampling.only_pids.empty())
            added = sampler_->add(sampling_attr(sampling, usage), layout_for(usage), tag,
                                  online_cpus(sampling.every_cpu), error);
        if (!added) {
            sampler_.reset();
            ops_->report_error(host_, error.c_str());
            return -1;
        }
    }
    if (!sampler_->start(error)) {
        sampler_.reset();
        ops_->report_error(host_, error.c_str());
        return -1;
    }
    // Those running now: the records of the sampling, enabled, tell of the later ones.
    if (every_process)
        processes_.remember_running();
    return 0;
}

void PmcPlugin::stop() {
    if (sampler_ != nullptr)
        sampler_->stop();
    sampler_.reset();
}

int PmcPlugin::lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    return stacks_.lookup(space, pid, address, out) ? 0 : -1;
}

int PmcPlugin::set_filters(dtrace_probe_id probe, uint64_t, uint32_t nfilters, const dtrace_filter *filters) {
    auto it = enabled_.find(probe);
    if (it == enabled_.end() || !it->second.arg0_is_ip)
        return 0;              // the profile provider's timers sample every process, as DTrace's
    std::vector<int64_t> pids; // each single-threaded (else every process is sampled)
    for (uint32_t f = 0; f < nfilters; ++f) {
        const dtrace_filter &filter = filters[f];
        const auto is_pid = [](const dtrace_filter_term &t) {
            return t.field == DTRACE_FILTER_PID && t.op == DTRACE_FILTER_EQ && t.value > 0;
        };
        const dtrace_filter_term *pid = std::find_if(filter.terms, filter.terms + filter.nterms, is_pid);
        if (pid == filter.terms + filter.nterms || !single_threaded(pid->value))
            return 0; // a clause that wants other processes too, or threads an event would miss
        pids.push_back(pid->value);
    }
    it->second.only_pids = std::move(pids); // none when nfilters is 0: every process
    return 0;
}

int PmcPlugin::resolve_counter(const char *name, uint64_t &cookie, const char *&why) {
    std::optional<uint64_t> found = resolve_thread_counter(name, counter_refusal_);
    if (!found) {
        why = counter_refusal_.c_str();
        return -1;
    }
    cookie = *found;
    return 0;
}

int PmcPlugin::read_counter(uint64_t cookie, const dtrace_event_ctx &ctx, uint64_t &value) const noexcept {
    std::optional<uint64_t> count = read_thread_counter(cookie, ctx);
    if (!count)
        return -1;
    value = *count;
    return 0;
}

void PmcPlugin::on_sample(uint64_t tag, const perf::Sample &sample) {
    uint64_t kernel_stack[kMaxFrames], user_stack[kMaxFrames];
    const ProcessInfo &process = processes_.of(sample.pid, sample.cpu);
    const bool arg0_is_ip = (tag & kArg0IsIpTag) != 0;
    const uint64_t args[2] = {arg0_is_ip || sample.kernel_mode ? sample.ip : 0, sample.kernel_mode ? 0 : sample.ip};
    dtrace_event_ctx ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.cpu = sample.cpu;
    ctx.timestamp = sample.time;
    ctx.pid = sample.pid;
    ctx.tid = sample.tid;
    ctx.ppid = process.ppid;
    ctx.uid = process.uid;
    ctx.gid = process.gid;
    ctx.execname = process.execname.c_str();
    // curpsinfo and curlwpsinfo: built from these, and /proc, when a clause reads them.
    sampled_ = {};
    sampled_.pid = static_cast<uint32_t>(sample.pid);
    sampled_.tid = static_cast<uint32_t>(sample.tid);
    sampled_.ppid = static_cast<uint32_t>(process.ppid);
    sampled_.uid = static_cast<uint32_t>(process.uid);
    sampled_.gid = static_cast<uint32_t>(process.gid);
    sampled_.cpu = sample.cpu;
    sampled_.syscall_nr = -1;
    process.execname.copy(sampled_.comm, sizeof sampled_.comm - 1);
    records_.begin_firing(sampled_);
    ctx.read_memory = &PmcPlugin::read_process_records;
    ctx.reader_state = this;
    ctx.nargs = 2;
    ctx.args = args;
    ctx.kernel_stack = kernel_stack;
    ctx.kernel_stack_depth = static_cast<uint32_t>(perf::kernel_frames(sample.callchain, kernel_stack));
    ctx.user_stack = user_stack;
    // uregs[]: the thread's user registers, those it was interrupted in or,
    // sampled in the kernel, those saved when it entered it (as DTrace's
    // uregs[], and perf's REGS_USER); a kernel thread has none.
    live::UserRegisters uregs;
    if (sample.pid != 0 && !sample.user_regs.empty()) {
        uregs = live::user_registers_from_perf(sampled_regs_mask(), sample.user_regs);
        live::set_user_registers(ctx, uregs);
        if (tag & kUnwindTag) {
            const stacks::UserRegs regs = stacks::from_perf(sample.user_regs, sampled_regs_mask());
            const stacks::StackCopy copy{regs.value[stacks::kDwarfSp], sample.user_stack};
            ctx.user_stack_depth = static_cast<uint32_t>(stacks_.unwind_user(sample.pid, regs, copy, user_stack));
        }
    }
    ops_->fire(host_, static_cast<dtrace_probe_id>(tag & kProbeOfTag), &ctx);
}

int64_t PmcPlugin::read_process_records(void *state, uint64_t address, void *buffer, size_t length) {
    if (!live::ProcessInfo::owns(address))
        return -1;
    return static_cast<PmcPlugin *>(state)->records_.read(address, buffer, length);
}

void PmcPlugin::on_comm(const perf::CommRecord &comm) {
    if (comm.exec)
        stacks_.maps().exec(comm.pid);
    if (comm.pid == comm.tid)
        processes_.rename(comm.pid, comm.comm);
}

void PmcPlugin::on_task(const perf::TaskRecord &task) {
    if (!task.exit && task.pid != task.ppid)
        processes_.inherit(task.pid, task.ppid);
}

void PmcPlugin::target_changed(int64_t pid, uint32_t state) {
    if (state != DTRACE_TARGET_STOPPED)
        return;
    stacks_.maps().ensure(pid);
    processes_.remember(pid);
}

void PmcPlugin::on_mmap(const perf::MmapRecord &mmap) {
    stacks_.maps().add(mmap.pid, {mmap.start, mmap.start + mmap.length, mmap.pgoff, std::string(mmap.path)});
}

void PmcPlugin::on_lost(uint32_t cpu, uint64_t count) {
    ops_->report_drops(host_, cpu, count, DTRACE_DROP_PRINCIPAL);
}

} // namespace dtrace::pmc
