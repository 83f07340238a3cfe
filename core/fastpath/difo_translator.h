// difo_translator.h: one validated DIF object as BPF instructions.
//
// DIF registers live in the frame (kernel_frame.h); each DIF instruction
// becomes a few BPF instructions over r1-r3, and DIF's forward branches
// become BPF jumps. A register's kind is tracked along the code (an
// integer, a known constant, execname, a string constant, a string or the
// bytes copyin() read into scratch): strings are compared and copied as
// kernel_strings.h says; copyin()'s bytes are read by loads at offsets
// known at compile time. The probe's names are constants in a program that
// serves one probe. What the kernel path cannot do (other memory loads,
// most subroutines, associative arrays of strings, string variables,
// division by a value not known to be non-zero ...) throws a Refusal
// naming it.
#pragma once

#include "dif/isa.h"
#include "fastpath/bpf_emitter.h"
#include "fastpath/kernel_frame.h"
#include "fastpath/kernel_strings.h"
#include "fastpath/shared_probes.h"

#include <map>
#include <string>
#include <utility>

namespace dtrace::fastpath {

// Why copyin()'s bytes cannot be a clause's value in the kernel path.
inline constexpr const char *kCopyinBytesAsValue =
    "copyin()'s bytes where a value is wanted (the kernel path reads them only by loads at offsets known at compile "
    "time)";

// What a DIFO returned: an integer (in frame::kResult), a string, or
// copyin()'s bytes (usable only as a discarded value: `this->p = copyin(...)`).
struct DifoValue {
    enum class Kind { Integer, Execname, Constant, Memory, Buffer } kind = Kind::Integer;
    std::string text;    // Constant: the string
    KernelString memory; // Memory: where the string lies (kernel_strings.h)

    bool is_string() const { return kind != Kind::Integer && kind != Kind::Buffer; }
    // Throws a Refusal unless an integer: `refusal` for a string.
    void expect_integer(const char *refusal) const;
    KernelString string() const;
};

// Where the faults of the DIF being translated go (copyinstr() of a bad
// address): DTrace's error record names the clause's enabled probe, the
// action (1-based; 0: the predicate) and the DIF offset, then the clause
// ends, as the engine abandons a clause that faulted.
struct FaultSite {
    BpfEmitter::Label clause_end = 0;
    int32_t action = 0;
    uint32_t epid = 0;          // a program of one probe's: the clause's enabled probe id
    int32_t shared_clause = -1; // a shared program's: the clause's index in its probe's entry
};

// The builtins a program reads once, in its prologue.
struct BuiltinUses {
    bool execname = false, timestamp = false, pid_tgid = false, uid_gid = false, return_value = false;
    bool scratch = false;       // the scratch map (kernel_strings.h)
    bool clause_locals = false; // this-> variables (zeroed for each firing)
};

// Where each this-> variable lives in the frame (shared by the clauses of
// one program: clause-locals live across the clauses of one firing).
using ClauseLocalSlots = std::map<std::pair<const compiler::Program *, uint32_t>, unsigned>;

class DifoTranslator {
  public:
    // `probe`: the one probe the program serves (its names are constants), if known;
    // `shared`: the probes a shared program serves (their names in their entries).
    DifoTranslator(BpfEmitter &out, MapPlan &plan, const ProbeShape &shape, const compiler::Program &program,
                   ClauseLocalSlots &locals, const ProbeIdentity *probe = nullptr,
                   const SharedProgram *shared = nullptr)
        : out_(out), plan_(plan), shape_(shape), program_(program), locals_(locals), probe_(probe), shared_(shared) {}

    DifoValue emit(const dif::Difo &difo);
    // Where the faults of the next DIFOs emitted go.
    void set_fault_site(const FaultSite &site) { fault_ = site; }
    // Whether the fault site names the clause's enabled probe (else what can fault is refused).
    void allow_faults(bool allowed) { faults_allowed_ = allowed; }

