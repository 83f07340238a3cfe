// stack_symbols.cpp: unwinding and naming through the process maps and images.
#include "stack_symbols.h"

#include <algorithm>
#include <string_view>

namespace dtrace::live::stacks {

std::string module_name(const std::string &path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::shared_ptr<ElfImage> StackSymbols::locate(int64_t pid, uint64_t address, uint64_t &link_address,
                                               std::string *path) {
    std::optional<Mapping> mapping = maps_.find(pid, address);
    if (!mapping)
        return nullptr;
    if (path != nullptr)
        *path = mapping->path;
    std::shared_ptr<ElfImage> image = images_.image_for(mapping->path, pid);
    if (image == nullptr)
        return nullptr;
    std::optional<uint64_t> at = image->address_of_offset(address - mapping->start + mapping->file_offset);
    if (!at)
        return nullptr;
    link_address = *at;
    return image;
}

size_t StackSymbols::unwind_user(int64_t pid, const UserRegs &regs, StackCopy stack, std::span<uint64_t> out) {
    // Neighbouring frames are mostly in one file: the last mapping and its
    // image answer them without another lookup. The images stay alive in
    // the cache for the session, so the locator hands out plain pointers.
    std::optional<Mapping> last;
    std::shared_ptr<ElfImage> last_image;
    CodeLocator locator = [&](uint64_t pc, uint64_t &link_address) -> ElfImage * {
        if (!last || pc < last->start || pc >= last->end) {
            last = maps_.find(pid, pc);
            last_image = last ? images_.image_for(last->path, pid) : nullptr;
        }
        if (last_image == nullptr)
            return nullptr;
        std::optional<uint64_t> at = last_image->address_of_offset(pc - last->start + last->file_offset);
        if (!at)
            return nullptr;
        link_address = *at;
        return last_image.get();
    };
    return unwind(regs, stack, locator, out);
}

bool StackSymbols::follow_mappings(std::string &error) {
    std::lock_guard lock(tracker_mutex_);
    if (tracker_ == nullptr)
        tracker_ = MappingTracker::open(error);
    return tracker_ != nullptr;
}

void StackSymbols::catch_up(uint64_t time) {
    std::lock_guard lock(tracker_mutex_);
    if (tracker_ != nullptr)
        tracker_->catch_up(time, maps_);
}

size_t StackSymbols::tracing_frames(std::span<const uint64_t> kernel_stack) {
    // The functions between a probed kernel function and a BPF program:
    // the tracepoint's dispatch (__traceiter_*, trace_call_bpf, the
    // perf_trace_* and bpf_trace_run* callers) and BPF's own helpers.
    static constexpr std::string_view kTracingPrefixes[] = {
        "bpf_", "__bpf_", "perf_trace_", "perf_tp_", "perf_syscall_", "trace_call_bpf", "__traceiter_", "__probestub_",
    };
    size_t skip = 0;
    for (; skip < kernel_stack.size(); ++skip) {
        std::optional<KernelSymbol> symbol = kernel_.lookup(kernel_stack[skip]);
        if (!symbol || std::none_of(std::begin(kTracingPrefixes), std::end(kTracingPrefixes),
                                    [&](std::string_view prefix) { return symbol->function.starts_with(prefix); }))
            break;
    }
    return skip < kernel_stack.size() ? skip : 0;
}

bool StackSymbols::lookup(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    if (space == DTRACE_SYMBOL_KERNEL) {
        std::optional<KernelSymbol> symbol = kernel_.lookup(address);
        if (!symbol)
            return false;
        module_ = symbol->module;
        function_ = symbol->function;
        out->module = module_.c_str();
        out->function = function_.c_str();
        out->offset = symbol->offset;
        return true;
    }
    if (pid <= 0)
        return false;
    uint64_t link_address = 0;
    std::string path;
    std::shared_ptr<ElfImage> image = locate(pid, address, link_address, &path);
    if (path.empty())
        return false;
    module_ = module_name(path);
    out->module = module_.c_str();
    out->function = nullptr;
    if (image == nullptr)
        return true;
    if (std::optional<FunctionSymbol> function = image->function_at(link_address)) {
        function_ = function->name;
        out->function = function_.c_str();
        out->offset = link_address - function->start;
    }
    return true;
}

} // namespace dtrace::live::stacks
