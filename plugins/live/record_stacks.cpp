// record_stacks.cpp: a record's stack tail into the event context.
#include "record_stacks.h"

#include <cstddef>
#include <cstring>

#include "probe_usage.h"
#include "user_regs.h"

namespace dtrace::live {

uint32_t stacks_for_usage(dtrace_host *host, const dtrace_host_ops *ops, dtrace_probe_id id) {
    const std::optional<dtrace_probe_usage> usage = plugin_common::probe_usage_of(host, ops, id);
    if (!usage)
        return 0;
    uint32_t stacks = 0;
    if (usage->flags & DTRACE_USAGE_KERNEL_STACK)
        stacks |= LIVE_STACK_KERNEL;
    if (usage->flags & DTRACE_USAGE_USER_STACK)
        stacks |= LIVE_STACK_USER;
    return stacks;
}

bool prepare_stacks(dtrace_host *host, const dtrace_host_ops *ops, uint32_t stacks, stacks::StackSymbols &symbols) {
    if (stacks & LIVE_STACK_KERNEL)
        symbols.load_kernel_symbols();
    std::string error;
    if (!(stacks & LIVE_STACK_USER))
        return true;
    if (!symbols.follow_mappings(error)) {
        ops->report_error(host, error.c_str());
        return false;
    }
    // The records follow what is mapped from now on; a target stopped at
    // its exec mapped its program and dynamic linker before: read now.
    const bool has_get_target = ops->struct_size >= offsetof(dtrace_host_ops, get_target) + sizeof ops->get_target;
    dtrace_target_info target{};
    target.struct_size = sizeof target;
    for (uint32_t i = 0; has_get_target && ops->get_target != nullptr && ops->get_target(host, i, &target) == 0; ++i)
        if (target.state != DTRACE_TARGET_EXITED)
            symbols.maps().ensure(target.pid);
    return true;
}

void RecordStacks::add_to(std::span<const uint8_t> tail, int64_t pid, uint64_t time, stacks::StackSymbols &symbols,
                          dtrace_event_ctx &ctx) {
    live_stack_tail header;
    if (tail.size() < sizeof header)
        return;
    std::memcpy(&header, tail.data(), sizeof header);
    if (header.kernel_bytes > LIVE_KERNEL_STACK_MAX || header.user_bytes > LIVE_USER_STACK_MAX ||
        tail.size() < sizeof header + header.kernel_bytes + header.user_bytes)
        return;
    // The user stack first: unwinding reads the process's mappings, which
    // must be read while it lives (naming the kernel frames may first load
    // the kernel's symbols, which takes a while).
    if (header.user_bytes > 0) {
        symbols.catch_up(time);
        const stacks::StackCopy copy{header.regs[UPROBE_REG_RSP],
                                     tail.subspan(sizeof header + header.kernel_bytes, header.user_bytes)};
        ctx.user_stack = user_.data();
        ctx.user_stack_depth =
            static_cast<uint32_t>(symbols.unwind_user(pid, stacks::from_pt_regs(header.regs), copy, user_));
    }
    // The frames follow the header unaligned (the captures before it have
    // any length): copied out.
    const size_t frames = header.kernel_bytes / sizeof(uint64_t);
    std::memcpy(kernel_.data(), tail.data() + sizeof header, frames * sizeof(uint64_t));
    const size_t skip = symbols.tracing_frames(std::span<const uint64_t>(kernel_.data(), frames));
    ctx.kernel_stack = kernel_.data() + skip;
    ctx.kernel_stack_depth = static_cast<uint32_t>(frames - skip);
}

} // namespace dtrace::live
