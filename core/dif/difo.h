// difo.h: a DIF object: one compiled expression or predicate, with the
// tables its code refers to. The compiler builds these, the validator checks
// them, the VM runs them, and -S disassembles them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dtrace::dif {

// What the VM and the consumer need to know of a value's type.
struct TypeDesc {
    enum class Kind : uint8_t {
        Integer, // held in a register; `size` is 1, 2, 4 or 8
        String,  // a register holds its address; at most strsize bytes
        ByRef,   // a register holds the address of `size` bytes (struct, array)
    };
    // What a recorded value stands for, which decides how the consumer
    // prints it (DTrace's action kind of the record): the value itself, a
    // stack() or ustack() record, or an address sym(), mod(), usym() (and
    // ufunc()), umod() or uaddr() names.
    enum class Shown : uint8_t { Value, Stack, UserStack, Sym, Mod, USym, UMod, UAddr };

    Kind kind = Kind::Integer;
    uint32_t size = 8;
    bool is_signed = true;
    Shown shown = Shown::Value;

    friend bool operator==(const TypeDesc &, const TypeDesc &) = default;
};

enum class Scope : uint8_t { Global, ThreadLocal, ClauseLocal };

// A user variable the DIFO reads or writes.
struct Variable {
    uint32_t id = 0; // >= kFirstUserVariable, unique within its scope for the whole program
    Scope scope = Scope::Global;
    bool is_array = false; // associative array (keyed by the tuple stack)
    TypeDesc type;
    std::string name;
};

struct Difo {
    std::vector<uint64_t> code; // encoded instructions (isa.h)
    std::vector<uint64_t> inttab;
    std::string strtab; // NUL-terminated strings back to back; Sets takes an offset
    std::vector<Variable> vars;
    TypeDesc rtype;
};

} // namespace dtrace::dif
