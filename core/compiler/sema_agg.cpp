// sema_agg.cpp: aggregations: `@name[keys] = func(args)`.
//
// An aggregation is created by its first appearance, keeps the aggregating
// function and key signature of its first use (D_AGG_REDEF, D_PROTO_*), and
// lquantize()/llquantize() parameters must be constants that agree with the
// first use; the checks and messages are DTrace's.
#include "compiler/sema.h"

#include <limits>

namespace dtrace::compiler {

namespace {

constexpr uint64_t kMaxU16 = std::numeric_limits<uint16_t>::max();
constexpr int64_t kMinI32 = std::numeric_limits<int32_t>::min();
constexpr int64_t kMaxI32 = std::numeric_limits<int32_t>::max();
constexpr unsigned kQuantizeArgMax = 2, kLquantizeArgMax = 5, kLlquantizeArgMax = 6;
constexpr size_t kLquantizeParams = 3;  // base, limit, step
constexpr size_t kLlquantizeParams = 4; // factor, low, high, steps

bool is_posconst(const Node &n) {
    return n.kind == NodeKind::Const && n.value != 0 && (!is_signed(n.type) || int64_t(n.value) > 0);
}

struct LlquantizeParam {
    const char *what;
    Tag type_tag, value_tag, match_tag;
};

constexpr LlquantizeParam kLlquantizeParamSpecs[kLlquantizeParams] = {
    {"factor", Tag::D_LLQUANT_FACTORTYPE, Tag::D_LLQUANT_FACTORVAL, Tag::D_LLQUANT_FACTORMATCH},
    {"low magnitude", Tag::D_LLQUANT_LOWTYPE, Tag::D_LLQUANT_LOWVAL, Tag::D_LLQUANT_LOWMATCH},
    {"high magnitude", Tag::D_LLQUANT_HIGHTYPE, Tag::D_LLQUANT_HIGHVAL, Tag::D_LLQUANT_HIGHMATCH},
    {"linear steps per magnitude", Tag::D_LLQUANT_NSTEPTYPE, Tag::D_LLQUANT_NSTEPVAL, Tag::D_LLQUANT_NSTEPMATCH},
};

} // namespace

SemaAction Sema::cook_aggregation(const Expr &assign) {
    const Expr &ae = *assign.args[0];
    const Expr &fe = *assign.args[1];
    Aggregation *agg = symbols_.find_agg(ae.text);
    if (!agg)
        agg = symbols_.create_agg(ae.text, ae.line);

    SemaAction a;
    a.kind = ActionKind::Aggregate;
    a.line = assign.line;
    a.agg = agg;
    const BuiltinIdent *b = nullptr;
    if (fe.kind == ExprKind::Call) {
        b = &lookup_function(fe);
        a.call_args = cook_call_args(fe, *b);
    } else {
        cook(fe, kRef);
    }
    if (!b || b->kind != IdentKind::AggFunc)
        raise_error(Tag::D_AGG_FUNC, assign.line,
                    "@" + agg->name + " must be assigned the result of an aggregating function");
    if (agg->has_func && agg->func_name != b->name)
        raise_error(Tag::D_AGG_REDEF, assign.line,
                    "aggregation redefined: @" + agg->name + "\n\t current: @" + agg->name + " = " +
                        std::string(b->name) + "( )\n\tprevious: @" + agg->name + " = " + agg->func_name +
                        "( ) : line " + std::to_string(agg->line));
    agg->has_func = true;
    agg->func = AggFunc(b->id);
    agg->func_name = std::string(b->name);
    agg->modified = true;
    a.fn = b;
    a.fn_line = fe.line;

    a.args = cook_list(ae.args);
    check_signature(agg->keys, agg->has_signature, a.args, "@", agg->name, "aggregation", ae.line);
    for (NodePtr &key : a.args)
        key = recorded(std::move(key));
    return a;
}

void Sema::finish_aggregation(SemaAction &a) {
    if (!a.fn)
        raise_error(Tag::D_AGG_NULL, a.line, "expression has null effect: @" + a.agg->name);
    std::string fname(a.fn->name);
    auto &args = a.call_args;
    if (!args.empty() && !is_scalar(args[0]->type))
        raise_error(Tag::D_AGG_SCALAR, a.fn_line, fname + "( ) argument #1 must be of scalar type");

    size_t incr_at = 0;
    unsigned argmax = 0;
    switch (a.agg->func) {
    case AggFunc::Quantize:
        incr_at = 1;
        argmax = kQuantizeArgMax;
        break;
    case AggFunc::Lquantize:
        finish_lquantize(a);
        incr_at = 1 + kLquantizeParams;
        argmax = kLquantizeArgMax;
        break;
    case AggFunc::Llquantize:
        finish_llquantize(a);
        incr_at = 1 + kLlquantizeParams;
        argmax = kLlquantizeArgMax;
        break;
    default:
        break;
    }
    if (!args.empty())
        a.agg_args.push_back(std::move(args[0]));
    if (incr_at && args.size() > incr_at) {
        if (!is_scalar(args[incr_at]->type))
            raise_error(Tag::D_PROTO_ARG, a.line,
                        fname + "( ) increment value (argument #" + std::to_string(argmax) +
                            ") must be of scalar type");
        if (args.size() > incr_at + 1)
            raise_error(Tag::D_PROTO_LEN, args[incr_at]->line,
                        fname + "( ) prototype mismatch: " + std::to_string(args.size()) + " args passed, at most " +
                            std::to_string(argmax) + " expected");
        a.agg_args.push_back(std::move(args[incr_at]));
    }
}

void Sema::finish_lquantize(SemaAction &a) {
    auto &args = a.call_args;
    const Node &base = *args[1], &limit = *args[2];
    if (base.kind != NodeKind::Const)
        raise_error(Tag::D_LQUANT_BASETYPE, base.line, "lquantize( ) argument #1 must be an integer constant");
    int64_t baseval = int64_t(base.value);
    if (baseval < kMinI32 || baseval > kMaxI32)
        raise_error(Tag::D_LQUANT_BASEVAL, base.line, "lquantize( ) argument #1 must be a 32-bit quantity");
    if (limit.kind != NodeKind::Const)
        raise_error(Tag::D_LQUANT_LIMTYPE, limit.line, "lquantize( ) argument #2 must be an integer constant");
    int64_t limitval = int64_t(limit.value);
    if (limitval < kMinI32 || limitval > kMaxI32)
        raise_error(Tag::D_LQUANT_LIMVAL, limit.line, "lquantize( ) argument #2 must be a 32-bit quantity");
    if (limitval < baseval)
        raise_error(Tag::D_LQUANT_MISMATCH, a.line,
                    "lquantize( ) base (argument #1) must be less than limit (argument #2)");
    uint64_t step = 1;
    if (args.size() > 3) {
        const Node &s = *args[3];
        if (!is_posconst(s))
            raise_error(Tag::D_LQUANT_STEPTYPE, s.line,
                        "lquantize( ) argument #3 must be a non-zero positive integer constant");
        step = s.value;
        if (step > kMaxU16)
            raise_error(Tag::D_LQUANT_STEPVAL, s.line, "lquantize( ) argument #3 must be a 16-bit quantity");
    }
    uint64_t nlevels = uint64_t(limitval - baseval) / step;
    if (nlevels == 0)
        raise_error(Tag::D_LQUANT_STEPLARGE, a.line,
                    "lquantize( ) step (argument #3) too large: must have at least one quantization level");
    if (nlevels > kMaxU16)
        raise_error(Tag::D_LQUANT_STEPSMALL, a.line,
                    "lquantize( ) step (argument #3) too small: number of quantization levels must be a 16-bit "
                    "quantity");
    // The limit kept is the one the levels reach (base + levels * step),
    // which is what DTrace encodes and prints buckets up to.
    int64_t reached = baseval + int64_t(nlevels * step);
    std::vector<int64_t> params{baseval, reached, int64_t(step)};
    auto &prev = a.agg->params;
    if (prev.empty()) {
        prev = params;
        return;
    }
    auto mismatch = [&](Tag tag, const char *what, int64_t expected, int64_t found) {
        raise_error(tag, a.line,
                    std::string("lquantize( ) ") + what + " doesn't match previous declaration: expected " +
                        std::to_string(expected) + ", found " + std::to_string(found));
    };
    if (prev[0] != params[0])
        mismatch(Tag::D_LQUANT_MATCHBASE, "base (argument #1)", prev[0], params[0]);
    if (prev[1] != params[1])
        mismatch(Tag::D_LQUANT_MATCHLIM, "limit (argument #2)", prev[1], params[1]);
    if (prev[2] != params[2])
        mismatch(Tag::D_LQUANT_MATCHSTEP, "step (argument #3)", prev[2], params[2]);
}

void Sema::finish_llquantize(SemaAction &a) {
    auto &args = a.call_args;
    std::vector<int64_t> params;
    for (size_t i = 0; i < kLlquantizeParams; i++) {
        const Node &p = *args[i + 1];
        const auto &spec = kLlquantizeParamSpecs[i];
        std::string arg = "llquantize( ) argument #" + std::to_string(i + 1) + " (" + spec.what + ")";
        if (p.kind != NodeKind::Const)
            raise_error(spec.type_tag, p.line, arg + " must be an integer constant");
        if (p.value > kMaxU16)
            raise_error(spec.value_tag, p.line, arg + " must be an unsigned 16-bit quantity");
        params.push_back(int64_t(p.value));
    }
    int64_t factor = params[0], low = params[1], high = params[2], nsteps = params[3];
    if (factor < 2)
        raise_error(Tag::D_LLQUANT_FACTORSMALL, a.line, "llquantize( ) factor (argument #1) must be two or more");
    if (low >= high)
        raise_error(Tag::D_LLQUANT_MAGRANGE, a.line,
                    "llquantize( ) high magnitude (argument #3) must be greater than low magnitude (argument #2)");
    if (nsteps < factor)
        raise_error(Tag::D_LLQUANT_FACTORNSTEPS, a.line,
                    "llquantize( ) factor (argument #1) must be less than or equal to the number of linear steps per "
                    "magnitude (argument #4)");
    uint64_t v = uint64_t(factor);
    while (v < uint64_t(nsteps))
        v *= uint64_t(factor);
    if (nsteps % factor || v % uint64_t(nsteps))
        raise_error(Tag::D_LLQUANT_FACTOREVEN, a.line,
                    "llquantize( ) factor (argument #1) must evenly divide the number of steps per magnitude "
                    "(argument #4), and the number of steps per magnitude must evenly divide a power of the factor");
    // The buckets end at factor^(high + 1), and the consumer steps once past
    // it: factor^(high + 2) must fit too (DTrace's bound and its message).
    uint64_t order = 1;
    for (int64_t i = 0; i <= high + 1; i++) {
        if (order * uint64_t(factor) <= order || order * uint64_t(factor) / uint64_t(factor) != order)
            raise_error(Tag::D_LLQUANT_MAGTOOBIG, a.line,
                        "llquantize( ) factor (" + std::to_string(factor) + ") raised to power of high magnitude (" +
                            std::to_string(high) + ") plus 1 overflows 64-bits");
        order *= uint64_t(factor);
    }
    auto &prev = a.agg->params;
    if (prev.empty()) {
        prev = params;
        return;
    }
    for (size_t i = 0; i < kLlquantizeParams; i++) {
        if (prev[i] != params[i])
            raise_error(kLlquantizeParamSpecs[i].match_tag, a.line,
                        std::string("llquantize( ) ") + kLlquantizeParamSpecs[i].what + " (argument #" +
                            std::to_string(i + 1) + ") doesn't match previous declaration: expected " +
                            std::to_string(prev[i]) + ", found " + std::to_string(params[i]));
    }
}

} // namespace dtrace::compiler
