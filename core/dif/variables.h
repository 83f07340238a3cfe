// variables.h: storage for D variables, with D's semantics.
//
//   scope          storage                            keyed by
//   global scalar  a slot per variable                variable id
//   clause-local   a slot per variable, reset at each clause start
//   thread-local   dynamic (DynamicStore, budgeted)   id, thread
//   global array   dynamic                            id, tuple key
//   thread array   dynamic                            id, thread, tuple key
//
// Values: integers are 64-bit; strings are stored by value (at most strsize
// bytes with the NUL); by-ref objects by value (their type's size). Reading
// something never set gives 0 for integers and by-ref objects and "" for
// strings. Storing 0 to an integer, "" (or a null pointer) to a string, or a
// null pointer to a by-ref object deletes a dynamic element or clears a slot.
// Dynamic elements draw from the dynvarsize budget; a store that finds it
// exhausted is dropped and counted.
//
// Loads of strings and by-ref objects return the address of the stored bytes
// (VarValue::storage), which the VM declares readable to its accessor.
#pragma once

#include "dif/difo.h"
#include "dif/dynamic_store.h"
#include "dif/isa.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace dtrace::dif {

// DTrace's limit on variable ids (DIF_VARIABLE_MAX).
constexpr uint32_t kMaxVariableId = 0xffff;
// Largest by-reference variable (struct, array) the storage accepts.
constexpr uint32_t kMaxByRefSize = 64 * 1024;

struct VariablesConfig {
    uint32_t strsize = 256;
    size_t dynvarsize = 1 << 20;
};

// A declared variable and the bytes its value occupies in storage.
struct VarDecl {
    Variable var;
    uint32_t capacity;
};

// A variable's value as a register holds it; for strings and by-ref objects
// also the storage the register points at.
struct VarValue {
    uint64_t value = 0;
    const uint8_t *storage = nullptr;
    size_t size = 0;
};

// What a store writes: the register, and for strings and by-ref objects the
// bytes it points at, already checked readable (nullptr: a null pointer).
// For strings `length` excludes the NUL and is cut to strsize - 1 on store.
struct StoreSource {
    uint64_t value = 0;
    const uint8_t *bytes = nullptr;
    size_t length = 0;
};

class Variables {
  public:
    explicit Variables(const VariablesConfig &config = {});

    // Declares a variable (from Program::variables or a DIFO's table). False
    // when the id is out of range, the type unusable, or the id is already
    // declared in the same scope with a different kind or type.
    bool declare(const Variable &var);
    const VarDecl *find(Scope scope, uint32_t id) const {
        const ScopeTable &t = table(scope);
        size_t index = id - kFirstUserVariable;
        return id >= kFirstUserVariable && index < t.decls.size() ? t.decls[index].get() : nullptr;
    }

    // Starts a probe firing: clause-locals (this->) become unset. They live
    // across the clauses of one firing, as D defines them.
    void begin_firing() { table(Scope::ClauseLocal).generation++; }
    // Starts a clause: dynamic elements deleted during the previous clause
    // are reclaimed.
    void begin_clause() { dynamic_.reclaim(); }

    // Scalars (global, clause-local, thread-local; `tid` matters only for the last).
    VarValue load(const VarDecl &decl, uint64_t tid);
    void store(const VarDecl &decl, uint64_t tid, const StoreSource &source);
    // Associative array elements (global or thread-local), keyed by a tuple key.
    using TupleKey = std::span<const uint64_t>; // TupleStack::key()
    VarValue load_element(const VarDecl &decl, uint64_t tid, TupleKey tuple);
    void store_element(const VarDecl &decl, uint64_t tid, TupleKey tuple, const StoreSource &source);

    // Dynamic variable drops: in total, and since the previous take_drops().
    uint64_t drops() const { return dynamic_.drops(); }
    uint64_t take_drops();
    size_t dynamic_bytes_used() const { return dynamic_.bytes_used(); }
    size_t dynamic_count() const { return dynamic_.size(); }

  private:
    struct Slot {
        uint64_t generation = 0; // set while equal to the scope's current generation
        uint64_t value = 0;
        std::unique_ptr<uint8_t[]> buffer; // strings and by-ref objects
    };
    struct ScopeTable {
        std::vector<std::unique_ptr<VarDecl>> decls; // by id - kFirstUserVariable
        std::vector<Slot> slots;                     // global and clause-local scalars
        uint64_t generation = 1;
    };

    ScopeTable &table(Scope scope) { return scopes_[static_cast<size_t>(scope)]; }
    const ScopeTable &table(Scope scope) const { return scopes_[static_cast<size_t>(scope)]; }
    bool clears(const VarDecl &decl, const StoreSource &source) const;
    void write(const VarDecl &decl, uint8_t *buffer, const StoreSource &source) const;
    VarValue read(const VarDecl &decl, const uint8_t *buffer) const;
    VarValue unset(const VarDecl &decl) const;
    static DynamicKey dynamic_key(const VarDecl &decl, uint64_t tid, TupleKey tuple);

    uint32_t strsize_;
    ScopeTable scopes_[3];
    DynamicStore dynamic_;
    uint64_t drops_taken_ = 0;
};

} // namespace dtrace::dif
