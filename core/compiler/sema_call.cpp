// sema_call.cpp: calls of builtin functions and checking arguments against
// the prototypes of the builtin table, with DTrace's D_PROTO_LEN and
// D_PROTO_ARG messages (shared with associative array key signatures).
#include "compiler/sema.h"

namespace dtrace::compiler {

const Signature &Sema::signature(const BuiltinIdent &b, int line) {
    std::string name(b.name);
    if (auto it = signatures_.find(name); it != signatures_.end())
        return it->second;
    auto sig = parse_prototype(b.proto, types_);
    if (!sig)
        raise_error(Tag::D_UNKNOWN, line, "failed to resolve type of " + name + " (" + std::string(b.proto) + ")");
    return signatures_.emplace(name, std::move(*sig)).first->second;
}

void Sema::check_prototype(const Signature &sig, const std::string &name, const std::vector<NodePtr> &args,
                           const std::string &prefix, const std::string &suffix, int line) const {
    size_t argc = args.size(), nparams = sig.params.size();
    bool mismatch;
    size_t limit;
    if (sig.varargs_at >= 0) {
        mismatch = argc < size_t(sig.varargs_at);
        limit = size_t(sig.varargs_at);
    } else if (sig.optional_from >= 0) {
        mismatch = argc < size_t(sig.optional_from) || argc > nparams;
        limit = argc;
    } else {
        mismatch = argc != nparams;
        limit = nparams;
    }
    std::string who = prefix + name + suffix;
    if (mismatch) {
        bool optional = sig.optional_from >= 0;
        raise_error(Tag::D_PROTO_LEN, line,
                    who + " prototype mismatch: " + args_passed(argc) + "passed, " + (optional ? "at least " : "") +
                        std::to_string(optional ? size_t(sig.optional_from) : limit) + " expected");
    }
    for (size_t i = 0; i < limit; i++) {
        const Type *param = sig.params[i];
        if (param && !arg_compatible(param, *args[i]))
            raise_error(Tag::D_PROTO_ARG, args[i]->line ? args[i]->line : line,
                        who + " argument #" + std::to_string(i + 1) +
                            " is incompatible with prototype:\n\tprototype: " + type_name(param) +
                            "\n\t argument: " + node_type_name(*args[i]));
    }
}

const BuiltinIdent &Sema::lookup_function(const Expr &call) {
    const BuiltinIdent *b = find_builtin(call.text);
    if (!b) {
        if (symbols_.find(dif::Scope::Global, call.text))
            raise_error(Tag::D_FUNC_IDKIND, call.line,
                        "scalar '" + call.text + "' may not be referenced as a function");
        raise_error(Tag::D_FUNC_UNDEF, call.line, "undefined function name: " + call.text);
    }
    if (b->kind != IdentKind::Function && b->kind != IdentKind::AggFunc && b->kind != IdentKind::ActFunc)
        raise_error(Tag::D_FUNC_IDKIND, call.line,
                    std::string(ident_kind_name(b->kind)) + " '" + call.text + "' may not be referenced as a function");
    if (b->kernel_only) {
        // An action (panic, breakpoint) does something to the kernel; a
        // subroutine reads its state.
        const char *why = b->kind == IdentKind::ActFunc
                              ? "it acts on the kernel, which a user-space dtrace cannot do"
                              : "it reads kernel state, which a user-space dtrace does not have";
        raise_error(Tag::D_UNKNOWN, call.line, call.text + "( ) is not available: " + why);
    }
    // A translator's own reads (curpsinfo's records: the plugin serves their
    // addresses) are the translator's business; at a memoryless probe any
    // other address it reads faults when the clause runs.
    if (b->reads_process_memory && probes_ && opts_.memoryless_provider && xlate_params_.empty()) {
        if (std::optional<std::string> provider = opts_.memoryless_provider(*probes_))
            raise_error(Tag::D_UNKNOWN, call.line,
                        call.text + "( ) is not available at " + *provider +
                            " probes: their events carry no memory of the process (use the pid provider)");
    }
    return *b;
}

std::vector<NodePtr> Sema::cook_call_args(const Expr &call, const BuiltinIdent &b) {
    std::vector<NodePtr> args = cook_list(call.args);
    check_prototype(signature(b, call.line), call.text, args, "", "( )", call.line);
    return args;
}

NodePtr Sema::cook_call(const Expr &e) {
    const BuiltinIdent &b = lookup_function(e);
    std::vector<NodePtr> args = cook_call_args(e, b);
    const Signature &sig = signature(b, e.line);
    auto n = std::make_unique<Node>();
    n->line = e.line;
    n->str = e.text;
    if (b.kind == IdentKind::Function) {
        n->kind = NodeKind::Call;
        n->id = b.id;
        n->type = sig.ret;
        for (size_t i = 0; i < args.size(); i++)
            n->params.push_back(i < sig.params.size() ? sig.params[i] : nullptr);
    } else {
        // Actions and aggregating functions only make sense as statements;
        // code generation reports the misuse (D_CG_EXPR) as DTrace does.
        n->kind = NodeKind::ActCall;
        n->act_kind = b.kind;
        n->type = b.kind == IdentKind::AggFunc ? types_.dynamic_type() : sig.ret;
    }
    n->kids = std::move(args);
    return n;
}

} // namespace dtrace::compiler
