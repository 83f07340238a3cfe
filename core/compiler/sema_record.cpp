// sema_record.cpp: the actions that record a stack or an address for the
// consumer to name: stack(), ustack(), jstack(), sym(), func(), mod(),
// usym(), ufunc(), umod(), uaddr().
//
// As in DTrace they are actions (statements) that may also be aggregation
// keys, and nothing else: anywhere else code generation refuses them
// (D_CG_EXPR). In those two places the call becomes what records it, with
// Node::record saying how and what for:
//   stack(n)        the stack subroutine: n kernel program counters;
//   ustack(n[, s])  the ustack subroutine: the pid and n user program
//                   counters (jstack() alike, with the jstack defaults; no
//                   Java helper exists, so the string space s is not used);
//   sym(a), mod(a)  a itself, as a 64-bit address;
//   usym(a) ...     the usymaddr subroutine: the pid, then a.
#include "compiler/sema.h"

#include "dif/isa.h"

#include <algorithm>
#include <cstdint>

namespace dtrace::compiler {

namespace {

using Shown = dif::TypeDesc::Shown;
constexpr uint32_t kWord = sizeof(uint64_t);

// The record size of `words` 64-bit words. DTrace keeps a record's size in
// 32 bits and refuses an enabling whose records overflow it; a size that does
// not fit is saturated here so that it fails when tracing starts, as a record
// larger than the buffer, instead of wrapping to a small (or zero) size.
uint32_t words_record_size(uint64_t words) {
    constexpr uint64_t kMaxWords = UINT32_MAX / kWord;
    return uint32_t(std::min(words, kMaxWords) * kWord);
}

bool is_posconst(const Node &n) {
    return n.kind == NodeKind::Const && n.value != 0 && (!is_signed(n.type) || int64_t(n.value) > 0);
}

NodePtr constant(uint64_t value, const Type *type, int line) {
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Const;
    n->value = value;
    n->type = type;
    n->line = line;
    return n;
}

// A call of one of the internal subroutines (subr_stack.cpp) in place of `call`.
NodePtr subroutine(dif::Subr subr, std::vector<NodePtr> args, const Type *param, const Node &call) {
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Call;
    n->id = uint32_t(subr);
    n->type = call.type;
    n->line = call.line;
    for (size_t i = 0; i < args.size(); i++)
        n->params.push_back(param);
    n->kids = std::move(args);
    return n;
}

int line_of(const Node &n, int fallback) {
    return n.line != 0 ? n.line : fallback;
}

} // namespace

bool records_names(const BuiltinIdent &b) {
    if (b.kind != IdentKind::ActFunc)
        return false;
    switch (ActionFn(b.id)) {
    case ActionFn::Stack:
    case ActionFn::Ustack:
    case ActionFn::Jstack:
    case ActionFn::Sym:
    case ActionFn::Mod:
    case ActionFn::USym:
    case ActionFn::UMod:
    case ActionFn::UAddr:
        return true;
    default:
        return false;
    }
}

std::optional<ArgTypeInfo::Kind> recorded_kind(const Type *t) {
    for (; t != nullptr && t->kind == TypeKind::Typedef; t = t->ref) {
        if (t->name == "stack")
            return ArgTypeInfo::Kind::Stack;
        if (t->name == "_symaddr")
            return ArgTypeInfo::Kind::SymAddr;
        if (t->name == "_usymaddr")
            return ArgTypeInfo::Kind::USymAddr;
    }
    return std::nullopt;
}

SemaAction Sema::cook_recording_action(const Expr &call) {
    SemaAction a;
    a.kind = ActionKind::Trace;
    a.line = call.line;
    a.call_args.push_back(recorded(cook(call, kRef)));
    return a;
}

NodePtr Sema::recorded(NodePtr value) {
    if (value->kind != NodeKind::ActCall)
        return value;
    const BuiltinIdent *b = find_builtin(value->str);
    if (b == nullptr || !records_names(*b))
        return value;
    std::vector<NodePtr> &args = value->kids;
    const Type *u64 = types_.named("uint64_t");
    const int line = value->line;
    switch (ActionFn(b->id)) {
    case ActionFn::Stack: {
        uint64_t frames = opts_.stackframes;
        if (!args.empty()) {
            if (args.size() > 1)
                raise_error(Tag::D_STACK_PROTO, line_of(*args[0], line),
                            "stack( ) prototype mismatch: too many arguments");
            if (!is_posconst(*args[0]))
                raise_error(Tag::D_STACK_SIZE, line_of(*args[0], line),
                            "stack( ) size must be a non-zero positive integral constant expression");
            frames = args[0]->value;
        }
        std::vector<NodePtr> count;
        count.push_back(constant(frames, u64, line));
        NodePtr n = subroutine(dif::Subr::Stack, std::move(count), u64, *value);
        n->record = dif::TypeDesc{dif::TypeDesc::Kind::ByRef, words_record_size(frames), false, Shown::Stack};
        return n;
    }
    case ActionFn::Ustack:
    case ActionFn::Jstack: {
        uint64_t frames = ActionFn(b->id) == ActionFn::Jstack ? opts_.jstackframes : opts_.ustackframes;
        if (!args.empty()) {
            if (!is_posconst(*args[0]))
                raise_error(Tag::D_USTACK_FRAMES, line_of(*args[0], line),
                            "ustack( ) argument #1 must be a non-zero positive integer constant");
            // DTrace packs the count into 32 bits; a count that truncates to
            // 0 there means the default.
            if (const auto packed = uint32_t(args[0]->value); packed != 0)
                frames = packed;
        }
        if (args.size() > 1) {
            const Node &strsize = *args[1];
            if (strsize.kind != NodeKind::Const || (is_signed(strsize.type) && int64_t(strsize.value) < 0))
                raise_error(Tag::D_USTACK_STRSIZE, line_of(strsize, line),
                            "ustack( ) argument #2 must be a positive integer constant");
            if (args.size() > 2)
                raise_error(Tag::D_USTACK_PROTO, line_of(strsize, line),
                            "ustack( ) prototype mismatch: too many arguments");
        }
        std::vector<NodePtr> count;
        count.push_back(constant(frames, u64, line));
        NodePtr n = subroutine(dif::Subr::Ustack, std::move(count), u64, *value);
        n->record = dif::TypeDesc{dif::TypeDesc::Kind::ByRef, words_record_size(frames + 1), false, Shown::UserStack};
        return n;
    }
    case ActionFn::Sym:
    case ActionFn::Mod: {
        auto n = std::make_unique<Node>();
        n->kind = NodeKind::Convert;
        n->type = value->type;
        n->line = line;
        n->kids.push_back(std::move(args[0]));
        n->record = dif::TypeDesc{dif::TypeDesc::Kind::Integer, kWord, false,
                                  ActionFn(b->id) == ActionFn::Sym ? Shown::Sym : Shown::Mod};
        return n;
    }
    default: {
        const Shown shown = ActionFn(b->id) == ActionFn::USym   ? Shown::USym
                            : ActionFn(b->id) == ActionFn::UMod ? Shown::UMod
                                                                : Shown::UAddr;
        NodePtr n = subroutine(dif::Subr::Usymaddr, std::move(args), types_.named("uintptr_t"), *value);
        n->record = dif::TypeDesc{dif::TypeDesc::Kind::ByRef, 2 * kWord, false, shown};
        return n;
    }
    }
}

} // namespace dtrace::compiler
