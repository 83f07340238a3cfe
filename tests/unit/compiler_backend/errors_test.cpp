// errors_test.cpp: the compile errors of semantic analysis and code
// generation, with DTrace's tags, lines, regions and messages.
#include "ast_builder.h"
#include "harness.h"

using namespace astb;
using harness::compile_error;

namespace {

Diagnostic error_of(std::vector<StmtPtr> body, ExprPtr pred = nullptr) {
    return compile_error(program(clause(std::move(body), std::move(pred))));
}

} // namespace

TEST(Errors, UndefinedIdentifier) {
    auto d = error_of(stmts(call("trace", list(id("y", 3)))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_IDENT_UNDEF);
    EXPECT_EQ(d.message, "failed to resolve y: Unknown variable name");
    EXPECT_EQ(d.line, 3);
    EXPECT_EQ(d.region, "action list");
    EXPECT_EQ(format_diagnostic(d, true), "[D_IDENT_UNDEF] line 3: failed to resolve y: Unknown variable name");
}

TEST(Errors, UndefinedInPredicate) {
    auto d = error_of(stmts(call("trace", list(num(1)))), bin(Op::Eq, id("z"), num(0)));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_IDENT_UNDEF);
    EXPECT_EQ(d.region, "predicate");
}

TEST(Errors, VariableReadBeforeAssignment) {
    auto d = error_of(stmts(call("trace", list(self("x")))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_VAR_UNDEF);
    EXPECT_EQ(d.message, "self->x has not yet been declared or assigned");
    d = error_of(stmts(bin(Op::Assign, id("x"), bin(Op::Add, id("x"), num(1)))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_VAR_UNDEF);
    EXPECT_EQ(d.message, "x has not yet been declared or assigned");
    d = error_of(stmts(bin(Op::AddAssign, id("x"), num(1))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_VAR_UNDEF);
}

TEST(Errors, PredicateRetriedFirst) {
    // /x++/ { trace(x); }: the predicate creates x, so the clause compiles.
    auto r = compile(program(clause(stmts(call("trace", list(id("x")))), post(Op::PostInc, id("x")))), {});
    EXPECT_FALSE(r.error) << r.error->message;
}

TEST(Errors, ConflictingGlobalTypes) {
    auto d = error_of(stmts(bin(Op::Assign, id("x"), num(1)), bin(Op::Assign, id("x"), str("s"))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_INCOMPAT);
    EXPECT_EQ(d.message, "operands have incompatible types: \"int\" = \"string\"");
    d = error_of(stmts(bin(Op::Assign, id("x"), str("s")), bin(Op::Assign, id("x"), num(1))));
    EXPECT_EQ(d.message, "operands have incompatible types: \"string\" = \"int\"");
}

TEST(Errors, OperatorOperandTypes) {
    auto d = error_of(stmts(call("trace", list(bin(Op::BitOr, str("a"), num(1))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_INT);
    EXPECT_EQ(d.message, "operator | requires operands of integral type");
    d = error_of(stmts(call("trace", list(bin(Op::Mul, str("a"), num(1))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_ARITH);
    EXPECT_EQ(d.message, "operator * requires operands of arithmetic type");
    d = error_of(stmts(call("trace", list(un(Op::LogNot, str("a"))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_SCALAR);
    EXPECT_EQ(d.message, "operator ! requires an operand of scalar type");
    d = error_of(stmts(call("trace", list(bin(Op::Lt, str("a"), num(1))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_INCOMPAT);
    EXPECT_EQ(d.message, "operands have incompatible types: \"string\" < \"int\"");
    // A string is a pointer to char in arithmetic ("a" + 1 is "" past the
    // a), but two strings do not add.
    d = error_of(stmts(call("trace", list(bin(Op::Add, str("a"), str("b"))))));
    EXPECT_EQ(d.message, "operands have incompatible types: \"string\" + \"string\"");
}

TEST(Errors, LvaluesAndWritability) {
    auto d = error_of(stmts(bin(Op::Assign, num(1), num(2))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_LVAL);
    EXPECT_EQ(d.message, "operator = requires modifiable lvalue as an operand");
    d = error_of(stmts(bin(Op::Assign, id("pid"), num(2))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_WRITE);
    EXPECT_EQ(d.message, "operator = can only be applied to a writable variable");
    d = error_of(stmts(post(Op::PostInc, id("timestamp"))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_WRITE);
    EXPECT_EQ(d.message, "operator ++ can only be applied to a writable variable");
}

TEST(Errors, DivisionByConstantZero) {
    auto d = error_of(stmts(call("trace", list(bin(Op::Div, id("pid"), num(0))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_DIV_ZERO);
    EXPECT_EQ(d.message, "expression contains division by zero");
}

TEST(Errors, IntegerConstantOverflow) {
    auto d = error_of(stmts(call("trace", list(num(0xffffffffffffffffULL)))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_INT_OFLOW);
    EXPECT_EQ(d.message, "integer constant 0xffffffffffffffff cannot be represented in any built-in integral type");
    auto r =
        compile(program(clause(stmts(call("trace", list(num(0xffffffffffffffffULL, IntSuffix::None, true)))))), {});
    EXPECT_FALSE(r.error);
}

TEST(Errors, FunctionPrototypes) {
    auto d = error_of(stmts(call("trace", list(call("strlen")))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PROTO_LEN);
    EXPECT_EQ(d.message, "strlen( ) prototype mismatch: 0 args passed, 1 expected");
    d = error_of(stmts(call("trace", list(call("strlen", list(num(1)))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PROTO_ARG);
    EXPECT_EQ(d.message,
              "strlen( ) argument #1 is incompatible with prototype:\n\tprototype: const char *\n\t argument: int");
    d = error_of(stmts(call("trace", list(call("substr", list(str("a")))))));
    EXPECT_EQ(d.message, "substr( ) prototype mismatch: 1 arg passed, at least 2 expected");
    d = error_of(stmts(call("trace")));
    EXPECT_EQ(d.message, "trace( ) prototype mismatch: 0 args passed, 1 expected");
    d = error_of(stmts(call("exit", list(str("a")))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PROTO_ARG);
    d = error_of(stmts(call("nosuch", list())));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_FUNC_UNDEF);
    EXPECT_EQ(d.message, "undefined function name: nosuch");
    d = error_of(stmts(call("pid", list())));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_FUNC_IDKIND);
    EXPECT_EQ(d.message, "scalar 'pid' may not be referenced as a function");
}

TEST(Errors, ActionsInExpressions) {
    auto d = error_of(stmts(bin(Op::Assign, id("x"), call("count"))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_OP_INCOMPAT);
    d = error_of(stmts(call("count")));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_CG_EXPR);
    EXPECT_EQ(d.message,
              "aggregating function count( ) may not be called from a D expression (D program context required)");
}

TEST(Errors, TraceOfVoid) {
    auto d = error_of(stmts(call("trace", list(call("bcopy", list(num(0), num(0), num(0)))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_TRACE_VOID);
    EXPECT_EQ(d.message, "trace( ) may not be applied to a void expression");
    EXPECT_EQ(d.region, ""); // found while building the action, after cooking
}

TEST(Errors, AssociativeArrays) {
    auto d = error_of(stmts(bin(Op::Assign, index(id("a"), list(num(1))), num(1)),
                            bin(Op::Assign, index(id("a"), list(num(1), num(2))), num(1))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PROTO_LEN);
    EXPECT_EQ(d.message, "a[ ] prototype mismatch: 2 args passed, 1 expected");
    d = error_of(stmts(bin(Op::Assign, index(id("a"), list(num(1))), num(1)),
                       bin(Op::Assign, index(id("a"), list(str("k"))), num(1))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PROTO_ARG);
    EXPECT_EQ(d.message, "a[ ] argument #1 is incompatible with prototype:\n\tprototype: int\n\t argument: string");
    d = error_of(stmts(bin(Op::Assign, index(thisv("a"), list(num(1))), num(1))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_ARR_LOCAL);
    EXPECT_EQ(d.message, "local variables may not be used as associative arrays: a");
    d = error_of(stmts(bin(Op::Assign, id("x"), num(1)), bin(Op::Assign, index(id("x"), list(num(1))), num(1))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_DEREF_NONPTR);
}

TEST(Errors, KernelOnlySubroutinesAreUnavailable) {
    auto d = error_of(stmts(call("trace", list(call("getmajor", list(num(1)))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_UNKNOWN);
    EXPECT_EQ(d.message,
              "getmajor( ) is not available: it reads kernel state, which a user-space dtrace does not have");
}

TEST(Errors, InsufficientRegisters) {
    // a + b * (c + d * (e + f * (g + h * (i + j * (k + l))))) needs more than seven registers.
    const char *names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
    std::vector<StmtPtr> body;
    for (auto n : names)
        body.push_back(stmt(bin(Op::Assign, id(n), num(1))));
    ExprPtr e = bin(Op::Add, id("k"), id("l"));
    for (int i = 9; i >= 0; i -= 2)
        e = bin(Op::Add, id(names[i - 1]), bin(Op::Mul, id(names[i]), std::move(e)));
    body.push_back(stmt(call("trace", list(std::move(e)))));
    auto d = compile_error(program(clause(std::move(body), nullptr, "BEGIN", 4)));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_NOREG);
    EXPECT_EQ(d.message, "Insufficient registers to generate code");
    EXPECT_EQ(d.line, 4);
}
