// fault.h: why a DIF run stopped early, and where.
//
// A fault aborts the clause that raised it; the engine then fires
// dtrace:::ERROR with the fault's kind, address and DIF offset. The
// enumerators have the numeric values of DTrace's DTRACEFLT_* codes so that
// ERROR's arg4 means the same thing it does in DTrace.
#pragma once

#include <cstdint>

namespace dtrace::dif {

enum class FaultKind : uint8_t {
    None = 0,
    BadAddr,       // a load or store outside the memory the VM may touch
    BadAlign,      // a misaligned load or store
    IllOp,         // an operation the VM cannot perform (bad operand, unsupported subroutine)
    DivZero,       // integer division or remainder by zero
    NoScratch,     // scratch space exhausted
    KPriv,         // kernel memory access without privilege (unused: no kernel memory here)
    UPriv,         // the firing has no access to the traced process's memory
    TupleOverflow, // too many or too large tuple stack entries
    BadStack,      // a stack walk failed (raised by the engine's stack actions)
};

// DTrace's text for each fault, as printed in "dtrace: error on enabled probe ...".
const char *fault_message(FaultKind kind);

struct Fault {
    FaultKind kind = FaultKind::None;
    uint64_t address = 0; // the offending address (BadAddr, BadAlign, UPriv), else 0
    uint32_t pc = 0;      // index of the faulting instruction
};

} // namespace dtrace::dif
