// ustack_walk_bench.cpp: what the in-kernel ustack() walk by CFI rows
// (core/fastpath/user_stacks.h) costs per event, beside the kernel's
// frame-pointer walk that bpftrace's ustack takes (bpf_get_stack() with
// BPF_F_USER_STACK), in one run. Root only.
//
// Each is a raw tracepoint program run by BPF_PROG_TEST_RUN
// (tests/unit/fastpath/user_stack_walk_program.h) on this program's own
// stack, 20 frames at most (ustackframes' default), from inside libc's
// qsort called 8 functions deep (-O2, no frame pointers: the frame-pointer
// walk finds fewer frames). Prints the nanoseconds per run the kernel
// counts for each program (bpf_stats: the program alone, without the
// test run's system call), and the frames the CFI walk found.
#include "user_stack_walk_program.h"

#include <algorithm>
#include <cstdio>

using namespace dtrace;
using namespace dtrace::fastpath::bpf;

namespace {

constexpr uint32_t kFrames = 20, kRuns = 100000;

// A raw tracepoint program of `insns` (no maps); -1 with the log on stderr.
int32_t load_plain(live::FastpathLoader &loader, fastpath::BpfEmitter &out) {
    const std::vector<uint64_t> insns = out.finish();
    std::string log(1 << 16, '\0');
    dtrace_bpf_program p{sizeof p, "ustack_bench", insns.data(),         uint32_t(insns.size()),        0,
                         nullptr,  log.data(),     uint32_t(log.size()), DTRACE_FASTPATH_RAW_TRACEPOINT};
    const int32_t program = loader.load_program(p);
    if (program < 0)
        std::fprintf(stderr, "ustack_walk_bench: %s\n", log.c_str());
    return program;
}

// The kernel's count of nanoseconds per run of `program` over kRuns runs
// of `run` (bpf_stats, enabled while the bench runs).
template <typename Run> double kernel_ns(int program_fd, Run run) {
    for (uint32_t i = 0; i < kRuns; i++)
        run();
    bpf_prog_info info{};
    uint32_t size = sizeof info;
    if (bpf_obj_get_info_by_fd(program_fd, &info, &size) != 0 || info.run_cnt == 0)
        return -1;
    return static_cast<double>(info.run_time_ns) / static_cast<double>(info.run_cnt);
}

struct Figures {
    double empty = 0, cfi = 0, frame_pointers = 0;
    size_t cfi_frames = 0;
    bool walked = false;
};

live::FastpathLoader *loader = nullptr;
test::UserStackWalkProgram *walk = nullptr;
int32_t empty_program = -1, fp_program = -1;
Figures figures;

__attribute__((noinline)) void measure() {
    uint64_t regs[3];
    test::take_registers(regs);
    auto run = [&regs](int32_t program) {
        uint64_t context[3] = {regs[0], regs[1], regs[2]};
        LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = context, .ctx_size_in = sizeof context);
        (void)bpf_prog_test_run_opts(loader->program_fd(program), &opts);
    };
    std::string error;
    if (std::optional<test::UserStackWalkProgram::Result> r = walk->run(regs, error)) {
        figures.walked = r->status == test::UserStackWalkProgram::kWalked;
        figures.cfi_frames = static_cast<size_t>(std::find(r->frames.begin(), r->frames.end(), 0) - r->frames.begin());
    }
    figures.empty = kernel_ns(loader->program_fd(empty_program), [&] { run(empty_program); });
    figures.cfi = kernel_ns(walk->program_fd(), [&] { walk->run_once(regs); });
    figures.frame_pointers = kernel_ns(loader->program_fd(fp_program), [&] { run(fp_program); });
}

} // namespace

int main() {
    const int stats = bpf_enable_stats(BPF_STATS_RUN_TIME);
    if (stats < 0) {
        std::fprintf(stderr, "ustack_walk_bench: the kernel does not count BPF run time (bpf_enable_stats)\n");
        return 1;
    }
    live::FastpathLoader the_loader;
    live::stacks::ImageCache images;
    test::UserStackWalkProgram the_walk;
    loader = &the_loader;
    walk = &the_walk;
    if (std::string error = the_walk.load(the_loader, images, kFrames, fastpath::kUserStackCopyBytes); !error.empty()) {
        std::fprintf(stderr, "ustack_walk_bench: the walk does not load: %s\n", error.c_str());
        return 1;
    }
    fastpath::BpfEmitter empty;
    empty.mov_imm(R0, 0);
    empty.exit();
    fastpath::BpfEmitter fp; // bpf_get_stack(ctx, frame, 20 frames, BPF_F_USER_STACK)
    fp.mov(R2, R10);
    fp.alu_imm(kAdd, R2, -8 * static_cast<int32_t>(kFrames));
    fp.mov_imm(R3, 8 * kFrames);
    fp.mov_imm(R4, 1 << 8);
    fp.call(Helper::GetStack);
    fp.mov_imm(R0, 0);
    fp.exit();
    if ((empty_program = load_plain(the_loader, empty)) < 0 || (fp_program = load_plain(the_loader, fp)) < 0)
        return 1;
    test::call_from_qsort(8, measure);
    if (!figures.walked) {
        std::fprintf(stderr, "ustack_walk_bench: the walk went to user space on this stack\n");
        return 1;
    }
    std::printf("in-kernel ustack() walk by CFI rows: %.0f ns per event (%zu frames), "
                "frame pointers (bpf_get_stack, bpftrace's ustack): %.0f ns; an empty program's run: %.0f ns\n",
                figures.cfi - figures.empty, figures.cfi_frames, figures.frame_pointers - figures.empty, figures.empty);
    close(stats);
    return 0;
}
