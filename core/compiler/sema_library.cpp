// sema_library.cpp: the actions the consumer carries out (clear, trunc,
// normalize, denormalize, setopt), checked as DTrace checks them when it
// builds each action: the argument count first, then that the first
// argument is an aggregation, then the scalar argument, then that the
// aggregation has been assigned somewhere before.
//
// setopt() has no checks of its own: its prototype (one or two strings)
// says it all, and the option name and value are only looked at by the
// consumer, when it reads the record.
#include "compiler/sema.h"

namespace dtrace::compiler {

namespace {

struct LibrarySpec {
    const char *name;
    Tag proto, aggarg, scalar, aggbad; // the tags of its argument checks
};

LibrarySpec library_spec(LibraryAction action) {
    switch (action) {
    case LibraryAction::Clear:
        return {"clear", Tag::D_CLEAR_PROTO, Tag::D_CLEAR_AGGARG, Tag::None, Tag::D_CLEAR_AGGBAD};
    case LibraryAction::Trunc:
        return {"trunc", Tag::D_TRUNC_PROTO, Tag::D_TRUNC_AGGARG, Tag::D_TRUNC_SCALAR, Tag::D_TRUNC_AGGBAD};
    case LibraryAction::Normalize:
    case LibraryAction::Denormalize:
        break;
    case LibraryAction::Setopt:
        return {"setopt", Tag::None, Tag::None, Tag::None, Tag::None};
    }
    return {action == LibraryAction::Normalize ? "normalize" : "denormalize", Tag::D_NORMALIZE_PROTO,
            Tag::D_NORMALIZE_AGGARG, Tag::D_NORMALIZE_SCALAR, Tag::D_NORMALIZE_AGGBAD};
}

LibraryAction library_action(ActionFn fn) {
    switch (fn) {
    case ActionFn::Trunc:
        return LibraryAction::Trunc;
    case ActionFn::Normalize:
        return LibraryAction::Normalize;
    case ActionFn::Denormalize:
        return LibraryAction::Denormalize;
    case ActionFn::Setopt:
        return LibraryAction::Setopt;
    default:
        return LibraryAction::Clear;
    }
}

} // namespace

void Sema::finish_library_action(SemaAction &a) {
    a.library = library_action(ActionFn(a.fn->id));
    if (a.library == LibraryAction::Setopt) {
        for (NodePtr &arg : a.call_args)
            a.args.push_back(std::move(arg));
        return;
    }
    const LibrarySpec spec = library_spec(a.library);
    const std::string name = spec.name;
    const size_t argc = a.call_args.size();
    const std::string passed = name + "( ) prototype mismatch: " + std::to_string(argc) + " args passed, ";
    switch (a.library) {
    case LibraryAction::Clear:
    case LibraryAction::Denormalize:
        if (argc != 1)
            raise_error(spec.proto, a.line, passed + "1 expected");
        break;
    case LibraryAction::Normalize:
        if (argc != 2)
            raise_error(spec.proto, a.line, passed + "2 expected");
        break;
    case LibraryAction::Trunc:
        if (argc < 1 || argc > 2)
            raise_error(spec.proto, a.line, passed + (argc < 1 ? "at least 1" : "no more than 2") + " expected");
        break;
    case LibraryAction::Setopt:
        break;
    }
    const Node &agg = *a.call_args[0];
    if (agg.kind != NodeKind::AggRef || !agg.kids.empty())
        raise_error(spec.aggarg, a.line,
                    name + "( ) argument #1 is incompatible with prototype:\n\tprototype: aggregation\n\t argument: " +
                        node_type_name(agg));
    if (argc == 2 && !is_scalar(a.call_args[1]->type))
        raise_error(spec.scalar, a.line, name + "( ) argument #2 must be of scalar type");
    if (!agg.agg->modified)
        raise_error(spec.aggbad, a.line, "undefined aggregation: @" + agg.agg->name);
    a.agg = agg.agg;
    if (argc == 2)
        a.args.push_back(std::move(a.call_args[1]));
}

} // namespace dtrace::compiler
