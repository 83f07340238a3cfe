// aggregation_code.cpp: aggregation maps and their BPF updates (see aggregation_code.h).
#include "fastpath/aggregation_code.h"

#include "aggdata/agg_data.h"
#include "fastpath/difo_translator.h"
#include "fastpath/kernel_strings.h"
#include "fastpath/user_stacks.h"

namespace dtrace::fastpath {

using namespace bpf;
using compiler::AggFunc;

namespace {

constexpr int32_t kEexist = 17;

// r1 = the bucket of the value in r8 (quantize()), from 0 to 126.
void emit_quantize_bucket(BpfEmitter &out) {
    BpfEmitter::Label negative = out.new_label(), width = out.new_label(), done = out.new_label();
    out.mov_imm(R1, aggdata::kQuantizeZeroBucket);
    out.jump_imm(kJeq, R8, 0, done);
    out.mov(R2, R8);
    out.jump_imm(kJslt, R8, 0, negative);
    out.jump(width);
    out.bind(negative);
    out.alu_imm(kNeg, R2, 0); // the magnitude, as an unsigned number
    out.bind(width);
    // r3 = bit_width(r2) - 1, by halving the search range.
    out.mov_imm(R3, 0);
    for (int32_t shift : {32, 16, 8, 4, 2, 1}) {
        BpfEmitter::Label next = out.new_label();
        out.mov(R4, R2);
        out.alu_imm(kRsh, R4, shift);
        out.jump_imm(kJeq, R4, 0, next);
        out.mov(R2, R4);
        out.alu_imm(kAdd, R3, shift);
        out.bind(next);
    }
    out.alu_imm(kAdd, R3, 1); // bit_width
    BpfEmitter::Label below = out.new_label();
    out.jump_imm(kJslt, R8, 0, below);
    out.alu(kAdd, R1, R3); // 63 + bit_width
    out.jump(done);
    out.bind(below);
    out.alu(kSub, R1, R3); // 63 - bit_width, at least 0
    out.jump_imm(kJsge, R1, 0, done);
    out.mov_imm(R1, 0);
    out.bind(done);
}

// r1 = the lquantize() bucket of the value in r8 (as a 32-bit integer, as aggdata does).
void emit_lquantize_bucket(BpfEmitter &out, const aggdata::LquantizeParams &p) {
    BpfEmitter::Label done = out.new_label();
    out.mov(R2, R8);
    out.alu_imm(kLsh, R2, 32);
    out.alu_imm(kArsh, R2, 32);
    out.mov_imm(R1, 0);
    out.jump_imm(kJslt, R2, p.base, done);
    out.alu_imm(kSub, R2, p.base);
    out.alu_imm(kDiv, R2, p.step == 0 ? 1 : p.step);
    out.mov_imm(R1, p.levels + 1);
    out.jump_imm(kJge, R2, p.levels, done);
    out.mov(R1, R2);
    out.alu_imm(kAdd, R1, 1);
    out.bind(done);
}

// r1 = the llquantize() bucket of the value in r8: the last bucket whose
// start it reaches (aggdata's starts, checked against aggdata's own bucket
// function when planned), 0 below the first.
void emit_llquantize_bucket(BpfEmitter &out, const std::vector<int64_t> &starts) {
    BpfEmitter::Label done = out.new_label();
    for (size_t i = starts.size() - 1; i >= 1; i--) {
        out.mov_imm(R1, static_cast<int32_t>(i));
        out.load_imm64(R2, static_cast<uint64_t>(starts[i]));
        out.jump_reg(kJsge, R8, R2, done);
    }
    out.mov_imm(R1, 0);
    out.bind(done);
}

// The starts of `params`' llquantize() buckets, when each agrees with
// aggdata's bucket function (else the kernel could not count as the engine does).
std::vector<int64_t> llquantize_starts(const std::vector<int64_t> &params) {
    const aggdata::LlquantizeParams p = aggdata::llquantize_params(params);
    const std::vector<int64_t> starts = aggdata::llquantize_bucket_starts(p);
    if (starts.size() < 2 || starts.size() != static_cast<size_t>(aggdata::llquantize_buckets(p)))
        throw Refusal("llquantize() with these parameters is not available in the kernel path");
    for (size_t i = 1; i < starts.size(); i++)
        if (aggdata::llquantize_bucket(p, starts[i]) != static_cast<int>(i) ||
            aggdata::llquantize_bucket(p, starts[i] - 1) != static_cast<int>(i) - 1)
            throw Refusal("llquantize() with these parameters is not available in the kernel path");
    return starts;
}

// [r7 + 16, r7 + 24] (a 128-bit sum, high word first) += r8 * r8, the
// magnitude's square from its 32-bit halves (BPF has no 128-bit product).
void emit_add_square(BpfEmitter &out) {
    BpfEmitter::Label positive = out.new_label();
    out.mov(R2, R8);
    out.jump_imm(kJsge, R2, 0, positive);
    out.alu_imm(kNeg, R2, 0);
    out.bind(positive);
    out.mov(R3, R2);
    out.alu_imm(kRsh, R3, 32); // a: the high half
    out.alu_imm(kLsh, R2, 32);
    out.alu_imm(kRsh, R2, 32); // b: the low half
    // (a 2^32 + b)^2 = a^2 2^64 + 2ab 2^32 + b^2: r4 = high, r5 = low.
    out.mov(R4, R3);
    out.alu(kMul, R4, R3);
    out.mov(R5, R2);
    out.alu(kMul, R5, R2);
    out.alu(kMul, R3, R2); // ab < 2^64
    out.mov(R1, R3);
    out.alu_imm(kRsh, R1, 31);
    out.alu(kAdd, R4, R1); // 2ab >> 32
    out.alu_imm(kLsh, R3, 33);
    auto add_with_carry = [&out](Reg low, Reg high, Reg addend) {
        BpfEmitter::Label no_carry = out.new_label();
        out.alu(kAdd, low, addend);
        out.jump_reg(kJge, low, addend, no_carry);
        out.alu_imm(kAdd, high, 1);
        out.bind(no_carry);
    };
    add_with_carry(R5, R4, R3); // + (2ab << 32) mod 2^64
    out.load(kDw, R1, R7, 16);
    out.alu(kAdd, R4, R1);
    out.load(kDw, R1, R7, 24);
    add_with_carry(R5, R4, R1);
    out.store(kDw, R7, 16, R4);
    out.store(kDw, R7, 24, R5);
}

// *(r7 + offset) += reg.
void add_to_word(BpfEmitter &out, int16_t offset, Reg reg) {
    out.load(kDw, R1, R7, offset);
    out.alu(kAdd, R1, reg);
    out.store(kDw, R7, offset, R1);
}

void emit_function(BpfEmitter &out, const KernelAggregation &agg, BpfEmitter::Label skip) {
    const compiler::AggregationDecl &decl = *agg.decl;
    out.load(kDw, R8, R10, frame::kAggValue);
    out.mov_imm(R9, 1);
    switch (decl.func) {
    case AggFunc::Count:
        return add_to_word(out, 0, R9);
    case AggFunc::Sum:
        return add_to_word(out, 0, R8);
    case AggFunc::Avg:
        add_to_word(out, 0, R9);
        return add_to_word(out, 8, R8);
    case AggFunc::Min:
    case AggFunc::Max: {
        BpfEmitter::Label replace = out.new_label(), counted = out.new_label();
        out.load(kDw, R1, R7, 0);
        out.jump_imm(kJeq, R1, 0, replace);
        out.load(kDw, R2, R7, 8);
        out.jump_reg(decl.func == AggFunc::Min ? kJsge : kJsle, R8, R2, counted);
        out.bind(replace);
        out.store(kDw, R7, 8, R8);
        out.bind(counted);
        return add_to_word(out, 0, R9);
    }
    case AggFunc::Stddev:
        add_to_word(out, 0, R9);
        add_to_word(out, 8, R8);
        return emit_add_square(out);
    case AggFunc::Quantize:
    case AggFunc::Lquantize:
    case AggFunc::Llquantize:
        if (decl.func == AggFunc::Quantize)
            emit_quantize_bucket(out);
        else if (decl.func == AggFunc::Lquantize)
            emit_lquantize_bucket(out, aggdata::lquantize_params(decl.params));
        else
            emit_llquantize_bucket(out, llquantize_starts(decl.params));
        // The verifier wants the index bounded where it is used.
        out.jump_imm(kJgt, R1, static_cast<int32_t>(agg.value_words - 1), skip);
        out.alu_imm(kLsh, R1, 3);
        out.alu(kAdd, R7, R1);
        out.load(kDw, R9, R10, frame::kAggIncrement);
        return add_to_word(out, 0, R9);
    default:
        throw Refusal("this aggregating function is not available in the kernel path");
    }
}

} // namespace

bool counts_firings(AggFunc func) {
    return func == AggFunc::Count || func == AggFunc::Avg || func == AggFunc::Min || func == AggFunc::Max ||
           func == AggFunc::Stddev;
}

uint32_t kernel_value_words(AggFunc func, const std::vector<int64_t> &params) {
    switch (func) {
    case AggFunc::Count:
    case AggFunc::Sum:
        return 1;
    case AggFunc::Avg:
    case AggFunc::Min:
    case AggFunc::Max:
        return 2;
    case AggFunc::Stddev: // aggdata's [n, sum, squares high, squares low]
        return 4;
    case AggFunc::Llquantize:
        llquantize_starts(params); // refuses what the kernel would count otherwise
        [[fallthrough]];
    case AggFunc::Quantize:
    case AggFunc::Lquantize:
        return static_cast<uint32_t>(aggdata::aggregate_init(func, params).size());
    }
    throw Refusal("an unknown aggregating function");
}

uint32_t key_part_bytes(const dif::TypeDesc &type, uint32_t string_bytes) {
    if (is_kernel_stack(type))
        return kernel_stack_frames(type) * 8;
    if (is_user_stack(type))
        return type.size; // the pid, then the frames: the engine's bytes
    return type.kind == dif::TypeDesc::Kind::String ? string_bytes : 8;
}

KernelAggregation &plan_aggregation(MapPlan &plan, const compiler::Program &program, uint32_t id) {
    const compiler::AggregationDecl *decl = nullptr;
    for (const compiler::AggregationDecl &d : program.aggregations)
        if (d.id == id)
            decl = &d;
    if (!decl)
        throw Refusal("an aggregation the program does not declare");
    if (auto it = plan.aggregations.find(decl->name); it != plan.aggregations.end())
        return it->second;
    KernelAggregation agg;
    agg.decl = decl;
    agg.program = &program;
    agg.value_words = kernel_value_words(decl->func, decl->params);
    for (const dif::TypeDesc &type : decl->key_types) {
        if (!is_kernel_stack(type) && !is_user_stack(type) &&
            (type.kind == dif::TypeDesc::Kind::ByRef || type.shown != dif::TypeDesc::Shown::Value))
            throw Refusal("aggregation keys other than integers, strings, stack() and ustack()");
        agg.key_types.push_back(type);
        agg.key_bytes += key_part_bytes(type, plan.string_bytes);
    }
    agg.string_bytes = plan.string_bytes;
    agg.key_in_scratch = agg.key_bytes > frame::kMaxKeyBytes;
    if (agg.key_bytes > kScratchKeyBytes)
        throw Refusal("an aggregation key of more than " + std::to_string(kScratchKeyBytes) + " bytes");
    const std::string map_name = "dt_agg_" + (decl->name.empty() ? std::string("_") : decl->name);
    agg.single_entry = agg.key_types.empty() && counts_firings(decl->func);
    if (agg.single_entry) {
        agg.map = plan.add("@" + decl->name, MapSpec{DTRACE_BPF_MAP_PERCPU_ARRAY, 4, agg.value_words * 8, 1, map_name});
    } else {
        const uint32_t key_bytes = agg.key_bytes == 0 ? 8 : agg.key_bytes; // the empty tuple: one zero word
        agg.map = plan.add("@" + decl->name, MapSpec{DTRACE_BPF_MAP_PERCPU_HASH, key_bytes, agg.value_words * 8,
                                                     static_cast<uint32_t>(plan.aggregation_entries), map_name});
    }
    MapSpec &zero = plan.maps[MapPlan::kZeroValue];
    zero.value_size = std::max(zero.value_size, agg.value_words * 8);
    return plan.aggregations.emplace(decl->name, std::move(agg)).first->second;
}

// r2 = the key's address.
void emit_key_address(BpfEmitter &out, const KernelAggregation &agg) {
    if (agg.key_in_scratch) {
        emit_load_base(out, R2, StringBase::Scratch);
        return;
    }
    out.mov(R2, R10);
    out.alu_imm(kAdd, R2, frame::kKey);
}

void emit_key_lookup(BpfEmitter &out, const KernelAggregation &agg) {
    out.load_map(R1, agg.map);
    emit_key_address(out, agg);
    out.call(Helper::MapLookupElem);
}

void emit_stack_key_part(BpfEmitter &out, const KernelAggregation &agg, const dif::TypeDesc &stack, int16_t offset) {
    emit_key_address(out, agg);
    emit_kernel_stack(out, R2, offset, stack);
}

void emit_aggregate_update(BpfEmitter &out, const KernelAggregation &agg) {
    BpfEmitter::Label found = out.new_label(), lookup_again = out.new_label(), skip = out.new_label();
    if (agg.single_entry) { // the array's one entry (index 0: the empty tuple's zero word) is always there
        emit_key_lookup(out, agg);
        out.jump_imm(kJeq, R0, 0, skip);
        out.mov(R7, R0);
        emit_function(out, agg, skip);
        out.bind(skip);
        return;
    }
    emit_key_lookup(out, agg);
    out.jump_imm(kJne, R0, 0, found);
    // A new key: insert the zeroed value (from the one-entry zero map: a
    // quantize() value is larger than the stack allows), then look it up.
    out.store_imm(kW, R10, frame::kIndex, 0);
    emit_map_lookup(out, MapPlan::kZeroValue, frame::kIndex);
    out.jump_imm(kJeq, R0, 0, skip);
    out.mov(R3, R0);
    out.load_map(R1, agg.map);
    emit_key_address(out, agg);
    out.mov_imm(R4, kUpdateNoExist);
    out.call(Helper::MapUpdateElem);
    out.jump_imm(kJeq, R0, 0, lookup_again);
    out.jump_imm(kJeq, R0, -kEexist, lookup_again);
    emit_count_drop(out, MapPlan::kAggregationDrops);
    out.jump(skip);
    out.bind(lookup_again);
    emit_key_lookup(out, agg);
    out.jump_imm(kJeq, R0, 0, skip);
    out.bind(found);
    out.mov(R7, R0);
    emit_function(out, agg, skip);
    out.bind(skip);
}

} // namespace dtrace::fastpath
