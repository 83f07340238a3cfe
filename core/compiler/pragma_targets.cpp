// pragma_targets.cpp: D_PRAGMA_UNUSED (see pragma_targets.h).
#include "compiler/pragma_targets.h"

#include "compiler/sema.h"

#include <map>
#include <set>

namespace dtrace::compiler {

namespace {

// The global identifiers a declaration defines: variables (not self-> or
// this-> ones, not externs or typedefs), inlines and enumerators.
void for_each_global_name(const Declaration &d, const std::function<void(const std::string &)> &f) {
    for (const auto &[name, value] : d.specifiers.type.enumerators)
        f(name);
    switch (d.specifiers.storage) {
    case StorageClass::None:
    case StorageClass::Inline:
        for (const Declarator &decl : d.declarators)
            if (decl.steps.empty() || decl.steps.front().kind != DeclaratorStep::Kind::Function)
                f(decl.name);
        break;
    default:
        break;
    }
}

// The identifier a pragma names, or "" when it names none: attributes
// <attr> <ident> and binding "<version>" <ident>. A provider's attributes
// (attributes <attr> provider <name> <part>) are not an identifier's.
std::string pragma_target(const Pragma &p) {
    if ((p.name != "attributes" && p.name != "binding") || p.args.size() < 2)
        return {};
    if (p.name == "attributes" && p.args[1] == "provider")
        return {};
    return p.args[1];
}

} // namespace

void check_pragma_targets(const ProgramAst &ast, const std::function<bool(const std::string &)> &is_defined) {
    struct Pending {
        std::string pragma;
        int line;
    };
    std::map<std::string, Pending> pending;
    std::set<std::string> declared; // by the program so far
    for (const auto &item : ast.items) {
        if (item.kind == TopLevel::Kind::Declaration) {
            for_each_global_name(*item.declaration, [&](const std::string &name) {
                pending.erase(name);
                declared.insert(name);
            });
        } else if (item.kind == TopLevel::Kind::Pragma) {
            const std::string target = pragma_target(*item.pragma);
            if (!target.empty() && !declared.count(target) && !is_defined(target))
                pending.emplace(target, Pending{item.pragma->name, item.pragma->line});
        }
    }
    // Reported in source order.
    const Pending *first = nullptr;
    for (const auto &[name, p] : pending)
        if (!first || p.line < first->line)
            first = &p;
    if (first)
        raise_error(Tag::D_PRAGMA_UNUSED, first->line, "unused #pragma " + first->pragma);
}

} // namespace dtrace::compiler
