// bpf_emitter.cpp: instruction encodings and jump resolution (see bpf_emitter.h).
#include "fastpath/bpf_emitter.h"

#include <stdexcept>

namespace dtrace::fastpath {

using namespace bpf;

BpfEmitter::Label BpfEmitter::new_label() {
    labels_.push_back(-1);
    return static_cast<Label>(labels_.size() - 1);
}

void BpfEmitter::bind(Label label) {
    labels_.at(label) = static_cast<int64_t>(insns_.size());
}

void BpfEmitter::mov_imm(Reg dst, int32_t imm) {
    emit({uint8_t(kAlu64 | kMov | kK), dst, 0, 0, imm});
}

void BpfEmitter::mov(Reg dst, Reg src) {
    emit({uint8_t(kAlu64 | kMov | kX), dst, src, 0, 0});
}

void BpfEmitter::alu_imm(uint8_t op, Reg dst, int32_t imm) {
    emit({uint8_t(kAlu64 | op | kK), dst, 0, 0, imm});
}

void BpfEmitter::alu(uint8_t op, Reg dst, Reg src) {
    emit({uint8_t(kAlu64 | op | kX), dst, src, 0, 0});
}

void BpfEmitter::signed_alu(uint8_t op, Reg dst, Reg src) {
    emit({uint8_t(kAlu64 | op | kX), dst, src, 1, 0}); // offset 1: the signed form
}

void BpfEmitter::byte_swap_to_be64(Reg dst) {
    emit({uint8_t(kAlu | kEnd | kToBe), dst, 0, 0, 64});
}

void BpfEmitter::load_imm64(Reg dst, uint64_t value) {
    emit({uint8_t(kLd | kDw | kImm), dst, 0, 0, int32_t(uint32_t(value))});
    emit({0, 0, 0, 0, int32_t(uint32_t(value >> 32))});
}

void BpfEmitter::load_map(Reg dst, uint32_t map_index) {
    emit({uint8_t(kLd | kDw | kImm), dst, kPseudoMapFd, 0, int32_t(map_index)});
    emit({0, 0, 0, 0, 0});
}

void BpfEmitter::load(uint8_t size, Reg dst, Reg base, int16_t offset) {
    emit({uint8_t(kLdx | kMem | size), dst, base, offset, 0});
}

void BpfEmitter::store(uint8_t size, Reg base, int16_t offset, Reg src) {
    emit({uint8_t(kStx | kMem | size), base, src, offset, 0});
}

void BpfEmitter::store_imm(uint8_t size, Reg base, int16_t offset, int32_t imm) {
    emit({uint8_t(kSt | kMem | size), base, 0, offset, imm});
}

void BpfEmitter::emit_jump(Insn insn, Label target) {
    fixups_.push_back({insns_.size(), target});
    emit(insn);
}

void BpfEmitter::jump(Label target) {
    emit_jump({uint8_t(kJmp | kJa), 0, 0, 0, 0}, target);
}

void BpfEmitter::jump_imm(uint8_t op, Reg dst, int32_t imm, Label target) {
    emit_jump({uint8_t(kJmp | op | kK), dst, 0, 0, imm}, target);
}

void BpfEmitter::jump_reg(uint8_t op, Reg dst, Reg src, Label target) {
    emit_jump({uint8_t(kJmp | op | kX), dst, src, 0, 0}, target);
}

void BpfEmitter::call(Helper helper) {
    emit({uint8_t(kJmp | kCall), 0, 0, 0, int32_t(helper)});
}

void BpfEmitter::exit() {
    emit({uint8_t(kJmp | kExit), 0, 0, 0, 0});
}

std::vector<uint64_t> BpfEmitter::finish() const {
    std::vector<Insn> out = insns_;
    for (const Fixup &f : fixups_) {
        const int64_t target = labels_.at(f.target);
        if (target < 0)
            throw std::logic_error("fast path: a jump to an unbound label");
        const int64_t offset = target - static_cast<int64_t>(f.at) - 1;
        if (offset < INT16_MIN || offset > INT16_MAX)
            throw std::length_error("fast path: a jump too far for BPF");
        out[f.at].off = static_cast<int16_t>(offset);
    }
    std::vector<uint64_t> encoded;
    encoded.reserve(out.size());
    for (const Insn &insn : out)
        encoded.push_back(insn.encode());
    return encoded;
}

} // namespace dtrace::fastpath
