// ast_dump.cpp: see ast_dump.h.
#include "ast_dump.h"

#include "compiler/sema.h"

#include <cstdio>

namespace dtrace::compiler::test {

namespace {

// The operators as DTrace's messages spell them, except that the dump tells
// prefix from postfix increments.
std::string op_name(Op op) {
    switch (op) {
    case Op::PreInc:
        return "pre++";
    case Op::PreDec:
        return "pre--";
    case Op::PostInc:
        return "post++";
    case Op::PostDec:
        return "post--";
    default:
        return Sema::op_name(op);
    }
}

const char *suffix_name(IntSuffix s) {
    switch (s) {
    case IntSuffix::None:
        return "";
    case IntSuffix::U:
        return "u";
    case IntSuffix::L:
        return "l";
    case IntSuffix::UL:
        return "ul";
    case IntSuffix::LL:
        return "ll";
    case IntSuffix::ULL:
        return "ull";
    }
    return "?";
}

std::string quoted(const std::string &s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < ' ' || c > '~') {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::string list(const char *head, const std::vector<ExprPtr> &args, size_t from = 0) {
    std::string out = std::string("(") + head;
    for (size_t i = from; i < args.size(); ++i)
        out += " " + dump(*args[i]);
    return out + ")";
}

const char *storage_name(StorageClass s) {
    switch (s) {
    case StorageClass::None:
        return "";
    case StorageClass::Auto:
        return "auto ";
    case StorageClass::Register:
        return "register ";
    case StorageClass::Static:
        return "static ";
    case StorageClass::Extern:
        return "extern ";
    case StorageClass::Typedef:
        return "typedef ";
    case StorageClass::Self:
        return "self ";
    case StorageClass::This:
        return "this ";
    case StorageClass::Inline:
        return "inline ";
    }
    return "?";
}

std::string base_type(const DeclSpecifiers &s) {
    std::string out = storage_name(s.storage);
    if (s.is_const)
        out += "const ";
    if (s.is_volatile)
        out += "volatile ";
    if (s.is_restrict)
        out += "restrict ";
    if (s.is_userland)
        out += "userland ";
    const TypeSpecifier &t = s.type;
    std::string words;
    for (const std::string &w : t.words)
        words += (words.empty() ? "" : " ") + w;
    switch (t.kind) {
    case TypeSpecifier::Kind::Builtin:
        return out + (words.empty() ? "<int>" : words);
    case TypeSpecifier::Kind::TypedefName:
        return out + (words.empty() ? "" : words + " ") + (t.module.empty() ? "" : t.module + "`") + t.name;
    case TypeSpecifier::Kind::Struct:
    case TypeSpecifier::Kind::Union: {
        out += t.kind == TypeSpecifier::Kind::Struct ? "struct " : "union ";
        out += t.name.empty() ? "<anon>" : t.name;
        if (t.has_body) {
            out += " {";
            for (const auto &m : t.members)
                out += " " + dump(*m) + ";";
            out += " }";
        }
        return out;
    }
    case TypeSpecifier::Kind::Enum: {
        out += "enum " + (t.name.empty() ? std::string("<anon>") : t.name);
        if (t.has_body) {
            out += " {";
            for (const auto &[name, value] : t.enumerators)
                out += " " + name + (value ? "=" + dump(*value) : "");
            out += " }";
        }
        return out;
    }
    }
    return out;
}

std::string params(const std::vector<std::unique_ptr<Parameter>> &ps, bool varargs) {
    std::string out = "(";
    for (size_t i = 0; i < ps.size(); ++i)
        out += (i == 0 ? "" : ", ") + dump(ps[i]->specifiers, ps[i]->declarator);
    if (varargs)
        out += ps.empty() ? "..." : ", ...";
    return out + ")";
}

} // namespace

std::string dump(const DeclSpecifiers &s, const Declarator &d) {
    std::string out = d.name.empty() ? "" : d.name + ": ";
    for (const DeclaratorStep &step : d.steps) {
        switch (step.kind) {
        case DeclaratorStep::Kind::Pointer:
            out += "*";
            out += step.is_const ? "const " : "";
            out += step.is_volatile ? "volatile " : "";
            out += step.is_restrict ? "restrict " : "";
            out += step.is_const || step.is_volatile || step.is_restrict ? "" : " ";
            break;
        case DeclaratorStep::Kind::Array:
            out += "[";
            if (step.array_size)
                out += dump(*step.array_size);
            for (size_t i = 0; i < step.array_key_types.size(); ++i)
                out += (i == 0 ? "" : ", ") + dump(*step.array_key_types[i]);
            if (step.varargs)
                out += step.array_key_types.empty() ? "..." : ", ...";
            out += "] ";
            break;
        case DeclaratorStep::Kind::Function:
            out += params(step.params, step.varargs) + " ";
            break;
        }
    }
    out += base_type(s);
    if (d.bitfield_width)
        out += " : " + dump(*d.bitfield_width);
    return out;
}

std::string dump(const TypeName &t) {
    return dump(t.specifiers, t.declarator);
}

std::string dump(const Declaration &d) {
    std::string out;
    if (d.declarators.empty())
        return dump(d.specifiers, Declarator{});
    for (size_t i = 0; i < d.declarators.size(); ++i) {
        out += (i == 0 ? "" : ", ") + dump(d.specifiers, d.declarators[i]);
        if (i < d.initializers.size() && d.initializers[i])
            out += " = " + dump(*d.initializers[i]);
    }
    return out;
}

std::string dump(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLiteral:
        return (e.int_from_octal_or_hex ? "#" : "") + std::to_string(e.int_value) + suffix_name(e.int_suffix);
    case ExprKind::CharLiteral:
        return "char:" + std::to_string(e.int_value);
    case ExprKind::StringLiteral:
        return quoted(e.text);
    case ExprKind::Identifier:
        return e.scoped ? e.module + "`" + e.text : e.text;
    case ExprKind::AggregationRef:
        return e.args.empty() ? "@" + e.text : list(("@" + e.text).c_str(), e.args);
    case ExprKind::Unary:
    case ExprKind::Postfix:
    case ExprKind::Binary:
        return list(op_name(e.op).c_str(), e.args);
    case ExprKind::Ternary:
        return list("?", e.args);
    case ExprKind::Cast:
        return "(cast " + dump(*e.type_name) + " " + dump(*e.args[0]) + ")";
    case ExprKind::Sizeof:
        return e.type_name ? "(sizeof " + dump(*e.type_name) + ")" : list("sizeof", e.args);
    case ExprKind::Offsetof:
        return "(offsetof " + dump(*e.type_name) + " " + e.text + ")";
    case ExprKind::Stringof:
        return list("stringof", e.args);
    case ExprKind::Xlate:
        return "(xlate " + dump(*e.type_name) + " " + dump(*e.args[0]) + ")";
    case ExprKind::Call:
        return list(("call " + e.text).c_str(), e.args);
    case ExprKind::Index:
        return list("[]", e.args);
    case ExprKind::Member:
        return "(" + op_name(e.op) + " " + dump(*e.args[0]) + " " + e.text + ")";
    }
    return "?";
}

std::string dump(const Stmt &s) {
    switch (s.kind) {
    case Stmt::Kind::Expr:
        return dump(*s.expr) + ";";
    case Stmt::Kind::Empty:
        return ";";
    case Stmt::Kind::Block: {
        std::string out = "{";
        for (const StmtPtr &b : s.body)
            out += " " + dump(*b);
        return out + " }";
    }
    case Stmt::Kind::If: {
        std::string out = "if " + dump(*s.expr) + " " + dump(*s.body[0]);
        if (s.body.size() > 1)
            out += " else " + dump(*s.body[1]);
        return out;
    }
    }
    return "?";
}

ParseOptions script_options() {
    ParseOptions o;
    o.from_file = true;
    return o;
}

Parsed parse(std::string_view source, ParseOptions opts) {
    ParseResult r = parse_program(source, opts);
    Parsed out;
    if (r.error)
        out.error = format_diagnostic(*r.error, true);
    else
        out.program = std::move(r.program);
    return out;
}

std::string expr(std::string_view expression, const std::string &prelude) {
    Parsed p = parse(prelude + "BEGIN { " + std::string(expression) + "; }");
    if (!p.error.empty())
        return p.error;
    const ProbeClause &c = first_clause(*p.program);
    if (c.statements.size() != 1 || c.statements[0]->kind != Stmt::Kind::Expr)
        return "<not one expression statement>";
    return dump(*c.statements[0]->expr);
}

const ProbeClause &first_clause(const ProgramAst &p) {
    for (const TopLevel &item : p.items) {
        if (item.kind == TopLevel::Kind::Clause)
            return *item.clause;
    }
    static const ProbeClause none;
    return none;
}

} // namespace dtrace::compiler::test
