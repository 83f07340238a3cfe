// vm.h: the DIF interpreter.
//
// One Vm serves a whole engine (the engine serialises firings). For each
// clause the engine calls begin_clause(), declares the firing's readable
// regions, and runs the clause's DIFOs with run(). The VM:
//   - dispatches with a switch over the encoded instruction words (no
//     pre-decoding, no allocation, no virtual call per instruction);
//   - stays memory-safe even on a DIFO that was never validated: register
//     fields are masked, table indexes and branch directions are checked,
//     and every load goes through the checked accessor (memory.h);
//   - stops at the first fault, reporting kind, address and instruction.
// Validate DIFOs first (validator.h): the VM keeps itself safe, but only a
// validated DIFO is guaranteed to mean what its listing says.
#pragma once

#include "dif/difo.h"
#include "dif/fault.h"
#include "dif/memory.h"
#include "dif/subroutines.h"
#include "dif/tuple_stack.h"
#include "dif/variables.h"
#include "dif/vm_config.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtrace::dif {

class Vm {
  public:
    explicit Vm(const VmConfig &config = {});

    // Clause-local variables (this->) are reset at each firing, scratch and
    // readable regions at each clause: a firing is begin_firing(), then
    // begin_clause() before each of its clauses.
    void begin_firing() {
        variables_.begin_firing();
        subr_state_.strtok_active = false; // strtok(NULL, ...) continues within a firing only
    }
    void begin_clause() {
        memory_.begin_clause();
        variables_.begin_clause();
    }
    // Runs `difo`; returns its value (an address for strings and by-ref
    // values, valid until the next begin_clause()). On a fault returns 0
    // with `fault` filled in.
    uint64_t run(const Difo &difo, Environment &env, Fault &fault) {
        fault = Fault{};
        if (std::optional<VarId> id = plain_builtin(difo))
            return env.builtin(*id);
        return interpret(difo, env, fault);
    }
    // The builtin variable a DIFO does nothing but read (`ldgv %rN,
    // probefunc; ret %rN`, the typical aggregation key or trace()
    // argument). run() answers such a DIFO without the interpreter loop
    // (inline, in the caller): same result, no fault possible, a fraction
    // of the cost; a caller that runs the DIFO often may ask once and call
    // Environment::builtin() itself.
    static std::optional<VarId> plain_builtin(const Difo &difo) {
        if (difo.code.size() != 2)
            return std::nullopt;
        const Instr load = decode(difo.code[0]), ret = decode(difo.code[1]);
        if (load.op != Op::Ldgv || ret.op != Op::Ret || load.rd != ret.r1 || load.rd == kZeroRegister ||
            load.imm >= static_cast<uint32_t>(VarId::Count))
            return std::nullopt;
        return static_cast<VarId>(load.imm);
    }
    // Declares [base, base + length) readable until the next begin_clause()
    // (probe names, execname, event payload).
    void add_readable(const void *base, size_t length) { memory_.add_readable(base, length); }
    // Until the next begin_clause(), addresses outside the VM's memory are
    // read through `env` (a replayed event's memory, read as kernel memory).
    void read_through(Environment *env) { memory_.read_through(env); }
    // The same for a NUL-terminated string of `length` bytes (NUL excluded)
    // that the program is likely to read next: load_string() of it is cheap.
    void add_readable_string(const char *s, size_t length) { memory_.add_readable_string(s, length); }

    // Reads a value a run returned, through the same checks as the program:
    // the string at `address` (bounded by strsize) or `size` bytes.
    bool load_string(uint64_t address, std::string_view &out, Fault &fault) const {
        auto s = memory_.string_at(address, config_.strsize);
        if (!s) {
            fault = Fault{FaultKind::BadAddr, address, 0};
            return false;
        }
        out = *s;
        return true;
    }
    bool load_bytes(uint64_t address, size_t size, std::string_view &out, Fault &fault) const;

    // Storage shared by all clauses.
    Variables &variables() { return variables_; }
    const VmConfig &config() const { return config_; }

  private:
    struct RunState;

    // The interpreter loop.
    uint64_t interpret(const Difo &difo, Environment &env, Fault &fault);
    bool declare_variables(const Difo &difo);
    uint64_t tid(RunState &rs);
    bool fail(RunState &rs, FaultKind kind, uint64_t address = 0);
    bool load(RunState &rs, uint64_t address, size_t size, bool is_signed, uint64_t &out);
    bool load_target(RunState &rs, uint64_t address, size_t size, bool is_signed, uint64_t &out);
    bool store(RunState &rs, uint64_t address, size_t size, uint64_t value);
    bool compare_strings(RunState &rs, uint64_t a, uint64_t b, uint64_t &out);
    bool load_variable(RunState &rs, Scope scope, bool array, uint32_t id, uint64_t &out);
    bool load_builtin_array(RunState &rs, uint32_t id, uint64_t index, uint64_t &out);
    bool store_variable(RunState &rs, Scope scope, bool array, uint32_t id, uint64_t value);
    bool push_string(RunState &rs, uint64_t address);
    bool push_bytes(RunState &rs, uint64_t address, uint64_t size);
    bool call(RunState &rs, uint32_t subr, uint64_t &out);
    bool allocate(RunState &rs, uint64_t size, uint64_t &out);
    bool copy(RunState &rs, uint64_t dest, uint64_t src, uint64_t size);

    VmConfig config_;
    Memory memory_;
    Variables variables_;
    TupleStack tuples_;
    SubrState subr_state_;
};

} // namespace dtrace::dif
