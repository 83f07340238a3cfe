// user_stack_walk_program.h: the in-kernel ustack() walk
// (fastpath/user_stacks.h) as a raw tracepoint program that BPF_PROG_TEST_RUN
// runs on this process's own stack: its context holds the registers taken
// here (rip, rsp, rbp), bpf_probe_read_user() reads this process, and the
// walk's maps hold this process's table (live/fastpath_user_stacks.h). For
// the walk's test and its benchmark (bench/ustack_walk_bench.cpp).
#pragma once

#include "created_maps.h"
#include "fastpath/difo_translator.h"
#include "fastpath/user_stacks.h"
#include "fastpath_user_stacks.h"

#include <bpf/bpf.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::test {

// The registers the walk starts from (rip, rsp, rbp) where this is inlined.
[[gnu::always_inline]] inline void take_registers(uint64_t (&regs)[3]) {
    asm volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2" : "=r"(regs[0]), "=r"(regs[1]), "=r"(regs[2]));
}

inline void (*qsort_callback)() = nullptr; // call_from_qsort()'s, once per sort

inline int compare_and_call(const void *a, const void *b) {
    if (void (*callback)() = qsort_callback) {
        qsort_callback = nullptr;
        callback();
    }
    return *static_cast<const int *>(a) - *static_cast<const int *>(b);
}

// Calls `callback` from libc's qsort's comparator, `depth` frames of this
// program's own below the caller: a stack through a program and libc.
[[gnu::noinline]] inline int call_from_qsort(int depth, void (*callback)()) {
    if (depth == 0) {
        int values[] = {3, 1, 2};
        qsort_callback = callback;
        std::qsort(values, 3, sizeof values[0], compare_and_call);
        return values[0];
    }
    const int below = call_from_qsort(depth - 1, callback);
    asm volatile("" ::: "memory"); // not a tail call: this frame stays on the stack
    return below + 1;
}

class UserStackWalkProgram {
  public:
    static constexpr uint64_t kWalked = 1, kFellBack = 2;

    struct Result {
        uint64_t status = 0;          // kWalked, kFellBack
        std::vector<uint64_t> frames; // zero-padded
    };

    // Builds and loads the walk of `frames` frames with a copy of up to
    // `stack_bytes` from the registers at `place` (the context's, by
    // default), its maps filled with this process's table; "" or why not.
    std::string load(live::FastpathLoader &loader, live::stacks::ImageCache &images, uint32_t frames,
                     uint32_t stack_bytes, const fastpath::UserRegisterPlace &place = {0, 8, 16}) {
        using namespace fastpath::bpf;
        fastpath::MapPlan plan;
        const fastpath::UserStackWalk walk = fastpath::plan_user_stack_walk(plan, frames, true);
        const uint32_t result = plan.add("result", {DTRACE_BPF_MAP_ARRAY, 4, 8 + 8 * frames, 1, "t_result"});
        fastpath::BpfEmitter out;
        fastpath::BpfEmitter::Label fallback = out.new_label(), done = out.new_label();
        out.mov(R6, R1);
        fastpath::emit_user_stack_walk(out, walk, place, frames, stack_bytes, fallback);
        lookup_result(out, result, done);
        out.store_imm(kDw, R0, 0, kWalked);
        fastpath::emit_copy_user_stack(out, R0, 8, frames);
        out.jump(done);
        out.bind(fallback);
        lookup_result(out, result, done);
        out.store_imm(kDw, R0, 0, kFellBack);
        out.bind(done);
        out.mov_imm(R0, 0);
        out.exit();

        loader_ = &loader;
        frames_ = frames;
        std::vector<int32_t> handles;
        if (std::string error = create_maps(loader, plan, handles); !error.empty())
            return error;
        result_map_ = handles[result];
        mappings_map = handles[walk.mappings_map];
        std::string error;
        if (!live::write_user_stack_table(loader, {handles[walk.rows_map], handles[walk.blocks_map], mappings_map},
                                          getpid(), images, error))
            return error;
        const std::vector<uint64_t> insns = out.finish();
        std::string log(1 << 20, '\0');
        dtrace_bpf_program p{sizeof p,
                             "ustack_walk_test",
                             insns.data(),
                             uint32_t(insns.size()),
                             uint32_t(handles.size()),
                             handles.data(),
                             log.data(),
                             uint32_t(log.size()),
                             DTRACE_FASTPATH_RAW_TRACEPOINT};
        program_ = loader.load_program(p);
        return program_ < 0 ? std::string(log.c_str()) : "";
    }

    // Runs the walk once from registers `regs` (rip, rsp, rbp) (a raw
    // tracepoint's test run has no repeat count); false when the kernel does not run it.
    bool run_once(const uint64_t (&regs)[3]) {
        uint64_t context[3] = {regs[0], regs[1], regs[2]};
        LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = context, .ctx_size_in = sizeof context);
        return bpf_prog_test_run_opts(loader_->program_fd(program_), &opts) == 0;
    }

    // Runs the walk once from `regs` and reads what it found; nullopt with
    // `error` set when the kernel does not run it.
    std::optional<Result> run(const uint64_t (&regs)[3], std::string &error) {
        if (!run_once(regs)) {
            error = "BPF_PROG_TEST_RUN failed";
            return std::nullopt;
        }
        Result result;
        result.frames.resize(frames_);
        if (!loader_->read_map(
                result_map_,
                [](void *arg, const void *, const void *values, uint32_t) {
                    auto *r = static_cast<Result *>(arg);
                    const auto *words = static_cast<const uint64_t *>(values);
                    r->status = words[0];
                    std::copy(words + 1, words + 1 + r->frames.size(), r->frames.begin());
                },
                &result, error))
            return std::nullopt;
        return result;
    }

    int program_fd() const { return loader_->program_fd(program_); }

    int32_t mappings_map = -1;

  private:
    // r0 = the result's entry; `done` when absent.
    static void lookup_result(fastpath::BpfEmitter &out, uint32_t map, fastpath::BpfEmitter::Label done) {
        out.store_imm(fastpath::bpf::kW, fastpath::bpf::R10, fastpath::frame::kIndex, 0);
        fastpath::emit_map_lookup(out, map, fastpath::frame::kIndex);
        out.jump_imm(fastpath::bpf::kJeq, fastpath::bpf::R0, 0, done);
    }

    live::FastpathLoader *loader_ = nullptr;
    int32_t result_map_ = -1, program_ = -1;
    uint32_t frames_ = 0;
};

} // namespace dtrace::test
