// actions_test.cpp: what clauses compile to: actions, their record types,
// printf formats and argument checks, aggregations and their declarations.
#include "ast_builder.h"
#include "harness.h"

using namespace astb;
using harness::compile_error;
using harness::compile_ok;
using Kind = dtrace::dif::TypeDesc::Kind;

TEST(Actions, RecordTypesFollowDTypes) {
    auto p = compile_ok(
        program(clause(stmts(call("trace", list(id("pid"))), call("trace", list(id("timestamp"))),
                             call("trace", list(id("execname"))), call("exit", list(num(3))),
                             bin(Op::Assign, id("x"), num(1)), call("trace", list(cast(type({"char"}), id("x"))))))));
    const auto &a = p.clauses.at(0).actions;
    ASSERT_EQ(a.size(), 6u);
    EXPECT_EQ(a[0].kind, ActionKind::Trace);
    EXPECT_EQ(a[0].value->rtype, (dtrace::dif::TypeDesc{Kind::Integer, 4, true}));
    EXPECT_EQ(a[1].value->rtype, (dtrace::dif::TypeDesc{Kind::Integer, 8, false}));
    EXPECT_EQ(a[2].value->rtype, (dtrace::dif::TypeDesc{Kind::String, 256, false}));
    EXPECT_EQ(a[3].kind, ActionKind::Exit);
    EXPECT_EQ(a[3].value->rtype, (dtrace::dif::TypeDesc{Kind::Integer, 4, true}));
    EXPECT_EQ(a[4].kind, ActionKind::Expression);
    EXPECT_EQ(a[4].value->rtype.size, 0u);
    EXPECT_EQ(a[5].value->rtype, (dtrace::dif::TypeDesc{Kind::Integer, 1, true}));
}

TEST(Actions, DefaultActionForEmptyClause) {
    auto p = compile_ok(program(clause({})));
    ASSERT_EQ(p.clauses.at(0).actions.size(), 1u);
    EXPECT_EQ(p.clauses[0].actions[0].kind, ActionKind::Default);
}

