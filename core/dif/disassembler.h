// disassembler.h: Difo -> text, as `dtrace -S` prints it.
//
// The layout follows DTrace's listing: a "DIFO ... returns <type>" line, the
// "OFF OPCODE INSTRUCTION" columns (index, encoded word, instruction with a
// '!' comment naming constants, strings and variables), then the variable
// table ("NAME ID KND SCP FLAG TYPE"). Unlike DTrace it also lists the
// integer and string tables, so that the assembler can rebuild the exact
// DIFO from a listing. Operands are destination first (see assembler.h).
#pragma once

#include "dif/difo.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace dtrace::dif {

// The whole listing; `label`, when given, follows "DIFO" in the header.
std::string disassemble(const Difo &difo, std::string_view label = {});

// One instruction as the listing's INSTRUCTION column shows it (without the
// comment), e.g. "add %r3, %r1, %r2".
std::string disassemble_instruction(const Difo &difo, uint64_t word);

} // namespace dtrace::dif
