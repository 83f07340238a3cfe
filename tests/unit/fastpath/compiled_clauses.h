// compiled_clauses.h: D source compiled to a Program, for the fast path's
// tests (no engine, no probes: the generic argument types).
#pragma once

#include "compiler/compile.h"
#include "compiler/parser.h"
#include "fastpath/program_builder.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

namespace dtrace::test {

inline std::unique_ptr<compiler::Program> compile_d(const std::string &source) {
    compiler::ParseOptions parse_options;
    auto parsed = compiler::parse_program(source, parse_options);
    EXPECT_TRUE(parsed.program) << (parsed.error ? parsed.error->message : "");
    if (!parsed.program)
        return nullptr;
    auto compiled = compiler::compile(*parsed.program, {});
    EXPECT_TRUE(compiled.program) << (compiled.error ? compiled.error->message : "");
    if (!compiled.program)
        return nullptr;
    return std::make_unique<compiler::Program>(std::move(*compiled.program));
}

// Every clause of `program`, in order.
inline std::vector<fastpath::ClauseRef> clauses_of(const compiler::Program &program) {
    std::vector<fastpath::ClauseRef> out;
    for (const compiler::Clause &c : program.clauses)
        out.push_back({&program, &c});
    return out;
}

// The probe a test's program serves alone: prov:mod:func:name, its clauses
// enabled as epids 2, 3 ...
inline fastpath::ProbeIdentity test_probe(const compiler::Program &program) {
    fastpath::ProbeIdentity probe{"prov", "mod", "func", "name", {}};
    for (size_t i = 0; i < program.clauses.size(); i++)
        probe.epids.push_back(static_cast<uint32_t>(2 + i));
    return probe;
}

// Why the clauses of `source` cannot run in the kernel; nothing when they can.
inline std::optional<std::string> refusal_of(const std::string &source, fastpath::ProbeShape shape = {6, 16, false}) {
    auto program = compile_d(source);
    if (!program)
        return "does not compile";
    try {
        fastpath::MapPlan plan;
        const fastpath::ProbeIdentity probe = test_probe(*program);
        fastpath::build_program(plan, shape, clauses_of(*program), &probe);
        return std::nullopt;
    } catch (const fastpath::Refusal &r) {
        return std::string(r.what());
    }
}

} // namespace dtrace::test