TEST(Actions, Printf) {
    std::vector<ArgTypeInfo> seen;
    CompileOptions opts;
    opts.check_printf = [&](const std::string &fmt, const std::vector<ArgTypeInfo> &args, int) {
        seen = args;
        std::optional<Diagnostic> d;
        if (fmt == "bad")
            d = Diagnostic{dtrace::compiler::Tag::D_PRINTF_ARG_TYPE, 1, "", "",
                           "printf( ) argument #2 is incompatible"};
        return d;
    };
    auto p = compile_ok(program(clause(stmts(call("printf", list(str("%d %s\n"), id("pid"), id("execname")))))), opts);
    const auto &a = p.clauses.at(0).actions.at(0);
    EXPECT_EQ(a.kind, ActionKind::Printf);
    EXPECT_EQ(a.format, "%d %s\n");
    ASSERT_EQ(a.args.size(), 2u);
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].kind, ArgTypeInfo::Kind::Integer);
    EXPECT_EQ(seen[0].size, 4u);
    EXPECT_TRUE(seen[0].is_signed);
    EXPECT_EQ(seen[0].type_name, "pid_t");
    EXPECT_EQ(seen[1].kind, ArgTypeInfo::Kind::String);

    auto d = compile_error(program(clause(stmts(call("printf", list(str("bad"), id("pid")))))), opts);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PRINTF_ARG_TYPE);
    d = compile_error(program(clause(stmts(call("printf", list(id("pid")))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PRINTF_ARG_FMT);
    EXPECT_EQ(d.message, "printf( ) argument #1 is incompatible with prototype:\n\tprototype: string constant\n\t "
                         "argument: pid_t");
}

TEST(Actions, AggregationsInOrderOfAppearance) {
    auto p = compile_ok(
        program(clause(stmts(bin(Op::Assign, agg("b", list(id("execname"), id("pid"))), call("count")),
                             bin(Op::Assign, agg(""), call("sum", list(id("arg0")))))),
                clause(stmts(bin(Op::Assign, agg("a"), call("lquantize", list(id("arg0"), num(0), num(100), num(30)))),
                             bin(Op::Assign, agg("q"), call("quantize", list(id("arg0"), num(5)))),
                             call("printa", list(str("%@d\n"), agg("b")))))));
    ASSERT_EQ(p.aggregations.size(), 4u);
    EXPECT_EQ(p.aggregations[0].name, "b");
    EXPECT_EQ(p.aggregations[0].id, 1u);
    EXPECT_EQ(p.aggregations[0].func, AggFunc::Count);
    ASSERT_EQ(p.aggregations[0].key_types.size(), 2u);
    EXPECT_EQ(p.aggregations[0].key_types[0].kind, Kind::String);
    EXPECT_EQ(p.aggregations[0].key_types[1], (dtrace::dif::TypeDesc{Kind::Integer, 4, true}));
    EXPECT_EQ(p.aggregations[1].name, "");
    EXPECT_EQ(p.aggregations[1].id, 2u);
    EXPECT_EQ(p.aggregations[2].func, AggFunc::Lquantize);
    EXPECT_EQ(p.aggregations[2].params, (std::vector<int64_t>{0, 90, 30}));

    const auto &c0 = p.clauses[0].actions;
    EXPECT_EQ(c0[0].kind, ActionKind::Aggregate);
    EXPECT_EQ(c0[0].aggregation, 1u);
    EXPECT_EQ(c0[0].args.size(), 2u);
    EXPECT_TRUE(c0[0].agg_args.empty());
    EXPECT_EQ(c0[1].agg_args.size(), 1u);
    const auto &c1 = p.clauses[1].actions;
    EXPECT_EQ(c1[0].agg_args.size(), 1u);
    EXPECT_EQ(c1[1].agg_args.size(), 2u); // value and increment
    EXPECT_EQ(c1[2].kind, ActionKind::Printa);
    EXPECT_EQ(c1[2].format, "%@d\n");
    EXPECT_EQ(c1[2].printa_aggs, (std::vector<uint32_t>{1}));
}

TEST(Actions, AggregationErrors) {
    auto d = compile_error(program(clause(
        stmts(bin(Op::Assign, agg("a"), call("count")), bin(Op::Assign, agg("a"), call("sum", list(num(1))), 2)))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_AGG_REDEF);
    EXPECT_EQ(d.message, "aggregation redefined: @a\n\t current: @a = sum( )\n\tprevious: @a = count( ) : line 1");
    d = compile_error(program(clause(stmts(bin(Op::Assign, agg("a"), num(1))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_AGG_FUNC);
    EXPECT_EQ(d.message, "@a must be assigned the result of an aggregating function");
    d = compile_error(program(clause(stmts(bin(Op::Assign, agg("a"), call("count", list(num(1))))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PROTO_LEN);
    EXPECT_EQ(d.message, "count( ) prototype mismatch: 1 arg passed, 0 expected");
    d = compile_error(program(clause(stmts(bin(Op::Assign, agg("a"), call("sum", list(str("x"))))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_AGG_SCALAR);
    EXPECT_EQ(d.message, "sum( ) argument #1 must be of scalar type");
    d = compile_error(program(clause(
        stmts(bin(Op::Assign, agg("a", list(num(1))), call("count")), bin(Op::Assign, agg("a"), call("count"))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PROTO_LEN);
    EXPECT_EQ(d.message, "@a[ ] prototype mismatch: 0 args passed, 1 expected");
    d = compile_error(program(clause(stmts(agg("a")))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_IDENT_UNDEF);
    EXPECT_EQ(d.message, "failed to resolve @a: Unknown variable name");
}

TEST(Actions, QuantizeParameterErrors) {
    auto lq = [](ExprPtr lo, ExprPtr hi, ExprPtr step) {
        std::vector<ExprPtr> args = list(id("arg0"), std::move(lo), std::move(hi));
        if (step)
            args.push_back(std::move(step));
        return compile_error(program(clause(stmts(bin(Op::Assign, agg("a"), call("lquantize", std::move(args)))))));
    };
    auto d = lq(id("pid"), num(10), nullptr);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LQUANT_BASETYPE);
    EXPECT_EQ(d.message, "lquantize( ) argument #1 must be an integer constant");
    d = lq(num(10), num(0), nullptr);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LQUANT_MISMATCH);
    d = lq(num(0), num(10), num(0));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LQUANT_STEPTYPE);
    d = lq(num(0), num(10), num(20));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LQUANT_STEPLARGE);
    d = lq(num(0), num(0x100000000ULL), nullptr);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LQUANT_LIMVAL);

    auto llq = [](uint64_t f, uint64_t lo, uint64_t hi, uint64_t n) {
        return compile_error(program(clause(
            stmts(bin(Op::Assign, agg("a"), call("llquantize", list(id("arg0"), num(f), num(lo), num(hi), num(n))))))));
    };
    d = llq(1, 0, 6, 20);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LLQUANT_FACTORSMALL);
    EXPECT_EQ(d.message, "llquantize( ) factor (argument #1) must be two or more");
    d = llq(10, 6, 6, 20);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LLQUANT_MAGRANGE);
    d = llq(10, 0, 6, 5);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LLQUANT_FACTORNSTEPS);
    d = llq(10, 0, 6, 15);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LLQUANT_FACTOREVEN);
    d = llq(10, 0, 30, 20);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LLQUANT_MAGTOOBIG);
    d = llq(10, 0, 70000, 20);
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LLQUANT_HIGHVAL);
    EXPECT_EQ(d.message, "llquantize( ) argument #3 (high magnitude) must be an unsigned 16-bit quantity");

    d = compile_error(program(clause(
        stmts(bin(Op::Assign, agg("a"), call("llquantize", list(id("arg0"), num(10), num(0), num(6), num(20)))),
              bin(Op::Assign, agg("a"), call("llquantize", list(id("arg0"), num(10), num(1), num(6), num(20))))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_LLQUANT_LOWMATCH);
    EXPECT_EQ(d.message,
              "llquantize( ) low magnitude (argument #2) doesn't match previous declaration: expected 0, found 1");
}

TEST(Actions, PrintaErrors) {
    auto d = compile_error(program(clause(stmts(call("printa", list(str("%d")))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PRINTA_PROTO);
    EXPECT_EQ(d.message, "printa( ) prototype mismatch: 1 args passed, 2 expected");
    d = compile_error(program(clause(stmts(call("printa", list(id("pid")))))));
    EXPECT_EQ(d.tag, dtrace::compiler::Tag::D_PRINTA_AGGARG);
}

TEST(Actions, VariablesTable) {
    auto p = compile_ok(program(clause(stmts(bin(Op::Assign, id("g"), num(1)), bin(Op::Assign, self("t"), str("s")),
                                             bin(Op::Assign, index(id("arr"), list(num(1))), id("timestamp"))))));
    ASSERT_EQ(p.variables.size(), 3u);
    EXPECT_EQ(p.variables[0].name, "g");
    EXPECT_EQ(p.variables[0].scope, dtrace::dif::Scope::Global);
    EXPECT_EQ(p.variables[0].id, dtrace::dif::kFirstUserVariable);
    EXPECT_EQ(p.variables[1].scope, dtrace::dif::Scope::ThreadLocal);
    EXPECT_EQ(p.variables[1].type.kind, Kind::String);
    EXPECT_TRUE(p.variables[2].is_array);
    EXPECT_EQ(p.variables[2].id, dtrace::dif::kFirstUserVariable + 1);
}
