// memory_fetch_plan.cpp: following a clause's registers from the event's
// values to the kernel memory it loads.
#include "engine/memory_fetch_plan.h"

#include "dif/isa.h"

#include <limits>

#include <array>

namespace dtrace::engine {

namespace {

constexpr size_t kRegisters = 8; // the VM masks register fields to three bits

const dif::Variable *variable_of(const dif::Difo &difo, uint32_t id, dif::Scope scope) {
    for (const dif::Variable &v : difo.vars)
        if (v.id == id && v.scope == scope)
            return &v;
    return nullptr;
}

} // namespace

std::optional<MemoryFetchPlanner::Chain> MemoryFetchPlanner::address_of(const Value &v) {
    if (v.chain)
        return v.chain;
    if (v.constant)
        return Chain{DTRACE_FETCH_ABSOLUTE, 0, static_cast<int64_t>(*v.constant)};
    return std::nullopt;
}

std::optional<uint16_t> MemoryFetchPlanner::fetch(const Chain &at, uint32_t length, bool string) {
    const uint8_t flags = string ? DTRACE_FETCH_STRING : 0;
    for (size_t i = 0; i < fetches_.size(); ++i) {
        dtrace_memory_fetch &f = fetches_[i];
        if (f.base == at.base && f.index == at.index && f.offset == at.offset && f.flags == flags) {
            f.length = std::max(f.length, length);
            return static_cast<uint16_t>(i);
        }
    }
    if (fetches_.size() == DTRACE_USAGE_MAX_FETCHES)
        return std::nullopt;
    dtrace_memory_fetch f{};
    f.base = at.base;
    f.flags = flags;
    f.index = at.index;
    f.length = length;
    f.offset = at.offset;
    fetches_.push_back(f);
    return static_cast<uint16_t>(fetches_.size() - 1);
}

// A string or by-reference value the clause reads whole (records, copies, compares).
void MemoryFetchPlanner::read_whole(const Value &v, const dif::TypeDesc &type) {
    std::optional<Chain> at = address_of(v);
    if (!at)
        return;
    if (type.kind == dif::TypeDesc::Kind::String)
        fetch(*at, string_limit_, true);
    else if (type.kind == dif::TypeDesc::Kind::ByRef)
        fetch(*at, type.size, false);
}

MemoryFetchPlanner::Value MemoryFetchPlanner::copy_in(uint32_t subroutine) {
    Value result;
    std::optional<Chain> at = tuple_.empty() ? std::nullopt : address_of(tuple_[0]);
    if (!at)
        return result;
    // copyin()'s size, copyinstr()'s maxlen: 0 when not a constant.
    const uint64_t size = tuple_.size() > 1 ? tuple_[1].constant.value_or(0) : 0;
    if (subroutine == uint32_t(dif::Subr::Copyin) && tuple_.size() == 2 && size > 0 &&
        size <= std::numeric_limits<uint32_t>::max()) {
        fetch(*at, static_cast<uint32_t>(size), false);
        result.copied = at;
    } else if (subroutine == uint32_t(dif::Subr::Copyinstr) && !(at->base == DTRACE_FETCH_ARG && at->offset == 0)) {
        const bool shorter = tuple_.size() > 1 && tuple_[1].constant && size < string_limit_;
        fetch(*at, shorter ? static_cast<uint32_t>(size) + 1 : string_limit_, true);
    }
    return result;
}

void MemoryFetchPlanner::scan(const dif::Difo &difo) {
    using dif::Op;
    using dif::VarId;
    std::array<Value, kRegisters> reg{};
    const dif::TypeDesc string_type{dif::TypeDesc::Kind::String};
    for (uint64_t word : difo.code) {
        const dif::Instr in = dif::decode(word);
        const Value &r1 = reg[in.r1 % kRegisters];
        const Value &r2 = reg[in.r2 % kRegisters];
        Value result; // what rd holds afterwards (nothing known, unless set below)
        const auto var = static_cast<VarId>(in.imm);
        switch (in.op) {
        case Op::Setx:
            if (in.imm < difo.inttab.size())
                result.constant = difo.inttab[in.imm];
            break;
        case Op::Mov:
            result = r1;
            break;
        case Op::Sext:
        case Op::Zext:
            // A constant stays known (copyin()'s size, an int literal, is extended).
            if (r1.constant && in.imm > 0 && in.imm < 64) {
                const unsigned shift = 64 - in.imm;
                const uint64_t shifted = *r1.constant << shift;
                result.constant = in.op == Op::Sext ? uint64_t(int64_t(shifted) >> shift) : shifted >> shift;
            }
            break;
        case Op::Add:
            if (r1.copied && r2.constant)
                result.copied = Chain{r1.copied->base, r1.copied->index, r1.copied->offset + int64_t(*r2.constant)};
            else if (r2.copied && r1.constant)
                result.copied = Chain{r2.copied->base, r2.copied->index, r2.copied->offset + int64_t(*r1.constant)};
            else if (r1.chain && r2.constant)
                result.chain = Chain{r1.chain->base, r1.chain->index, r1.chain->offset + int64_t(*r2.constant)};
            else if (r2.chain && r1.constant)
                result.chain = Chain{r2.chain->base, r2.chain->index, r2.chain->offset + int64_t(*r1.constant)};
            else if (r1.constant && r2.constant)
                result.constant = *r1.constant + *r2.constant;
            break;
        case Op::Sub:
            if (r1.copied && r2.constant)
                result.copied = Chain{r1.copied->base, r1.copied->index, r1.copied->offset - int64_t(*r2.constant)};
            else if (r1.chain && r2.constant)
                result.chain = Chain{r1.chain->base, r1.chain->index, r1.chain->offset - int64_t(*r2.constant)};
            break;
        case Op::Ldgv:
            if (var >= VarId::Arg0 && var <= VarId::Arg9)
                result.chain = Chain{DTRACE_FETCH_ARG, uint16_t(uint32_t(var) - uint32_t(VarId::Arg0)), 0};
            else if (var == VarId::Curthread)
                result.chain = Chain{DTRACE_FETCH_CURTHREAD, 0, 0};
            break;
        case Op::Ldga:
            if (var == VarId::Args && r1.constant) {
                const uint64_t i = *r1.constant;
                const uint32_t native = i < native_index_.size() ? native_index_[i] : uint32_t(i);
                if (native < 0x10000)
                    result.chain = Chain{DTRACE_FETCH_ARG, uint16_t(native), 0};
            }
            break;
        case Op::Ldlv:
            if (auto it = locals_.find(in.imm); it != locals_.end())
                result = it->second;
            break;
        case Op::Stlv:
            locals_[in.imm] = r1;
            if (const dif::Variable *v = variable_of(difo, in.imm, dif::Scope::ClauseLocal))
                read_whole(r1, v->type);
            continue; // writes no register
        case Op::Stgv:
        case Op::Sttv:
        case Op::Stga:
        case Op::Stta: {
            const bool thread = in.op == Op::Sttv || in.op == Op::Stta;
            if (const dif::Variable *v =
                    variable_of(difo, in.imm, thread ? dif::Scope::ThreadLocal : dif::Scope::Global))
                read_whole(r1, v->type);
            continue;
        }
        case Op::Ret:
            read_whole(r1, difo.rtype);
            continue;
        case Op::Pushts:
            read_whole(r1, string_type);
            tuple_.push_back(r1);
            continue;
        case Op::Pushtr:
            if (r2.constant && *r2.constant <= UINT32_MAX)
                read_whole(r1, dif::TypeDesc{dif::TypeDesc::Kind::ByRef, uint32_t(*r2.constant)});
            tuple_.push_back(r1);
            continue;
        case Op::Scmp:
            read_whole(r1, string_type);
            read_whole(r2, string_type);
            break;
        case Op::Copys:
            // rd is the destination here, not a result.
            if (r2.constant && *r2.constant <= UINT32_MAX)
                read_whole(r1, dif::TypeDesc{dif::TypeDesc::Kind::ByRef, uint32_t(*r2.constant)});
            continue;
        case Op::Flushts:
            tuple_.clear();
            continue;
        case Op::Pushtv:
            tuple_.push_back(r1);
            continue;
        case Op::Call:
            if (in.imm == uint32_t(dif::Subr::Copyin) || in.imm == uint32_t(dif::Subr::Copyinstr))
                result = copy_in(in.imm);
            tuple_.clear();
            break;
        case Op::Stb:
        case Op::Sth:
        case Op::Stw:
        case Op::Stx:
        case Op::Popts:
        case Op::Ba:
        case Op::Bz:
        case Op::Bnz:
        case Op::Nop:
            continue; // these write no register
        default:
            if (const uint32_t width = dif::load_shape(in.op).width; width == 8 && r1.copied) {
                // A pointer in copyin()'s bytes: its 8 bytes are fetched on their own, the next fetch's base.
                Chain at = *r1.copied;
                at.offset += static_cast<int32_t>(in.imm);
                if (std::optional<uint16_t> k = fetch(at, 8, false))
                    result.chain = Chain{DTRACE_FETCH_POINTER, *k, 0};
            } else if (width != 0 && !r1.copied) {
                if (std::optional<Chain> at = address_of(r1)) {
                    at->offset += static_cast<int32_t>(in.imm);
                    std::optional<uint16_t> k = fetch(*at, width, false);
                    if (k && width == 8)
                        result.chain = Chain{DTRACE_FETCH_POINTER, *k, 0};
                }
            }
            break;
        }
        reg[in.rd % kRegisters] = result;
    }
}

} // namespace dtrace::engine
