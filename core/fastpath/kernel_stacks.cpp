// kernel_stacks.cpp: stack() frames in the kernel and back (see kernel_stacks.h).
#include "fastpath/kernel_stacks.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace dtrace::fastpath {

using namespace bpf;

namespace {

// The tracing machinery's frames a kernel stack may begin with (the
// tracepoint's dispatch: one at a system call here), taken beyond a
// stack()'s own so that none of its frames is lost when they are dropped.
constexpr uint32_t kTracingFramesRoom = 8;
constexpr uint32_t kMaxKernelFrames = 127; // the kernel's perf_event_max_stack default

} // namespace

uint32_t kernel_stack_frames(const dif::TypeDesc &stack) {
    return std::min(stack.size / 8 + kTracingFramesRoom, kMaxKernelFrames);
}

void emit_kernel_stack(BpfEmitter &out, Reg dst, int16_t offset, const dif::TypeDesc &stack) {
    out.mov(R2, dst);
    out.alu_imm(kAdd, R2, offset);
    out.mov(R1, R6);
    out.mov_imm(R3, static_cast<int32_t>(kernel_stack_frames(stack) * 8));
    out.mov_imm(R4, 0); // the kernel's stack, no frame skipped
    out.call(Helper::GetStack);
}

std::string engine_stack(const dif::TypeDesc &stack, std::string_view kernel, const KernelStackSkip &skip) {
    std::vector<uint64_t> frames(kernel.size() / 8);
    std::memcpy(frames.data(), kernel.data(), frames.size() * 8);
    frames.resize(static_cast<size_t>(std::find(frames.begin(), frames.end(), 0) - frames.begin()));
    const size_t first = skip ? std::min(skip(frames), frames.size()) : 0;
    std::vector<uint64_t> shown(stack.size / 8);
    std::copy_n(frames.begin() + static_cast<ptrdiff_t>(first), std::min(shown.size(), frames.size() - first),
                shown.begin());
    return std::string(reinterpret_cast<const char *>(shown.data()), shown.size() * 8);
}

} // namespace dtrace::fastpath
