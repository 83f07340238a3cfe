// dif_test_util.h: helpers shared by the DIF tests — a scriptable
// Environment and a runner that assembles, validates and runs snippets.
#pragma once

#include "dif/assembler.h"
#include "dif/validator.h"
#include "dif/vm.h"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace dtrace::dif::test {

// Assembles `text`, failing the test on assembler errors.
inline Difo assemble_ok(std::string_view text) {
    AsmResult r = assemble(text);
    for (const AsmError &e : r.errors)
        ADD_FAILURE() << e.to_string() << "\nin:\n" << text;
    return r.difo;
}

// An Environment whose builtins, arguments and target memory tests set.
class FakeEnv final : public Environment {
  public:
    std::map<VarId, uint64_t> builtins;
    std::vector<uint64_t> args;
    // The traced process: one mapped range.
    uint64_t target_base = 0x10000;
    std::vector<uint8_t> target;
    bool target_access = true;
    int builtin_calls = 0;

    uint64_t builtin(VarId id) override {
        builtin_calls++;
        auto it = builtins.find(id);
        return it == builtins.end() ? 0 : it->second;
    }
    uint64_t builtin_array(VarId id, uint64_t index, Fault &fault) override {
        if (id == VarId::Args && index < args.size())
            return args[index];
        fault.kind = FaultKind::IllOp;
        return 0;
    }
    int64_t read_target(uint64_t address, void *buffer, size_t length) override {
        if (!target_access)
            return kTargetNoAccess;
        if (address < target_base || address - target_base >= target.size())
            return kTargetUnreadable;
        size_t offset = address - target_base;
        size_t n = std::min(length, target.size() - offset);
        std::memcpy(buffer, target.data() + offset, n);
        return static_cast<int64_t>(n);
    }
};

// Runs snippets on one VM; keeps every DIFO alive so that strings returned
// from their string tables stay valid for the test.
class Runner {
  public:
    explicit Runner(VmConfig config = {}) : vm(config) { vm.begin_clause(); }

    // Assembles, validates (failing the test if invalid) and runs.
    uint64_t run(std::string_view text) {
        const Difo &d = difos_.emplace_back(assemble_ok(text));
        ValidationResult v = validate(d);
        for (const ValidationError &e : v.errors)
            ADD_FAILURE() << e.to_string() << "\nin:\n" << text;
        return vm.run(d, env, fault);
    }
    // The DIFO run last.
    const Difo &last() const { return difos_.back(); }
    // Runs without validating (for the VM's own defences).
    uint64_t run_unvalidated(const Difo &d) { return vm.run(difos_.emplace_back(d), env, fault); }

    // The string at `address`, read through the VM's checks.
    std::string string_at(uint64_t address) {
        std::string_view s;
        Fault f;
        if (!vm.load_string(address, s, f)) {
            ADD_FAILURE() << "unreadable string at " << address;
            return {};
        }
        return std::string(s);
    }

    Vm vm;
    FakeEnv env;
    Fault fault;

  private:
    std::deque<Difo> difos_;
};

// The text of a program that evaluates `body` and returns %r1, declaring
// `vars` (rows of the variable table).
inline std::string program(std::string_view body, std::string_view vars = {}, std::string_view rtype = "int64") {
    std::string s = "DIFO returns " + std::string(rtype) + "\n" + std::string(body) + "\n";
    if (!vars.empty())
        s += "NAME ID KND SCP FLAG TYPE\n" + std::string(vars) + "\n";
    return s;
}

// A subroutine argument for call_text(): a string literal (in assembly
// syntax, escapes allowed), an integer, or an arbitrary address.
struct Arg {
    enum Kind { String, Integer } kind;
    std::string text;
    uint64_t value = 0;
};
inline Arg S(std::string text) {
    return Arg{Arg::String, std::move(text)};
}
inline Arg I(uint64_t value) {
    return Arg{Arg::Integer, {}, value};
}

// A program that calls subroutine `name` with `args` and returns its result.
inline std::string call_text(std::string_view name, const std::vector<Arg> &args) {
    std::string text;
    for (size_t i = 0; i < args.size(); i++) {
        std::string reg = "%r" + std::to_string(i + 1);
        if (args[i].kind == Arg::String)
            text += "sets " + reg + ", \"" + args[i].text + "\"\npushts " + reg + "\n";
        else
            text += "setx " + reg + ", " + std::to_string(args[i].value) + "\npushtv " + reg + ", 8\n";
    }
    return text + "call %r7, " + std::string(name) + "\nret %r7\n";
}

} // namespace dtrace::dif::test
