// builtins.cpp: the builtin identifier table (DTrace's dt_open.c globals,
// LP64) and the prototype-string parser.
//
// Types follow DTrace: timestamp is uint64_t, pid pid_t, execname string...
// Where the illumos and FreeBSD tables differ we follow illumos (for example
// walltimestamp is uint64_t). Where DTrace names a kernel type we cannot model
// yet (curthread is a kthread_t *) the entry uses the nearest generic type.
#include "compiler/builtins.h"

#include "compiler/program.h"
#include "dif/isa.h"

#include <algorithm>
#include <array>

namespace dtrace::compiler {

namespace {

using K = IdentKind;
using V = dif::VarId;
using S = dif::Subr;

constexpr uint32_t var(V v) {
    return uint32_t(v);
}
constexpr uint32_t subr(S s) {
    return uint32_t(s);
}
constexpr uint32_t agg(AggFunc f) {
    return uint32_t(f);
}
constexpr uint32_t act(ActionFn a) {
    return uint32_t(a);
}
constexpr uint32_t kNoId = 0;
constexpr bool kKernelOnly = true;
constexpr bool kReadsProcessMemory = true;

// Sorted by name (checked at startup by find_builtin's binary search).
constexpr BuiltinIdent kBuiltins[] = {
    {"alloca", K::Function, subr(S::Alloca), "void *(size_t)"},
    {"arg0", K::Scalar, var(V::Arg0), "int64_t"},
    {"arg1", K::Scalar, var(V::Arg1), "int64_t"},
    {"arg2", K::Scalar, var(V::Arg2), "int64_t"},
    {"arg3", K::Scalar, var(V::Arg3), "int64_t"},
    {"arg4", K::Scalar, var(V::Arg4), "int64_t"},
    {"arg5", K::Scalar, var(V::Arg5), "int64_t"},
    {"arg6", K::Scalar, var(V::Arg6), "int64_t"},
    {"arg7", K::Scalar, var(V::Arg7), "int64_t"},
    {"arg8", K::Scalar, var(V::Arg8), "int64_t"},
    {"arg9", K::Scalar, var(V::Arg9), "int64_t"},
    {"args", K::Array, var(V::Args), ""},
    {"avg", K::AggFunc, agg(AggFunc::Avg), "void(@)"},
    {"basename", K::Function, subr(S::Basename), "string(const char *)"},
    {"bcopy", K::Function, subr(S::Bcopy), "void(void *, void *, size_t)"},
    {"breakpoint", K::ActFunc, act(ActionFn::Other), "void()", kKernelOnly},
    {"caller", K::Scalar, var(V::Caller), "uintptr_t"},
    {"chill", K::ActFunc, act(ActionFn::Chill), "void(int)"},
    {"cleanpath", K::Function, subr(S::Cleanpath), "string(const char *)"},
    {"clear", K::ActFunc, act(ActionFn::Clear), "void(...)"},
    {"commit", K::ActFunc, act(ActionFn::Commit), "void(int)"},
    {"copyin", K::Function, subr(S::Copyin), "void *(uintptr_t, size_t)", false, kReadsProcessMemory},
    {"copyinstr", K::Function, subr(S::Copyinstr), "string(uintptr_t, [size_t])", false, kReadsProcessMemory},
    {"copyinto", K::Function, subr(S::Copyinto), "void(uintptr_t, size_t, void *)", false, kReadsProcessMemory},
    {"copyout", K::Function, subr(S::Copyout), "void(void *, uintptr_t, size_t)"},
    {"copyoutstr", K::Function, subr(S::Copyoutstr), "void(char *, uintptr_t, size_t)"},
    {"count", K::AggFunc, agg(AggFunc::Count), "void()"},
    {"cpu", K::Scalar, var(V::Cpu), "int"},
    {"curthread", K::Scalar, var(V::Curthread), "void *"},
    {"cwd", K::Scalar, var(V::Cwd), "string"},
    {"d_path", K::Function, kNoId, "string(void *)", kKernelOnly},
    {"ddi_pathname", K::Function, kNoId, "string(void *, int64_t)", kKernelOnly},
    {"denormalize", K::ActFunc, act(ActionFn::Denormalize), "void(...)"},
    {"dirname", K::Function, subr(S::Dirname), "string(const char *)"},
    {"discard", K::ActFunc, act(ActionFn::Discard), "void(int)"},
    {"epid", K::Scalar, var(V::Epid), "uint_t"},
    {"errno", K::Scalar, var(V::Errno), "int"},
    {"execname", K::Scalar, var(V::Execname), "string"},
    {"exit", K::ActFunc, act(ActionFn::Exit), "void(int)"},
    {"freopen", K::ActFunc, act(ActionFn::Freopen), "void(@, ...)"},
    {"ftruncate", K::ActFunc, act(ActionFn::Ftruncate), "void()"},
    {"func", K::ActFunc, act(ActionFn::Sym), "_symaddr(uintptr_t)"},
    {"getmajor", K::Function, kNoId, "", kKernelOnly},
    {"getminor", K::Function, kNoId, "", kKernelOnly},
    {"gid", K::Scalar, var(V::Gid), "gid_t"},
    {"htonl", K::Function, subr(S::Htonl), "uint32_t(uint32_t)"},
    {"htonll", K::Function, subr(S::Htonll), "uint64_t(uint64_t)"},
    {"htons", K::Function, subr(S::Htons), "uint16_t(uint16_t)"},
    {"id", K::Scalar, var(V::Id), "uint_t"},
    {"index", K::Function, subr(S::Index), "int(const char *, const char *, [int])"},
    {"inet_ntoa", K::Function, subr(S::InetNtoa), "string(uint32_t *)"},
    {"inet_ntoa6", K::Function, subr(S::InetNtoa6), "string(void *)"},
    {"inet_ntop", K::Function, subr(S::InetNtop), "string(int, void *)"},
    {"ipl", K::Scalar, var(V::Ipl), "uint_t"},
    {"json", K::Function, subr(S::Json), "string(const char *, const char *)"},
    {"jstack", K::ActFunc, act(ActionFn::Jstack), "stack(...)"},
    {"llquantize", K::AggFunc, agg(AggFunc::Llquantize), "void(@, int32_t, int32_t, int32_t, int32_t, ...)"},
    {"lltostr", K::Function, subr(S::Lltostr), "string(int64_t, [int])"},
    {"lquantize", K::AggFunc, agg(AggFunc::Lquantize), "void(@, int32_t, int32_t, ...)"},
    {"max", K::AggFunc, agg(AggFunc::Max), "void(@)"},
    {"memref", K::Function, subr(S::Memref), "uintptr_t *(void *, size_t)"},
    {"memstr", K::Function, subr(S::Memstr), "string(void *, char, size_t)"},
    {"min", K::AggFunc, agg(AggFunc::Min), "void(@)"},
    {"mod", K::ActFunc, act(ActionFn::Mod), "_symaddr(uintptr_t)"},
    {"msgdsize", K::Function, kNoId, "", kKernelOnly},
    {"msgsize", K::Function, kNoId, "", kKernelOnly},
    {"mutex_owned", K::Function, kNoId, "", kKernelOnly},
    {"mutex_owner", K::Function, kNoId, "", kKernelOnly},
    {"mutex_type_adaptive", K::Function, kNoId, "", kKernelOnly},
    {"mutex_type_spin", K::Function, kNoId, "", kKernelOnly},
    {"normalize", K::ActFunc, act(ActionFn::Normalize), "void(...)"},
    {"ntohl", K::Function, subr(S::Ntohl), "uint32_t(uint32_t)"},
    {"ntohll", K::Function, subr(S::Ntohll), "uint64_t(uint64_t)"},
    {"ntohs", K::Function, subr(S::Ntohs), "uint16_t(uint16_t)"},
    {"panic", K::ActFunc, act(ActionFn::Other), "void()", kKernelOnly},
    {"pid", K::Scalar, var(V::Pid), "pid_t"},
    {"ppid", K::Scalar, var(V::Ppid), "pid_t"},
    {"print", K::ActFunc, act(ActionFn::Print), "void(@)"},
    {"printa", K::ActFunc, act(ActionFn::Printa), "void(@, ...)"},
    {"printf", K::ActFunc, act(ActionFn::Printf), "void(@, ...)"},
    {"probefunc", K::Scalar, var(V::ProbeFunc), "string"},
    {"probemod", K::Scalar, var(V::ProbeMod), "string"},
    {"probename", K::Scalar, var(V::ProbeName), "string"},
    {"probeprov", K::Scalar, var(V::ProbeProv), "string"},
    {"progenyof", K::Function, subr(S::Progenyof), "int(pid_t)"},
    {"quantize", K::AggFunc, agg(AggFunc::Quantize), "void(@, ...)"},
    {"raise", K::ActFunc, act(ActionFn::Raise), "void(int)"},
    {"rand", K::Function, subr(S::Rand), "int()"},
    {"rindex", K::Function, subr(S::Rindex), "int(const char *, const char *, [int])"},
    {"root", K::Scalar, var(V::Root), "string"},
    {"rw_iswriter", K::Function, kNoId, "", kKernelOnly},
    {"rw_read_held", K::Function, kNoId, "", kKernelOnly},
    {"rw_write_held", K::Function, kNoId, "", kKernelOnly},
    {"self", K::Pointer, kNoId, "void"},
    {"setopt", K::ActFunc, act(ActionFn::Setopt), "void(const char *, [const char *])"},
    {"speculate", K::ActFunc, act(ActionFn::Speculate), "void(int)"},
    {"speculation", K::Function, subr(S::Speculation), "int()"},
    {"stack", K::ActFunc, act(ActionFn::Stack), "stack(...)"},
    {"stackdepth", K::Scalar, var(V::Stackdepth), "uint32_t"},
    {"stddev", K::AggFunc, agg(AggFunc::Stddev), "void(@)"},
    {"stop", K::ActFunc, act(ActionFn::Stop), "void()"},
    {"strchr", K::Function, subr(S::Strchr), "string(const char *, char)"},
    {"strjoin", K::Function, subr(S::Strjoin), "string(const char *, const char *)"},
    {"strlen", K::Function, subr(S::Strlen), "size_t(const char *)"},
    {"strrchr", K::Function, subr(S::Strrchr), "string(const char *, char)"},
    {"strstr", K::Function, subr(S::Strstr), "string(const char *, const char *)"},
    {"strtok", K::Function, subr(S::Strtok), "string(const char *, const char *)"},
    {"strtoll", K::Function, subr(S::Strtoll), "int64_t(const char *, [int])"},
    {"substr", K::Function, subr(S::Substr), "string(const char *, int, [int])"},
    {"sum", K::AggFunc, agg(AggFunc::Sum), "void(@)"},
    {"sym", K::ActFunc, act(ActionFn::Sym), "_symaddr(uintptr_t)"},
    {"system", K::ActFunc, act(ActionFn::System), "void(@, ...)"},
    {"this", K::Pointer, kNoId, "void"},
    {"threadname", K::Scalar, var(V::Threadname), "string"},
    {"tid", K::Scalar, var(V::Tid), "id_t"},
    {"timestamp", K::Scalar, var(V::Timestamp), "uint64_t"},
    {"tolower", K::Function, subr(S::Tolower), "string(const char *)"},
    {"toupper", K::Function, subr(S::Toupper), "string(const char *)"},
    {"trace", K::ActFunc, act(ActionFn::Trace), "void(@)"},
    {"tracemem", K::ActFunc, act(ActionFn::Tracemem), "void(@, size_t, ...)"},
    {"trunc", K::ActFunc, act(ActionFn::Trunc), "void(...)"},
    {"uaddr", K::ActFunc, act(ActionFn::UAddr), "_usymaddr(uintptr_t)"},
    {"ucaller", K::Scalar, var(V::Ucaller), "uint64_t"},
    {"ufunc", K::ActFunc, act(ActionFn::USym), "_usymaddr(uintptr_t)"},
    {"uid", K::Scalar, var(V::Uid), "uid_t"},
    {"umod", K::ActFunc, act(ActionFn::UMod), "_usymaddr(uintptr_t)"},
    {"uregs", K::Array, var(V::Uregs), ""},
    {"ustack", K::ActFunc, act(ActionFn::Ustack), "stack(...)"},
    {"ustackdepth", K::Scalar, var(V::Ustackdepth), "uint32_t"},
    {"usym", K::ActFunc, act(ActionFn::USym), "_usymaddr(uintptr_t)"},
    {"vtimestamp", K::Scalar, var(V::Vtimestamp), "uint64_t"},
    {"walltimestamp", K::Scalar, var(V::Walltimestamp), "uint64_t"},
    {"wstringof", K::Function, subr(S::Wstringof), "string(const void *)"},
    {"zonename", K::Scalar, var(V::Zonename), "string"},
};

constexpr bool table_sorted() {
    for (size_t i = 1; i < std::size(kBuiltins); i++)
        if (!(kBuiltins[i - 1].name < kBuiltins[i].name))
            return false;
    return true;
}
static_assert(table_sorted(), "kBuiltins must be sorted by name");

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace

const BuiltinIdent *find_builtin(std::string_view name) {
    auto it = std::lower_bound(std::begin(kBuiltins), std::end(kBuiltins), name,
                               [](const BuiltinIdent &b, std::string_view n) { return b.name < n; });
    return it != std::end(kBuiltins) && it->name == name ? it : nullptr;
}

const char *ident_kind_name(IdentKind kind) {
    switch (kind) {
    case IdentKind::Scalar:
        return "scalar";
    case IdentKind::Array:
        return "associative array";
    case IdentKind::Function:
        return "function";
    case IdentKind::AggFunc:
        return "aggregating function";
    case IdentKind::ActFunc:
        return "tracing function";
    case IdentKind::Pointer:
        return "pointer";
    }
    return "<?>";
}

std::optional<Signature> parse_prototype(std::string_view proto, TypeTable &types) {
    auto open = proto.find('(');
    auto close = proto.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return std::nullopt;
    Signature sig;
    sig.ret = types.lookup(trim(proto.substr(0, open)));
    if (!sig.ret)
        return std::nullopt;
    std::string_view params = trim(proto.substr(open + 1, close - open - 1));
    while (!params.empty()) {
        auto comma = params.find(',');
        std::string_view p = trim(params.substr(0, comma));
        params = comma == std::string_view::npos ? std::string_view() : params.substr(comma + 1);
        int index = int(sig.params.size());
        if (p == "@" || p == "...") {
            if (p == "...")
                sig.varargs_at = index;
            sig.params.push_back(nullptr);
            continue;
        }
        if (p.size() > 2 && p.front() == '[' && p.back() == ']') {
            if (sig.optional_from < 0)
                sig.optional_from = index;
            p = trim(p.substr(1, p.size() - 2));
        }
        const Type *t = types.lookup(p);
        if (!t)
            return std::nullopt;
        sig.params.push_back(t);
    }
    return sig;
}

} // namespace dtrace::compiler
