// builtins.cpp: the builtin variable table (names as D spells them).
#include "dif/builtins.h"

#include <array>

namespace dtrace::dif {

namespace {

constexpr std::array kBuiltins{
    BuiltinInfo{VarId::Args, "args", true},
    BuiltinInfo{VarId::Arg0, "arg0", false},
    BuiltinInfo{VarId::Arg1, "arg1", false},
    BuiltinInfo{VarId::Arg2, "arg2", false},
    BuiltinInfo{VarId::Arg3, "arg3", false},
    BuiltinInfo{VarId::Arg4, "arg4", false},
    BuiltinInfo{VarId::Arg5, "arg5", false},
    BuiltinInfo{VarId::Arg6, "arg6", false},
    BuiltinInfo{VarId::Arg7, "arg7", false},
    BuiltinInfo{VarId::Arg8, "arg8", false},
    BuiltinInfo{VarId::Arg9, "arg9", false},
    BuiltinInfo{VarId::Epid, "epid", false},
    BuiltinInfo{VarId::Id, "id", false},
    BuiltinInfo{VarId::ProbeProv, "probeprov", false},
    BuiltinInfo{VarId::ProbeMod, "probemod", false},
    BuiltinInfo{VarId::ProbeFunc, "probefunc", false},
    BuiltinInfo{VarId::ProbeName, "probename", false},
    BuiltinInfo{VarId::Timestamp, "timestamp", false},
    BuiltinInfo{VarId::Vtimestamp, "vtimestamp", false},
    BuiltinInfo{VarId::Walltimestamp, "walltimestamp", false},
    BuiltinInfo{VarId::Pid, "pid", false},
    BuiltinInfo{VarId::Ppid, "ppid", false},
    BuiltinInfo{VarId::Tid, "tid", false},
    BuiltinInfo{VarId::Uid, "uid", false},
    BuiltinInfo{VarId::Gid, "gid", false},
    BuiltinInfo{VarId::Execname, "execname", false},
    BuiltinInfo{VarId::Cpu, "cpu", false},
    BuiltinInfo{VarId::Errno, "errno", false},
    BuiltinInfo{VarId::Caller, "caller", false},
    BuiltinInfo{VarId::Ucaller, "ucaller", false},
    BuiltinInfo{VarId::Stackdepth, "stackdepth", false},
    BuiltinInfo{VarId::Ustackdepth, "ustackdepth", false},
    BuiltinInfo{VarId::Curthread, "curthread", false},
    BuiltinInfo{VarId::Ipl, "ipl", false},
    BuiltinInfo{VarId::Zonename, "zonename", false},
    BuiltinInfo{VarId::Cwd, "cwd", false},
    BuiltinInfo{VarId::Root, "root", false},
    BuiltinInfo{VarId::Threadname, "threadname", false},
    BuiltinInfo{VarId::Uregs, "uregs", true},
    BuiltinInfo{VarId::Pmc, "pmc", true},
};
static_assert(kBuiltins.size() == size_t(VarId::Count), "one entry per VarId");

constexpr bool in_varid_order() {
    for (size_t i = 0; i < kBuiltins.size(); i++)
        if (size_t(kBuiltins[i].id) != i)
            return false;
    return true;
}
static_assert(in_varid_order(), "the table is indexed by VarId");

} // namespace

const BuiltinInfo *builtin_info(uint32_t id) {
    return id < kBuiltins.size() ? &kBuiltins[id] : nullptr;
}

std::optional<VarId> builtin_by_name(std::string_view name) {
    for (const BuiltinInfo &b : kBuiltins)
        if (name == b.name)
            return b.id;
    return std::nullopt;
}

} // namespace dtrace::dif
