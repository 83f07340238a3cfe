// vm_config.h: the VM's limits and its view of the firing it runs in.
//
// Kept apart from vm.h so that the subroutines, which need both, do not
// depend on the interpreter.
#pragma once

#include "dif/fault.h"
#include "dif/isa.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace dtrace::dif {

// DTrace's tuple stack depth (DIF_DTR_NREGS).
constexpr uint32_t kDefaultTupleDepth = 8;

struct VmConfig {
    uint32_t strsize = 256;                // the strsize option: longest string, NUL included
    size_t scratch_size = 8 * 1024 * 1024; // scratch a clause may use
    uint32_t tuple_stack_depth = kDefaultTupleDepth;
    size_t dynvarsize = 1 << 20; // the dynvarsize option
};

// What Environment::read_target returns besides a byte count.
constexpr int64_t kTargetUnreadable = -1; // the range is not readable in the target: BadAddr
constexpr int64_t kTargetNoAccess = -2;   // this firing may not read target memory at all: UPriv

// The firing a DIFO runs in; the engine implements one per firing.
class Environment {
  public:
    // Builtin variables (arg0, pid, timestamp ...). Strings are returned as
    // addresses the environment has declared readable (Vm::add_readable).
    virtual uint64_t builtin(VarId id) = 0;
    // Builtin arrays (args[], uregs[]); set `fault` for a bad index.
    virtual uint64_t builtin_array(VarId id, uint64_t index, Fault &fault) = 0;
    // copyin: reads `length` bytes of the traced process at `address`.
    // Returns the number of bytes read, kTargetUnreadable or kTargetNoAccess.
    virtual int64_t read_target(uint64_t address, void *buffer, size_t length) = 0;
    // speculation(): a free speculation's id, or 0 (the engine's; 0 elsewhere).
    virtual uint64_t speculation() { return 0; }
    // The program counters of the firing's kernel or user stack, innermost
    // first (stack(), ustack()); none by default.
    virtual std::span<const uint64_t> stack_pcs(bool user) { return {}; }

  protected:
    ~Environment() = default;
};

} // namespace dtrace::dif
