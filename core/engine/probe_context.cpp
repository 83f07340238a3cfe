// probe_context.cpp: builtin variables from the event context.
#include "engine/probe_context.h"

#include <climits>
#include <cstring>
#include <unistd.h>

namespace dtrace::engine {

uint64_t ProbeContext::string_address(const char *s) {
    if (!s)
        s = "";
    vm_.add_readable_string(s, std::strlen(s));
    return reinterpret_cast<uint64_t>(s);
}

// The probe's and provider's names hold no NUL (the SDK hands them as C
// strings), so their size is their string length.
uint64_t ProbeContext::string_address(const std::string &s) {
    vm_.add_readable_string(s.c_str(), s.size());
    return reinterpret_cast<uint64_t>(s.c_str());
}

uint64_t ProbeContext::process_link(const char *link, std::optional<std::string> &storage) {
    // Read once per firing: an address handed out stays valid until it ends.
    if (!storage) {
        storage.emplace();
        if (!(ctx_.flags & DTRACE_EVENT_REPLAYED) && ctx_.pid > 0) {
            std::string path = "/proc/" + std::to_string(ctx_.pid) + "/" + link;
            char target[PATH_MAX];
            ssize_t n = readlink(path.c_str(), target, sizeof target);
            if (n > 0)
                storage->assign(target, size_t(n));
        }
    }
    return string_address(*storage);
}

uint64_t ProbeContext::builtin(dif::VarId id) {
    using dif::VarId;
    switch (id) {
    case VarId::Arg0:
    case VarId::Arg1:
    case VarId::Arg2:
    case VarId::Arg3:
    case VarId::Arg4:
    case VarId::Arg5:
    case VarId::Arg6:
    case VarId::Arg7:
    case VarId::Arg8:
    case VarId::Arg9:
        return arg(static_cast<uint64_t>(id) - static_cast<uint64_t>(VarId::Arg0));
    case VarId::Epid:
        return epid_;
    case VarId::Id:
        return probe_.id;
    case VarId::ProbeProv:
        return string_address(probe_.provider->name);
    case VarId::ProbeMod:
        return string_address(probe_.module);
    case VarId::ProbeFunc:
        return string_address(probe_.function);
    case VarId::ProbeName:
        return string_address(probe_.name);
    case VarId::Timestamp:
        return ctx_.timestamp;
    case VarId::Vtimestamp:
        return has(&dtrace_event_ctx::vtimestamp) && ctx_.vtimestamp != 0 ? ctx_.vtimestamp : ctx_.timestamp;
    case VarId::Errno:
        return has(&dtrace_event_ctx::errno_value) ? static_cast<uint64_t>(ctx_.errno_value) : 0;
    case VarId::Curthread:
        return has(&dtrace_event_ctx::curthread) ? ctx_.curthread : 0;
    case VarId::Walltimestamp:
        return ctx_.walltimestamp;
    case VarId::Pid:
        return static_cast<uint64_t>(ctx_.pid);
    case VarId::Ppid:
        return static_cast<uint64_t>(ctx_.ppid);
    case VarId::Tid:
        return static_cast<uint64_t>(ctx_.tid);
    case VarId::Uid:
        return static_cast<uint64_t>(ctx_.uid);
    case VarId::Gid:
        return static_cast<uint64_t>(ctx_.gid);
    case VarId::Execname:
        return string_address(ctx_.execname);
    case VarId::Cpu:
        return ctx_.cpu;
    case VarId::Stackdepth:
        return stack_pcs(false).size();
    case VarId::Ustackdepth:
        return stack_pcs(true).size();
    case VarId::Caller:
        return stack_pcs(false).size() > 1 ? stack_pcs(false)[1] : 0;
    case VarId::Ucaller:
        return stack_pcs(true).size() > 1 ? stack_pcs(true)[1] : 0;
    case VarId::Zonename:
        return string_address("global");
    case VarId::Cwd:
        return process_link("cwd", cwd_);
    case VarId::Root:
        return process_link("root", root_);
    default:
        return 0;
    }
}

uint64_t ProbeContext::builtin_array(dif::VarId id, uint64_t index, dif::Fault &fault) {
    if (id == dif::VarId::Args) {
        // args[i] reads the native argument it is translated from.
        if (index < probe_.args.size())
            return arg(probe_.args[index].native_index);
        return arg(index);
    }
    if (id == dif::VarId::Uregs && has(&dtrace_event_ctx::user_regs_missing) && ctx_.user_regs != nullptr &&
        index < ctx_.user_regs_count && (index >= 64 || (ctx_.user_regs_missing >> index & 1) == 0))
        return ctx_.user_regs[index];
    fault.kind = dif::FaultKind::IllOp;
    return 0;
}

std::span<const uint64_t> ProbeContext::stack_pcs(bool user) {
    const uint64_t *pcs = user ? ctx_.user_stack : ctx_.kernel_stack;
    const uint32_t depth = user ? ctx_.user_stack_depth : ctx_.kernel_stack_depth;
    return pcs == nullptr ? std::span<const uint64_t>() : std::span<const uint64_t>(pcs, depth);
}

int64_t ProbeContext::read_target(uint64_t address, void *buffer, size_t length) {
    if (!ctx_.read_memory)
        return -1;
    return ctx_.read_memory(ctx_.reader_state, address, buffer, length);
}

} // namespace dtrace::engine
