// validator.h: the checks a DIFO must pass before it may run.
//
// The VM protects itself at run time; the validator rejects up front what
// no well-formed program contains, with a message naming the instruction,
// so that compiler bugs and corrupt input surface as errors instead of
// faults in the middle of tracing. Rules (after DTrace's
// dtrace_difo_validate):
//   - every opcode is known, and fields an opcode does not use are zero;
//   - registers are below kRegisterCount, and no instruction writes %r0;
//   - branches go forward to an instruction inside the code;
//   - Setx indexes the integer table; Sets names the start of a
//     NUL-terminated string in the string table;
//   - Sext/Zext widths are 8, 16 or 32; Pushtv sizes are 1, 2, 4 or 8;
//   - variable opcodes name a builtin they may use (Ldgv: a scalar builtin;
//     Ldga: a builtin array) or a variable the DIFO's table declares with
//     the opcode's scope and kind; builtins are never stored to;
//   - Call names a known subroutine;
//   - the code is not empty and ends with Ret;
//   - the variable table and the return type are well formed.
#pragma once

#include "dif/difo.h"

#include <string>
#include <vector>

namespace dtrace::dif {

// One rule broken, and where: an instruction, a variable-table entry or the
// return type.
struct ValidationError {
    enum class Where : uint8_t { Instruction, VariableTable, ReturnType };
    Where where = Where::Instruction;
    uint32_t index = 0; // instruction index or variable-table index
    std::string message;

    // "DIF instruction 3: cannot write to %r0"
    std::string to_string() const;
};

struct ValidationResult {
    std::vector<ValidationError> errors;
    bool ok() const { return errors.empty(); }
};

ValidationResult validate(const Difo &difo);

} // namespace dtrace::dif
