// harness.h: compiles a program, validates every DIF object it produced,
// and runs clauses on the DIF VM with a small fake firing, recording values
// the way the engine does (integers cut to the size of their D type).
#pragma once

#include "compiler/compile.h"
#include "dif/validator.h"
#include "dif/vm.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace harness {

using namespace dtrace;
using compiler::Program;

class FakeEnv : public dif::Environment {
  public:
    static constexpr uint32_t kArgVariables = 10; // arg0..arg9
    std::map<dif::VarId, uint64_t> values;
    std::vector<uint64_t> args;
    uint64_t builtin(dif::VarId id) override {
        auto n = uint32_t(id) - uint32_t(dif::VarId::Arg0);
        if (n < kArgVariables)
            return n < args.size() ? args[n] : 0;
        return values.count(id) ? values.at(id) : 0;
    }
    uint64_t builtin_array(dif::VarId, uint64_t index, dif::Fault &) override {
        return index < args.size() ? args[index] : 0;
    }
    int64_t read_target(uint64_t, void *, size_t) override { return dif::kTargetNoAccess; }
};

// A recorded value: an integer (cut to its size and sign-extended as its
// type says) or a string.
struct Value {
    bool is_string = false;
    int64_t i = 0;
    std::string s;
};

inline void expect_valid(const dif::Difo &d) {
    auto r = dif::validate(d);
    for (const auto &e : r.errors)
        ADD_FAILURE() << "invalid DIFO: " << e.to_string();
}

inline void validate_program(const Program &p) {
    for (const auto &c : p.clauses) {
        if (c.predicate)
            expect_valid(*c.predicate);
        for (const auto &a : c.actions) {
            if (a.value)
                expect_valid(*a.value);
            for (const auto &d : a.args)
                expect_valid(d);
            for (const auto &d : a.agg_args)
                expect_valid(d);
        }
    }
}

class Runner {
  public:
    FakeEnv env;
    dif::Vm vm;
    // Memory the clauses may read (declared at each clause start, as the
    // engine declares an event's payload).
    std::vector<std::pair<const void *, size_t>> readable;

    Value record(const dif::Difo &d, uint64_t raw) {
        Value v;
        if (d.rtype.kind == dif::TypeDesc::Kind::String) {
            std::string_view s;
            dif::Fault f;
            EXPECT_TRUE(vm.load_string(raw, s, f));
            v.is_string = true;
            v.s = std::string(s);
            return v;
        }
        unsigned bits = d.rtype.size * 8;
        uint64_t x = raw;
        if (bits > 0 && bits < 64) {
            x &= (uint64_t(1) << bits) - 1;
            if (d.rtype.is_signed && (x >> (bits - 1)) & 1)
                x |= ~((uint64_t(1) << bits) - 1);
        }
        v.i = int64_t(x);
        return v;
    }

    uint64_t run(const dif::Difo &d, bool expect_fault = false) {
        dif::Fault f;
        uint64_t r = vm.run(d, env, f);
        if (!expect_fault) {
            EXPECT_EQ(f.kind, dif::FaultKind::None) << "fault in DIFO";
        }
        return r;
    }

    // Runs a clause as the engine would: the predicate, then each action's
    // objects; returns what trace(), exit() and printf() recorded.
    std::vector<Value> run_clause(const compiler::Clause &c) {
        std::vector<Value> out;
        vm.begin_clause();
        for (auto [base, length] : readable)
            vm.add_readable(base, length);
        if (c.predicate && run(*c.predicate) == 0)
            return out;
        for (const auto &a : c.actions) {
            if (a.value) {
                uint64_t raw = run(*a.value);
                if (a.kind != compiler::ActionKind::Expression)
                    out.push_back(record(*a.value, raw));
            }
            for (const auto &d : a.args)
                out.push_back(record(d, run(d)));
            for (const auto &d : a.agg_args)
                out.push_back(record(d, run(d)));
        }
        return out;
    }
};

inline Program compile_ok(const compiler::ProgramAst &ast, const compiler::CompileOptions &opts = {}) {
    auto r = compiler::compile(ast, opts);
    if (r.error)
        ADD_FAILURE() << "unexpected error: [" << dtrace::compiler::tag_name(r.error->tag) << "] " << r.error->message;
    if (!r.program)
        return {};
    validate_program(*r.program);
    return std::move(*r.program);
}

inline compiler::Diagnostic compile_error(const compiler::ProgramAst &ast, const compiler::CompileOptions &opts = {}) {
    auto r = compiler::compile(ast, opts);
    if (!r.error) {
        ADD_FAILURE() << "expected a compile error";
        return {};
    }
    return *r.error;
}

} // namespace harness