  private:
    // Unset: never written on some path to here; such a register is never
    // read (refused), so the frame's registers need no zeroing.
    struct Kind {
        enum Tag { Unset, Integer, Execname, Constant, Memory, Buffer, Mixed } tag = Unset;
        bool known = false;        // Integer: value is a constant
        uint64_t value = 0;        // Buffer: the displacement into the bytes
        std::string text;          // Constant
        KernelString memory;       // Memory
        int16_t buffer = 0;        // Buffer: copyin()'s bytes at this scratch offset,
        uint32_t buffer_bytes = 0; // that many
        bool above_user = false;   // Integer: a constant above the user half plus an unknown (fds[fd]'s twin)
        friend bool operator==(const Kind &, const Kind &) = default;
    };
    struct State;

    void emit_instruction(const dif::Difo &difo, size_t pc, State &state);
    void emit_builtin(dif::VarId id, uint8_t rd, State &state);
    void emit_arg(uint32_t index, uint8_t rd, const std::string &name);
    void emit_read_task_word(bpf::Reg base, uint32_t offset, int32_t size);
    void emit_string_compare(const Kind &left, const Kind &right, uint8_t rd);
    void emit_thread_local(const dif::Variable &var, uint8_t reg, bool store);
    void emit_global(const dif::Variable &var, uint8_t reg, bool store);
    void emit_push(const Kind &value, uint8_t reg, State &state);
    void emit_array(const dif::Variable &var, uint8_t reg, bool store, State &state);
    void emit_dynamic_variable(uint32_t map, int16_t key_offset, uint8_t reg, bool store);
    void emit_thread_key(int16_t offset);
    void emit_copyinstr(uint8_t rd, size_t pc, State &state);
    void emit_copyin(uint8_t rd, size_t pc, State &state);
    static bool above_user_half(const Kind &k);
    static void refuse_provider_address(const Kind &address, const char *what);
    void emit_buffer_load(const dif::Instr &in, const Kind &address, State &state);
    void emit_clause_local(const dif::Instr &in, size_t pc, const dif::Difo &difo, State &state);
    void emit_read_fault(size_t pc);
    // `k` when it is an integer; else throws a Refusal naming what it is.
    static const Kind &require_integer(const Kind &k);
    KernelString string_of(const Kind &k) const;
    unsigned clause_local_slot(const dif::Variable &var);
    uint32_t variable_map(const std::string &name, MapSpec spec);

    BpfEmitter &out_;
    MapPlan &plan_;
    const ProbeShape &shape_;
    const compiler::Program &program_;
    ClauseLocalSlots &locals_;
    const ProbeIdentity *probe_;
    const SharedProgram *shared_;
    FaultSite fault_;
    bool faults_allowed_ = false;
    unsigned string_slots_ = 0;              // copyinstr() results of this clause, each in a scratch slot of its own
    uint32_t copyin_bytes_ = 0;              // copyin() bytes of this clause, each call's after the last's
    std::map<uint32_t, Kind> buffer_locals_; // this-> variables holding copyin()'s bytes, by id
};

// Loads DIF register `r` (r0 reads 0) into `dst`, stores `src` into it (r0: lost).
void load_dif_register(BpfEmitter &out, bpf::Reg dst, uint8_t r);
void store_dif_register(BpfEmitter &out, uint8_t r, bpf::Reg src);
// r0 = the value of `map`'s entry whose key is at r10 + key_offset, or 0.
void emit_map_lookup(BpfEmitter &out, uint32_t map, int16_t key_offset);
// Counts one drop (MapPlan::kAggregationDrops or kVariableDrops) on this CPU.
void emit_count_drop(BpfEmitter &out, uint32_t which);
// The builtins `difo` reads that a program fetches once in its prologue.
void note_builtin_uses(const dif::Difo &difo, BuiltinUses &uses);

} // namespace dtrace::fastpath
