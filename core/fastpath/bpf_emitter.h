// bpf_emitter.h: appends BPF instructions and resolves forward jumps to
// labels. The fast path's code generators write through it, never through
// raw encodings.
#pragma once

#include "fastpath/bpf_isa.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dtrace::fastpath {

class BpfEmitter {
  public:
    using Label = uint32_t;

    Label new_label();
    void bind(Label label);

    void mov_imm(bpf::Reg dst, int32_t imm);
    void mov(bpf::Reg dst, bpf::Reg src);
    void alu_imm(uint8_t op, bpf::Reg dst, int32_t imm);
    void alu(uint8_t op, bpf::Reg dst, bpf::Reg src);
    // Signed division and remainder (the kernel's BPF v4 sdiv/smod).
    void signed_alu(uint8_t op, bpf::Reg dst, bpf::Reg src);
    void byte_swap_to_be64(bpf::Reg dst);
    void load_imm64(bpf::Reg dst, uint64_t value);
    void load_map(bpf::Reg dst, uint32_t map_index);
    void load(uint8_t size, bpf::Reg dst, bpf::Reg base, int16_t offset);
    void store(uint8_t size, bpf::Reg base, int16_t offset, bpf::Reg src);
    void store_imm(uint8_t size, bpf::Reg base, int16_t offset, int32_t imm);
    void jump(Label target);
    void jump_imm(uint8_t op, bpf::Reg dst, int32_t imm, Label target);
    void jump_reg(uint8_t op, bpf::Reg dst, bpf::Reg src, Label target);
    void call(bpf::Helper helper);
    void exit();

    size_t size() const { return insns_.size(); }
    // The encoded program; every label used must be bound.
    std::vector<uint64_t> finish() const;

  private:
    void emit(bpf::Insn insn) { insns_.push_back(insn); }
    void emit_jump(bpf::Insn insn, Label target);

    struct Fixup {
        size_t at;
        Label target;
    };
    std::vector<bpf::Insn> insns_;
    std::vector<int64_t> labels_; // instruction index, -1 while unbound
    std::vector<Fixup> fixups_;
};

} // namespace dtrace::fastpath
