// kernel_stacks.h: stack() in the kernel (docs/fastpath.md, "Stacks"): the
// frames a program takes with bpf_get_stack() into an aggregation key or a
// record, and the frames the engine records for stack(n) from them.
//
// A kernel stack taken in a tracepoint's program begins with the tracing
// machinery's frames, which stack() does not show; the program takes the
// frames shown plus room for those, and user space drops them (the plugin
// says how many: KernelStackSkip) and keeps the n frames after them,
// zero-padded, as the action runner records stack(n).
#pragma once

#include "dif/difo.h"
#include "fastpath/bpf_emitter.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace dtrace::fastpath {

// How many innermost frames of a kernel stack belong to the tracing
// machinery (dtrace_fastpath_ops.kernel_stack_skip); empty: none.
using KernelStackSkip = std::function<size_t(std::span<const uint64_t>)>;

inline bool is_kernel_stack(const dif::TypeDesc &type) {
    return type.shown == dif::TypeDesc::Shown::Stack;
}

// The frames the kernel takes for a stack() of `type`: the frames it shows
// and room for the tracing machinery's, at most the kernel's 127.
uint32_t kernel_stack_frames(const dif::TypeDesc &stack);

// bpf_get_stack() of the firing's kernel stack (the context in r6) into the
// kernel_stack_frames() words at dst + offset: innermost first, zero past
// the stack's end. Clobbers r0-r5.
void emit_kernel_stack(BpfEmitter &out, bpf::Reg dst, int16_t offset, const dif::TypeDesc &stack);

// The engine's stack(n) bytes from the kernel's frames (`kernel`, as
// emit_kernel_stack() wrote them): the frames after the tracing
// machinery's, n of them, zero-padded.
std::string engine_stack(const dif::TypeDesc &stack, std::string_view kernel, const KernelStackSkip &skip);

} // namespace dtrace::fastpath
