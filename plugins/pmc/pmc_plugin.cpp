// pmc_plugin.cpp: opening the sampling events and firing their samples.
#include "pmc_plugin.h"

#include "user_regs.h"

#include <ctime>
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
constexpr int kPollTimeoutMs = 50;

std::vector<int> online_cpus(bool every_cpu) {
    long count = sysconf(_SC_NPROCESSORS_ONLN);
    std::vector<int> cpus;
    for (int cpu = 0; cpu < (every_cpu ? std::max(count, 1L) : 1L); cpu++)
        cpus.push_back(cpu);
    return cpus;
}

perf_event_attr sampling_attr(const SamplingProbe &probe) {
    perf_event_attr attr{};
    attr.type = probe.type;
    attr.config = probe.config;
    attr.sample_period = probe.period;
    attr.use_clockid = 1;
    attr.clockid = CLOCK_MONOTONIC; // the clock of live timestamps
    attr.exclude_callchain_user = 1; // user stacks come from the DWARF unwinder
    attr.sample_max_stack = kMaxFrames;
    attr.sample_stack_user = kUserStackBytes;
    return attr;
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
    // Rings of 4 MB per event hold about half a second of 997 Hz samples
    // with their stack copies: the reader may not be scheduled for that long
    // on a loaded machine.
    sampler_ = std::make_unique<perf::Sampler>(*this, perf::SamplerOptions{kRingPages, kPollTimeoutMs});
    const perf::RecordLayout layout{perf::kSampleType, stacks::kPerfRegsMask};
    std::string error;
    for (const auto &[probe, sampling] : enabled_) {
        if (!sampler_->add(sampling_attr(sampling), layout, probe, online_cpus(sampling.every_cpu), error)) {
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

void PmcPlugin::on_sample(uint64_t tag, const perf::Sample &sample) {
    uint64_t kernel_stack[kMaxFrames], user_stack[kMaxFrames];
    const ProcessInfo &process = processes_.of(sample.pid, sample.cpu);
    const uint64_t args[2] = {sample.kernel_mode ? sample.ip : 0, sample.kernel_mode ? 0 : sample.ip};
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
    ctx.nargs = 2;
    ctx.args = args;
    ctx.kernel_stack = kernel_stack;
    ctx.kernel_stack_depth = static_cast<uint32_t>(perf::kernel_frames(sample.callchain, kernel_stack));
    ctx.user_stack = user_stack;
    if (sample.pid != 0 && !sample.user_regs.empty()) {
        const stacks::UserRegs regs = stacks::from_perf(sample.user_regs);
        const stacks::StackCopy copy{regs.value[stacks::kDwarfSp], sample.user_stack};
        ctx.user_stack_depth = static_cast<uint32_t>(stacks_.unwind_user(sample.pid, regs, copy, user_stack));
    }
    ops_->fire(host_, static_cast<dtrace_probe_id>(tag), &ctx);
}

void PmcPlugin::on_comm(const perf::CommRecord &comm) {
    if (comm.exec)
        stacks_.maps().exec(comm.pid);
    if (comm.pid == comm.tid)
        processes_.rename(comm.pid, comm.comm);
}

void PmcPlugin::on_mmap(const perf::MmapRecord &mmap) {
    stacks_.maps().add(mmap.pid, {mmap.start, mmap.start + mmap.length, mmap.pgoff, std::string(mmap.path)});
}

void PmcPlugin::on_lost(uint32_t cpu, uint64_t count) {
    ops_->report_drops(host_, cpu, count, DTRACE_DROP_PRINCIPAL);
}

} // namespace dtrace::pmc
