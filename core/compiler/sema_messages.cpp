// sema_messages.cpp: how semantic errors are raised and how operators and
// types are named in DTrace's messages.
#include "compiler/sema.h"

namespace dtrace::compiler {

void raise_error(Tag tag, int line, std::string message) {
    Diagnostic d;
    d.tag = tag;
    d.line = line;
    d.message = std::move(message);
    throw CompileError{std::move(d)};
}

void raise_unsupported(int line, const std::string &what) {
    // DTrace reports its own unimplemented features under D_UNKNOWN too.
    raise_error(Tag::D_UNKNOWN, line, what + " is not supported yet");
}

std::string Sema::op_name(Op op) {
    switch (op) {
    case Op::Plus:
    case Op::Add:
        return "+";
    case Op::Minus:
    case Op::Sub:
        return "-";
    case Op::LogNot:
        return "!";
    case Op::BitNot:
        return "~";
    case Op::Deref:
    case Op::Mul:
        return "*";
    case Op::AddrOf:
    case Op::BitAnd:
        return "&";
    case Op::PreInc:
    case Op::PostInc:
        return "++";
    case Op::PreDec:
    case Op::PostDec:
        return "--";
    case Op::Div:
        return "/";
    case Op::Mod:
        return "%";
    case Op::Shl:
        return "<<";
    case Op::Shr:
        return ">>";
    case Op::Lt:
        return "<";
    case Op::Le:
        return "<=";
    case Op::Gt:
        return ">";
    case Op::Ge:
        return ">=";
    case Op::Eq:
        return "==";
    case Op::Ne:
        return "!=";
    case Op::BitXor:
        return "^";
    case Op::BitOr:
        return "|";
    case Op::LogAnd:
        return "&&";
    case Op::LogXor:
        return "^^";
    case Op::LogOr:
        return "||";
    case Op::Assign:
        return "=";
    case Op::MulAssign:
        return "*=";
    case Op::DivAssign:
        return "/=";
    case Op::ModAssign:
        return "%=";
    case Op::AddAssign:
        return "+=";
    case Op::SubAssign:
        return "-=";
    case Op::ShlAssign:
        return "<<=";
    case Op::ShrAssign:
        return ">>=";
    case Op::AndAssign:
        return "&=";
    case Op::XorAssign:
        return "^=";
    case Op::OrAssign:
        return "|=";
    case Op::Comma:
        return ",";
    case Op::Dot:
        return ".";
    case Op::Arrow:
        return "->";
    case Op::None:
        break;
    }
    return "<?>";
}

std::string Sema::args_passed(size_t n) {
    return std::to_string(n) + (n == 1 ? " arg " : " args ");
}

std::string Sema::node_type_name(const Node &n) const {
    if (n.kind == NodeKind::AggRef)
        return "aggregation";
    if (n.kind == NodeKind::Xlated)
        return n.op == Op::Arrow ? "pointer to translated data" : "translated data";
    if (n.kind == NodeKind::ActCall && is_dynamic(n.type))
        return ident_kind_name(n.act_kind);
    if (is_dynamic(n.type) && n.var)
        return n.var->is_array ? "associative array" : "scalar";
    return type_name(n.type);
}

} // namespace dtrace::compiler
