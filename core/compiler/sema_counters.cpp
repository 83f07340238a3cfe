// sema_counters.cpp: pmc["name"], a counter a plugin lets D read.
//
// The plugin that declares the counter array (dtrace_plugin_ops.counter_array)
// resolves the name once, here; the clause then reads the firing thread's
// count through the builtin array VarId::Pmc, indexed by the host's id of the
// counter. The key must be a string constant: the counter is chosen (and
// checked: known, countable on this machine) when the program compiles.
#include "compiler/sema.h"

#include "dif/isa.h"

namespace dtrace::compiler {

NodePtr Sema::counter_elem(const Expr &e) {
    const std::string &array = e.args[0]->text;
    if (e.args.size() != 2 || e.args[1]->kind != ExprKind::StringLiteral)
        raise_error(Tag::D_ARR_BADREF, e.line,
                    array + "[ ] takes one key, a counter's name as a string constant (" + array +
                        "[\"page-faults\"])");
    const std::string &name = e.args[1]->text;
    PluginCounter counter = opts_.resolve_counter(array, name);
    if (!counter.error.empty())
        raise_error(Tag::D_IDENT_UNDEF, e.line, array + "[\"" + name + "\"]: " + counter.error);
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::BuiltinArray;
    n->id = uint32_t(dif::VarId::Pmc);
    n->line = e.line;
    n->type = types_.named("uint64_t");
    n->kids.push_back(make_const(counter.id, types_.named("uint64_t"), e.line));
    return n;
}

} // namespace dtrace::compiler
