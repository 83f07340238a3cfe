// codegen_emitter.h: builds one DIF object: instructions, forward labels,
// the integer and string tables, the variable table, and the registers.
//
// Registers are allocated like DTrace's dt_regset: %r0 is reserved (it reads
// as zero), the other seven are handed out lowest first, and running out is
// DTrace's D_NOREG "Insufficient registers to generate code". Branches may
// only go forward (the ISA's rule), so labels are placed after the branches
// that use them and resolved when the object is finished.
#pragma once

#include "compiler/sema_tree.h"
#include "dif/difo.h"
#include "dif/isa.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dtrace::compiler {

class DifoBuilder {
  public:
    explicit DifoBuilder(int line, uint32_t strsize) : line_(line), strsize_(strsize) {}

    uint8_t alloc();
    void free(uint8_t reg);

    // Appends an instruction; returns its index (for patch()).
    size_t emit(dif::Op op, uint8_t rd = 0, uint8_t r1 = 0, uint8_t r2 = 0, uint32_t imm = 0);
    void patch(size_t index, dif::Op op, uint8_t rd, uint8_t r1, uint8_t r2 = 0, uint32_t imm = 0);
    void setx(uint8_t rd, uint64_t value);
    void sets(uint8_t rd, const std::string &s);

    int new_label();
    void branch(dif::Op op, uint8_t r1, int label);
    void place(int label);

    void use_var(const UserVar &v);

    // Appends `ret result`, resolves labels and returns the object.
    dif::Difo finish(uint8_t result, dif::TypeDesc rtype);

  private:
    int line_;
    uint32_t strsize_;
    uint32_t in_use_ = 1u << dif::kZeroRegister;
    std::vector<dif::Instr> code_;
    std::vector<int64_t> labels_;                // target instruction index, -1 while unplaced
    std::vector<std::pair<size_t, int>> fixups_; // branch index, label
    std::vector<uint64_t> inttab_;
    std::map<uint64_t, uint32_t> int_index_;
    std::string strtab_;
    std::map<std::string, uint32_t> str_index_;
    std::vector<dif::Variable> vars_;
};

} // namespace dtrace::compiler
