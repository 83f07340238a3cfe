// kernel_strings.cpp: strings in kernel memory (see kernel_strings.h).
#include "fastpath/kernel_strings.h"

#include "dif/subroutines.h"

#include <algorithm>
#include <cstring>

namespace dtrace::fastpath {

using namespace bpf;

namespace {

uint32_t round_to_words(size_t bytes) {
    return static_cast<uint32_t>(std::min<size_t>((bytes + 7) / 8 * 8, kMaxStringBytes));
}

void raise_to(MapPlan &plan, size_t bytes) {
    plan.string_bytes = std::max(plan.string_bytes, round_to_words(bytes));
}

// `text` zero-padded to `words` little-endian words.
std::vector<uint64_t> constant_words(const std::string &text, size_t words) {
    std::vector<uint64_t> out(words, 0);
    std::memcpy(out.data(), text.data(), std::min(text.size(), words * 8));
    return out;
}

// The words that hold a string up to and including its NUL (comparing
// more would compare the zeros both sides are padded with).
size_t words_to_nul(const KernelString &s, uint32_t string_bytes) {
    switch (s.kind) {
    case KernelString::Kind::Execname:
        return kStringKeyBytes / 8;
    case KernelString::Kind::Constant:
        return s.text.size() / 8 + 1;
    case KernelString::Kind::Memory:
        break;
    }
    return string_bytes / 8;
}

} // namespace

void size_strings(MapPlan &plan, const dif::Difo &difo) {
    for (uint64_t word : difo.code) {
        const dif::Instr in = dif::decode(word);
        if (in.op == dif::Op::Sets && in.imm < difo.strtab.size())
            raise_to(plan, std::strlen(difo.strtab.c_str() + in.imm) + 1);
        if (in.op == dif::Op::Call && in.imm == uint32_t(dif::Subr::Copyinstr))
            raise_to(plan, plan.strsize);
    }
}

void size_strings(MapPlan &plan, const std::string &name) {
    raise_to(plan, name.size() + 1);
}

uint32_t scratch_map(MapPlan &plan, uint32_t bytes) {
    auto it = plan.by_name.find("scratch");
    const uint32_t map = it != plan.by_name.end()
                             ? it->second
                             : plan.add("scratch", MapSpec{DTRACE_BPF_MAP_PERCPU_ARRAY, 4, 8, 1, "dt_scratch"});
    plan.maps[map].value_size = std::max(plan.maps[map].value_size, bytes);
    return map;
}

int16_t string_slot_offset(const MapPlan &plan, unsigned slot) {
    return static_cast<int16_t>(kScratchKeyBytes + slot * plan.string_bytes);
}

int16_t copyin_offset(const MapPlan &plan, uint32_t used) {
    return static_cast<int16_t>(string_slot_offset(plan, kMaxStringSlots) + used);
}

void emit_scratch_prologue(BpfEmitter &out, MapPlan &plan) {
    const uint32_t map = scratch_map(plan, kScratchKeyBytes);
    BpfEmitter::Label found = out.new_label();
    out.store_imm(kW, R10, frame::kIndex, 0);
    out.load_map(R1, map);
    out.mov(R2, R10);
    out.alu_imm(kAdd, R2, frame::kIndex);
    out.call(Helper::MapLookupElem);
    out.jump_imm(kJne, R0, 0, found);
    out.mov_imm(R0, 0);
    out.exit();
    out.bind(found);
    out.store(kDw, R10, frame::kScratch, R0);
}

void emit_load_base(BpfEmitter &out, Reg dst, StringBase base) {
    out.load(kDw, dst, R10, base == StringBase::Scratch ? frame::kScratch : frame::kProbeInfo);
}

void emit_store_string(BpfEmitter &out, const KernelString &value, Reg dst, int16_t dst_offset, uint32_t width,
                       uint32_t string_bytes) {
    const size_t words = width / 8;
    auto at = [&](size_t word) { return static_cast<int16_t>(dst_offset + 8 * word); };
    switch (value.kind) {
    case KernelString::Kind::Execname:
        for (size_t w = 0; w < words; w++) {
            if (w < kStringKeyBytes / 8) {
                out.load(kDw, R1, R10, static_cast<int16_t>(frame::kComm + 8 * w));
                out.store(kDw, dst, at(w), R1);
            } else {
                out.store_imm(kDw, dst, at(w), 0);
            }
        }
        return;
    case KernelString::Kind::Constant: {
        if (value.text.size() >= width)
            throw Refusal("a string constant of " + std::to_string(value.text.size()) + " bytes where the kernel has " +
                          std::to_string(width - 1));
        const std::vector<uint64_t> text = constant_words(value.text, words);
        for (size_t w = 0; w < words; w++) {
            if (text[w] == 0) {
                out.store_imm(kDw, dst, at(w), 0);
            } else {
                out.load_imm64(R1, text[w]);
                out.store(kDw, dst, at(w), R1);
            }
        }
        return;
    }
    case KernelString::Kind::Memory:
        if (width < string_bytes)
            throw Refusal("a string of up to " + std::to_string(string_bytes - 1) + " bytes where the kernel has " +
                          std::to_string(width - 1) + " (associative array keys)");
        emit_load_base(out, R5, value.base);
        for (size_t w = 0; w < words; w++) {
            out.load(kDw, R1, R5, static_cast<int16_t>(value.offset + 8 * w));
            out.store(kDw, dst, at(w), R1);
        }
        return;
    }
}

void emit_compare_strings(BpfEmitter &out, const KernelString &left, const KernelString &right, uint32_t string_bytes) {
    const size_t words = std::min(words_to_nul(left, string_bytes), words_to_nul(right, string_bytes));
    const std::vector<uint64_t> left_text = constant_words(left.text, words);
    const std::vector<uint64_t> right_text = constant_words(right.text, words);
    if (left.kind == KernelString::Kind::Memory)
        emit_load_base(out, R4, left.base);
    if (right.kind == KernelString::Kind::Memory)
        emit_load_base(out, R5, right.base);
    auto load_word = [&](const KernelString &s, const std::vector<uint64_t> &text, Reg base, Reg dst, size_t word) {
        switch (s.kind) {
        case KernelString::Kind::Execname:
            out.load(kDw, dst, R10, static_cast<int16_t>(frame::kComm + 8 * word));
            break;
        case KernelString::Kind::Constant:
            out.load_imm64(dst, text[word]);
            break;
        case KernelString::Kind::Memory:
            out.load(kDw, dst, base, static_cast<int16_t>(s.offset + 8 * word));
            break;
        }
        out.byte_swap_to_be64(dst);
    };
    BpfEmitter::Label differ = out.new_label(), done = out.new_label();
    for (size_t word = 0; word < words; word++) {
        load_word(left, left_text, R4, R1, word);
        load_word(right, right_text, R5, R2, word);
        out.jump_reg(kJne, R1, R2, differ);
    }
    out.mov_imm(R3, 0);
    out.jump(done);
    out.bind(differ);
    out.mov_imm(R3, 1);
    out.jump_reg(kJgt, R1, R2, done);
    out.mov_imm(R3, -1);
    out.bind(done);
}

} // namespace dtrace::fastpath
