// source_harness.h: compiling D source text and running the result on the
// DIF VM (harness.h), for tests that start from source: the values a
// program records, and the diagnostics of programs that fail to compile.
#pragma once

#include "compiler/parser.h"
#include "harness.h"

#include <optional>
#include <string>
#include <vector>

namespace source_harness {

using namespace dtrace::compiler;
using harness::Runner;
using harness::Value;

inline std::optional<ProgramAst> parse(const std::string &src) {
    ParseOptions po;
    po.from_file = true;
    auto r = parse_program(src, po);
    if (r.error)
        ADD_FAILURE() << "parse error: " << r.error->message << " in: " << src;
    return std::move(r.program);
}

// Compiles `src` and runs its clauses in order; returns what they recorded.
inline std::vector<Value> run(const std::string &src, Runner &r, const CompileOptions &opts = {}) {
    auto ast = parse(src);
    if (!ast)
        return {};
    auto prog = harness::compile_ok(*ast, opts);
    std::vector<Value> out;
    for (const auto &c : prog.clauses)
        for (auto &v : r.run_clause(c))
            out.push_back(v);
    return out;
}

inline std::vector<Value> run(const std::string &src) {
    Runner r;
    return run(src, r);
}

// The single integer `BEGIN { trace(expr); }` records.
inline int64_t eval(const std::string &expr) {
    auto v = run("BEGIN { trace(" + expr + "); }");
    return v.size() == 1 && !v[0].is_string ? v[0].i : INT64_MIN;
}

inline std::string eval_string(const std::string &expr) {
    auto v = run("BEGIN { trace(" + expr + "); }");
    return v.size() == 1 && v[0].is_string ? v[0].s : "<none>";
}

inline Diagnostic error(const std::string &src, const CompileOptions &opts = {}) {
    auto ast = parse(src);
    if (!ast)
        return {};
    return harness::compile_error(*ast, opts);
}

} // namespace source_harness
