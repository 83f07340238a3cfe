// codegen_emitter.cpp: the DIF object builder (see codegen_emitter.h).
#include "compiler/codegen_emitter.h"

#include "compiler/sema.h"

#include <algorithm>

namespace dtrace::compiler {

uint8_t DifoBuilder::alloc() {
    for (uint8_t r = 0; r < dif::kRegisterCount; r++) {
        if (!(in_use_ & (1u << r))) {
            in_use_ |= 1u << r;
            return r;
        }
    }
    raise_error(Tag::D_NOREG, line_, "Insufficient registers to generate code");
}

void DifoBuilder::free(uint8_t reg) {
    if (reg != dif::kZeroRegister)
        in_use_ &= ~(1u << reg);
}

size_t DifoBuilder::emit(dif::Op op, uint8_t rd, uint8_t r1, uint8_t r2, uint32_t imm) {
    code_.push_back(dif::Instr{op, rd, r1, r2, imm});
    return code_.size() - 1;
}

void DifoBuilder::patch(size_t index, dif::Op op, uint8_t rd, uint8_t r1, uint8_t r2, uint32_t imm) {
    code_[index] = dif::Instr{op, rd, r1, r2, imm};
}

void DifoBuilder::setx(uint8_t rd, uint64_t value) {
    auto [it, added] = int_index_.emplace(value, uint32_t(inttab_.size()));
    if (added)
        inttab_.push_back(value);
    emit(dif::Op::Setx, rd, 0, 0, it->second);
}

void DifoBuilder::sets(uint8_t rd, const std::string &s) {
    auto [it, added] = str_index_.emplace(s, uint32_t(strtab_.size()));
    if (added) {
        strtab_ += s;
        strtab_ += '\0';
    }
    emit(dif::Op::Sets, rd, 0, 0, it->second);
}

int DifoBuilder::new_label() {
    labels_.push_back(-1);
    return int(labels_.size() - 1);
}

void DifoBuilder::branch(dif::Op op, uint8_t r1, int label) {
    fixups_.emplace_back(emit(op, 0, r1), label);
}

void DifoBuilder::place(int label) {
    labels_[size_t(label)] = int64_t(code_.size());
}

void DifoBuilder::use_var(const UserVar &v) {
    auto same = [&](const dif::Variable &x) { return x.scope == v.scope && x.id == v.id; };
    if (std::any_of(vars_.begin(), vars_.end(), same))
        return;
    vars_.push_back(dif::Variable{v.id, v.scope, v.is_array, type_desc(v.type, strsize_), v.name});
}

dif::Difo DifoBuilder::finish(uint8_t result, dif::TypeDesc rtype) {
    emit(dif::Op::Ret, 0, result);
    for (auto [index, label] : fixups_)
        code_[index].imm = uint32_t(labels_[size_t(label)]);
    dif::Difo d;
    for (const auto &i : code_)
        d.code.push_back(dif::encode(i));
    d.inttab = std::move(inttab_);
    d.strtab = std::move(strtab_);
    d.vars = std::move(vars_);
    d.rtype = rtype;
    return d;
}

} // namespace dtrace::compiler
