// sema_memory.cpp: tracemem() and print(), the actions that record memory
// and typed values for the consumer to lay out.
//
// tracemem(addr, size[, dsize]) records `size` bytes at addr (size a
// positive constant) and, with dsize, how many of them to print; print(e)
// records e as trace() does, and its D type travels with the action.
#include "compiler/sema.h"

namespace dtrace::compiler {

namespace {

bool is_posconst(const Node &n) {
    return n.kind == NodeKind::Const && n.value != 0 && (!is_signed(n.type) || int64_t(n.value) > 0);
}

int line_of(const Node &n, int fallback) {
    return n.line != 0 ? n.line : fallback;
}

} // namespace

void Sema::finish_tracemem(SemaAction &a) {
    NodePtr &addr = a.call_args[0];
    NodePtr &size = a.call_args[1];
    if (!is_integer(addr->type) && !is_pointer(addr->type))
        raise_error(Tag::D_TRACEMEM_ADDR, line_of(*addr, a.line),
                    "tracemem( ) argument #1 is incompatible with prototype:\n\tprototype: pointer or integer\n"
                    "\t argument: " +
                        node_type_name(*addr));
    if (!is_posconst(*size))
        raise_error(Tag::D_TRACEMEM_SIZE, line_of(*size, a.line),
                    "tracemem( ) argument #2 must be a non-zero positive integral constant expression");
    if (a.call_args.size() > 2) {
        NodePtr &shown = a.call_args[2];
        if (a.call_args.size() > 3)
            raise_error(Tag::D_TRACEMEM_ARGS, line_of(*shown, a.line),
                        "tracemem ( ) prototype mismatch: expected at most 3 args");
        if (!is_scalar(shown->type))
            raise_error(Tag::D_TRACEMEM_DYNSIZE, line_of(*shown, a.line),
                        "tracemem ( ) dynamic size (argument #3) must be of scalar type");
        a.args.push_back(std::move(shown));
    }
    addr->record = dif::TypeDesc{dif::TypeDesc::Kind::ByRef, uint32_t(size->value), false};
    a.args.push_back(std::move(addr));
}

void Sema::finish_print(SemaAction &a) {
    NodePtr v = std::move(a.call_args[0]);
    if (is_void(v->type))
        raise_error(Tag::D_PRINT_VOID, line_of(*v, a.line), "print( ) may not be applied to a void expression");
    if (v->kind == NodeKind::AggRef)
        raise_error(Tag::D_PRINT_AGG, line_of(*v, a.line),
                    "print( ) may not be applied to an aggregation -- did you mean printa()?");
    // print(xlate<T>(e)) prints the translated struct, as DTrace expands it.
    if (v->kind == NodeKind::Xlated && v->op == Op::Dot) {
        const int line = line_of(*v, a.line);
        v = translated_copy(std::move(v), line);
    }
    a.value = std::move(v);
}

} // namespace dtrace::compiler
