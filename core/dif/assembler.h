// assembler.h: DIF assembly text -> Difo, for tests and tools.
//
// The syntax is the disassembler's (disassembler.h), so a listing assembles
// back to the DIFO it came from. Destinations come first:
//
//   DIFO returns int64                  ! the return type (optional)
//   start:                              ! labels name instruction indexes
//       ldgv    %r1, arg0               ! builtins by name
//       setx    %r2, 10                 ! integers are interned in the table
//       slt     %r3, %r2, %r1
//       bz      %r3, done
//       sets    %r4, "hello"            ! strings too
//       ldx     %r5, [%r4+8]
//       stgv    x, %r1                  ! user variables by name ...
//       stgv    DT_VAR(256), %r1        ! ... or by id
//       call    %r6, strlen
//       .word   0x0000000000000001      ! a raw instruction word
//   done:
//       ret     %r3
//
//   NAME             ID   KND SCP FLAG TYPE     ! the variable table
//   x                100  scl glb rw   int64    ! (id in hex, as DTrace prints it)
//
// Listings also carry explicit tables ("IDX INTEGER", "OFF STRING"
// sections) that `DT_INTEGER[i]` and `DT_STRING[off]` operands refer to;
// immediate values and literals are interned after them. Errors carry line
// numbers; nothing is thrown.
#pragma once

#include "dif/difo.h"

#include <string>
#include <string_view>
#include <vector>

namespace dtrace::dif {

struct AsmError {
    int line = 0; // 1-based
    std::string message;
    std::string to_string() const; // "line 3: unknown mnemonic 'frob'"
};

struct AsmResult {
    Difo difo;
    std::vector<AsmError> errors;
    bool ok() const { return errors.empty(); }
};

AsmResult assemble(std::string_view text);

} // namespace dtrace::dif
