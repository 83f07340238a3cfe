// vm.cpp: the interpreter loop and the operations it delegates to.
//
// The loop keeps the registers in a local array and handles the cheap
// opcodes inline; memory, variable, tuple and subroutine operations are
// member functions that return false after recording a fault.
#include "dif/vm.h"

#include "dif/builtins.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace dtrace::dif {

namespace {

static_assert((kRegisterCount & (kRegisterCount - 1)) == 0, "register fields are masked");
constexpr unsigned kRegisterMask = kRegisterCount - 1;
constexpr unsigned kShiftMask = 63; // shift counts are taken modulo 64, as amd64 does
constexpr unsigned kWordBits = 64;
constexpr size_t kAllocsAlignment = 8;
// Key bytes per tuple entry beyond its payload: the kind-and-length word and
// the padding of the last payload word.
constexpr size_t kTupleEntryOverhead = 16;
constexpr uint32_t kMinStrsize = 1;

constexpr unsigned rd(uint64_t w) {
    return (w >> 8) & kRegisterMask;
}
constexpr unsigned r1(uint64_t w) {
    return (w >> 16) & kRegisterMask;
}
constexpr unsigned r2(uint64_t w) {
    return (w >> 24) & kRegisterMask;
}
constexpr uint32_t imm(uint64_t w) {
    return static_cast<uint32_t>(w >> 32);
}
// Loads and stores take a signed 32-bit displacement.
constexpr uint64_t displacement(uint64_t w) {
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(imm(w))));
}

uint64_t sign_extend(uint64_t v, size_t bytes) {
    unsigned shift = kWordBits - static_cast<unsigned>(bytes) * 8;
    return shift ? static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift) : v;
}

// An integer of `size` bytes in host byte order, zero-extended.
uint64_t read_uint(const void *p, size_t size) {
    uint64_t v = 0;
    if constexpr (std::endian::native == std::endian::big)
        std::memcpy(reinterpret_cast<uint8_t *>(&v) + sizeof v - size, p, size);
    else
        std::memcpy(&v, p, size);
    return v;
}

void write_uint(void *p, size_t size, uint64_t v) {
    if constexpr (std::endian::native == std::endian::big)
        std::memcpy(p, reinterpret_cast<const uint8_t *>(&v) + sizeof v - size, size);
    else
        std::memcpy(p, &v, size);
}

VmConfig normalised(VmConfig c) {
    c.strsize = std::max(c.strsize, kMinStrsize);
    return c;
}

} // namespace

// What the operations of one run share. A fault's instruction index is
// filled in by the loop, which knows it.
struct Vm::RunState {
    Environment &env;
    Fault &fault;
    bool tid_known = false;
    uint64_t tid = 0;
};

Vm::Vm(const VmConfig &config)
    : config_(normalised(config)), memory_(config_.scratch_size),
      variables_(VariablesConfig{config_.strsize, config_.dynvarsize}),
      tuples_(config_.tuple_stack_depth, config_.tuple_stack_depth * (config_.strsize + kTupleEntryOverhead)) {}

bool Vm::load_bytes(uint64_t address, size_t size, std::string_view &out, Fault &fault) const {
    const uint8_t *p = memory_.readable(address, size);
    if (!p) {
        fault = Fault{FaultKind::BadAddr, address, 0};
        return false;
    }
    out = std::string_view(reinterpret_cast<const char *>(p), size);
    return true;
}

bool Vm::declare_variables(const Difo &difo) {
    for (const Variable &v : difo.vars) {
        const VarDecl *d = variables_.find(v.scope, v.id);
        if (!d ? !variables_.declare(v) : d->var.is_array != v.is_array || !(d->var.type == v.type))
            return false;
    }
    return true;
}

bool Vm::fail(RunState &rs, FaultKind kind, uint64_t address) {
    rs.fault.kind = kind;
    rs.fault.address = address;
    return false;
}

uint64_t Vm::tid(RunState &rs) {
    if (!rs.tid_known) {
        rs.tid = rs.env.builtin(VarId::Tid);
        rs.tid_known = true;
    }
    return rs.tid;
}

// As DTrace does, a misaligned load faults before its address is checked.
bool Vm::load(RunState &rs, uint64_t address, size_t size, bool is_signed, uint64_t &out) {
    if (address & (size - 1))
        return fail(rs, FaultKind::BadAlign, address);
    const uint8_t *p = memory_.readable(address, size);
    if (!p)
        return fail(rs, FaultKind::BadAddr, address);
    uint64_t v = read_uint(p, size);
    out = is_signed ? sign_extend(v, size) : v;
    return true;
}

bool Vm::load_target(RunState &rs, uint64_t address, size_t size, bool is_signed, uint64_t &out) {
    uint8_t bytes[sizeof(uint64_t)];
    int64_t n = rs.env.read_target(address, bytes, size);
    if (n == kTargetNoAccess)
        return fail(rs, FaultKind::UPriv, address);
    if (n != static_cast<int64_t>(size))
        return fail(rs, FaultKind::BadAddr, address);
    uint64_t v = read_uint(bytes, size);
    out = is_signed ? sign_extend(v, size) : v;
    return true;
}

// As DTrace does, a store checks its address before its alignment.
bool Vm::store(RunState &rs, uint64_t address, size_t size, uint64_t value) {
    uint8_t *p = memory_.writable(address, size);
    if (!p)
        return fail(rs, FaultKind::BadAddr, address);
    if (address & (size - 1))
        return fail(rs, FaultKind::BadAlign, address);
    write_uint(p, size, value);
    return true;
}

// A null pointer compares as the empty string, as in DTrace.
bool Vm::compare_strings(RunState &rs, uint64_t a, uint64_t b, uint64_t &out) {
    auto sa = a ? memory_.string_at(a, config_.strsize) : std::string_view();
    if (!sa)
        return fail(rs, FaultKind::BadAddr, a);
    auto sb = b ? memory_.string_at(b, config_.strsize) : std::string_view();
    if (!sb)
        return fail(rs, FaultKind::BadAddr, b);
    int c = sa->compare(*sb);
    out = static_cast<uint64_t>(c < 0 ? -1 : c > 0 ? 1 : 0);
    return true;
}

bool Vm::load_variable(RunState &rs, Scope scope, bool array, uint32_t id, uint64_t &out) {
    const VarDecl *d = variables_.find(scope, id);
    if (!d || d->var.is_array != array)
        return fail(rs, FaultKind::IllOp);
    uint64_t thread = scope == Scope::ThreadLocal ? tid(rs) : 0;
    VarValue v = array ? variables_.load_element(*d, thread, tuples_.key()) : variables_.load(*d, thread);
    if (v.storage)
        memory_.add_readable(v.storage, v.size);
    out = v.value;
    return true;
}

bool Vm::load_builtin_array(RunState &rs, uint32_t id, uint64_t index, uint64_t &out) {
    const BuiltinInfo *b = builtin_info(id);
    if (!b || !b->is_array)
        return fail(rs, FaultKind::IllOp);
    Fault f;
    out = rs.env.builtin_array(b->id, index, f);
    if (f.kind != FaultKind::None)
        return fail(rs, f.kind, f.address);
    return true;
}

bool Vm::store_variable(RunState &rs, Scope scope, bool array, uint32_t id, uint64_t value) {
    const VarDecl *d = variables_.find(scope, id);
    if (!d || d->var.is_array != array)
        return fail(rs, FaultKind::IllOp);
    StoreSource src{value};
    if (value != 0 && d->var.type.kind == TypeDesc::Kind::String) {
        auto s = memory_.string_at(value, config_.strsize);
        if (!s)
            return fail(rs, FaultKind::BadAddr, value);
        src.bytes = reinterpret_cast<const uint8_t *>(s->data());
        src.length = s->size();
    } else if (value != 0 && d->var.type.kind == TypeDesc::Kind::ByRef) {
        src.bytes = memory_.readable(value, d->var.type.size);
        if (!src.bytes)
            return fail(rs, FaultKind::BadAddr, value);
        src.length = d->var.type.size;
    }
    uint64_t thread = scope == Scope::ThreadLocal ? tid(rs) : 0;
    if (array)
        variables_.store_element(*d, thread, tuples_.key(), src);
    else
        variables_.store(*d, thread, src);
    return true;
}

// A null string is pushed as "" (strtok(NULL, ...) passes one).
bool Vm::push_string(RunState &rs, uint64_t address) {
    auto s = address ? memory_.string_at(address, config_.strsize) : std::string_view();
    if (!s)
        return fail(rs, FaultKind::BadAddr, address);
    return tuples_.push_string(address, *s) || fail(rs, FaultKind::TupleOverflow);
}

bool Vm::push_bytes(RunState &rs, uint64_t address, uint64_t size) {
    const uint8_t *p = memory_.readable(address, size);
    if (!p)
        return fail(rs, FaultKind::BadAddr, address);
    return tuples_.push_bytes(address, p, size) || fail(rs, FaultKind::TupleOverflow);
}

bool Vm::call(RunState &rs, uint32_t subr, uint64_t &out) {
    const SubrInfo *info = subr_info(subr);
    std::span<const uint64_t> args = tuples_.values();
    if (!info || args.size() < info->min_args || args.size() > info->max_args)
        return fail(rs, FaultKind::IllOp);
    SubrContext ctx(memory_, rs.env, subr_state_, config_.strsize, rs.fault);
    out = info->fn(ctx, args);
    tuples_.clear();
    return !ctx.failed();
}

bool Vm::allocate(RunState &rs, uint64_t size, uint64_t &out) {
    uint8_t *p = memory_.allocate(size, kAllocsAlignment);
    if (!p)
        return fail(rs, FaultKind::NoScratch);
    std::memset(p, 0, size);
    out = reinterpret_cast<uint64_t>(p);
    return true;
}

bool Vm::copy(RunState &rs, uint64_t dest, uint64_t src, uint64_t size) {
    uint8_t *d = memory_.writable(dest, size);
    if (!d)
        return fail(rs, FaultKind::BadAddr, dest);
    const uint8_t *s = memory_.readable(src, size);
    if (!s)
        return fail(rs, FaultKind::BadAddr, src);
    std::memmove(d, s, size);
    return true;
}

uint64_t Vm::interpret(const Difo &difo, Environment &env, Fault &fault) {
    RunState rs{env, fault};
    uint32_t pc = 0;
    if (!difo.vars.empty() && !declare_variables(difo)) {
        fail(rs, FaultKind::IllOp);
        return 0;
    }
    if (!difo.strtab.empty()) // Sets reads difo.strtab itself; the memory map needs it only for loads
        memory_.set_strtab(difo.strtab);
    tuples_.clear();

    const uint64_t *code = difo.code.data();
    const uint32_t length = static_cast<uint32_t>(difo.code.size());
    uint64_t r[kRegisterCount] = {};

    // Each case either continues with the next instruction, jumps, returns,
    // or leaves through `faulted`.
    for (; pc < length; pc++, r[kZeroRegister] = 0) {
        const uint64_t w = code[pc];
        switch (static_cast<Op>(static_cast<uint8_t>(w))) {
        case Op::Nop:
            break;
        case Op::Or:
            r[rd(w)] = r[r1(w)] | r[r2(w)];
            break;
        case Op::Xor:
            r[rd(w)] = r[r1(w)] ^ r[r2(w)];
            break;
        case Op::And:
            r[rd(w)] = r[r1(w)] & r[r2(w)];
            break;
        case Op::Shl:
            r[rd(w)] = r[r1(w)] << (r[r2(w)] & kShiftMask);
            break;
        case Op::Srl:
            r[rd(w)] = r[r1(w)] >> (r[r2(w)] & kShiftMask);
            break;
        case Op::Sra:
            r[rd(w)] = static_cast<uint64_t>(static_cast<int64_t>(r[r1(w)]) >> (r[r2(w)] & kShiftMask));
            break;
        case Op::Sub:
            r[rd(w)] = r[r1(w)] - r[r2(w)];
            break;
        case Op::Add:
            r[rd(w)] = r[r1(w)] + r[r2(w)];
            break;
        case Op::Mul:
            r[rd(w)] = r[r1(w)] * r[r2(w)];
            break;
        case Op::Sdiv:
        case Op::Srem: {
            const int64_t a = static_cast<int64_t>(r[r1(w)]), b = static_cast<int64_t>(r[r2(w)]);
            if (b == 0)
                goto divide_by_zero;
            const bool quotient = static_cast<Op>(static_cast<uint8_t>(w)) == Op::Sdiv;
            // INT64_MIN / -1 overflows (and traps on amd64): it wraps here.
            if (b == -1)
                r[rd(w)] = quotient ? 0 - r[r1(w)] : 0;
            else
                r[rd(w)] = static_cast<uint64_t>(quotient ? a / b : a % b);
            break;
        }
        case Op::Udiv:
            if (r[r2(w)] == 0)
                goto divide_by_zero;
            r[rd(w)] = r[r1(w)] / r[r2(w)];
            break;
        case Op::Urem:
            if (r[r2(w)] == 0)
                goto divide_by_zero;
            r[rd(w)] = r[r1(w)] % r[r2(w)];
            break;
        case Op::Not:
            r[rd(w)] = ~r[r1(w)];
            break;
        case Op::Mov:
            r[rd(w)] = r[r1(w)];
            break;
        case Op::Seq:
            r[rd(w)] = r[r1(w)] == r[r2(w)];
            break;
        case Op::Sne:
            r[rd(w)] = r[r1(w)] != r[r2(w)];
            break;
        case Op::Slt:
            r[rd(w)] = static_cast<int64_t>(r[r1(w)]) < static_cast<int64_t>(r[r2(w)]);
            break;
        case Op::Sle:
            r[rd(w)] = static_cast<int64_t>(r[r1(w)]) <= static_cast<int64_t>(r[r2(w)]);
            break;
        case Op::Sltu:
            r[rd(w)] = r[r1(w)] < r[r2(w)];
            break;
        case Op::Sleu:
            r[rd(w)] = r[r1(w)] <= r[r2(w)];
            break;
        case Op::Scmp:
            if (!compare_strings(rs, r[r1(w)], r[r2(w)], r[rd(w)]))
                goto faulted;
            break;
        case Op::Setx:
            if (imm(w) >= difo.inttab.size())
                goto illegal;
            r[rd(w)] = difo.inttab[imm(w)];
            break;
        case Op::Sets:
            if (imm(w) >= difo.strtab.size())
                goto illegal;
            r[rd(w)] = reinterpret_cast<uint64_t>(difo.strtab.data() + imm(w));
            break;
        case Op::Sext:
        case Op::Zext: {
            if (imm(w) == 0 || imm(w) > kWordBits)
                goto illegal;
            const unsigned shift = kWordBits - imm(w);
            const uint64_t high = r[r1(w)] << shift;
            r[rd(w)] = static_cast<Op>(static_cast<uint8_t>(w)) == Op::Sext
                           ? static_cast<uint64_t>(static_cast<int64_t>(high) >> shift)
                           : high >> shift;
            break;
        }
        case Op::Ba:
            if (imm(w) <= pc)
                goto illegal;
            pc = imm(w) - 1;
            break;
        case Op::Bz:
            if (imm(w) <= pc)
                goto illegal;
            if (r[r1(w)] == 0)
                pc = imm(w) - 1;
            break;
        case Op::Bnz:
            if (imm(w) <= pc)
                goto illegal;
            if (r[r1(w)] != 0)
                pc = imm(w) - 1;
            break;
        case Op::Ret:
            return r[r1(w)];
        case Op::Ldsb:
            if (!load(rs, r[r1(w)] + displacement(w), 1, true, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ldsh:
            if (!load(rs, r[r1(w)] + displacement(w), 2, true, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ldsw:
            if (!load(rs, r[r1(w)] + displacement(w), 4, true, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ldx:
            if (!load(rs, r[r1(w)] + displacement(w), 8, false, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ldub:
            if (!load(rs, r[r1(w)] + displacement(w), 1, false, r[rd(w)]))
                goto faulted;
            break;
        case Op::Lduh:
            if (!load(rs, r[r1(w)] + displacement(w), 2, false, r[rd(w)]))
                goto faulted;
            break;
        case Op::Lduw:
            if (!load(rs, r[r1(w)] + displacement(w), 4, false, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ulsb:
            if (!load_target(rs, r[r1(w)] + displacement(w), 1, true, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ulsh:
            if (!load_target(rs, r[r1(w)] + displacement(w), 2, true, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ulsw:
            if (!load_target(rs, r[r1(w)] + displacement(w), 4, true, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ulx:
            if (!load_target(rs, r[r1(w)] + displacement(w), 8, false, r[rd(w)]))
                goto faulted;
            break;
        case Op::Ulub:
            if (!load_target(rs, r[r1(w)] + displacement(w), 1, false, r[rd(w)]))
                goto faulted;
            break;
        case Op::Uluh:
            if (!load_target(rs, r[r1(w)] + displacement(w), 2, false, r[rd(w)]))
                goto faulted;
            break;
        case Op::Uluw:
            if (!load_target(rs, r[r1(w)] + displacement(w), 4, false, r[rd(w)]))
                goto faulted;
            break;
        case Op::Stb:
            if (!store(rs, r[rd(w)] + displacement(w), 1, r[r1(w)]))
                goto faulted;
            break;
        case Op::Sth:
            if (!store(rs, r[rd(w)] + displacement(w), 2, r[r1(w)]))
                goto faulted;
            break;
        case Op::Stw:
            if (!store(rs, r[rd(w)] + displacement(w), 4, r[r1(w)]))
                goto faulted;
            break;
        case Op::Stx:
            if (!store(rs, r[rd(w)] + displacement(w), 8, r[r1(w)]))
                goto faulted;
            break;
        case Op::Ldgv:
            if (imm(w) < kFirstUserVariable) {
                if (imm(w) >= static_cast<uint32_t>(VarId::Count))
                    goto illegal;
                r[rd(w)] = env.builtin(static_cast<VarId>(imm(w)));
            } else if (!load_variable(rs, Scope::Global, false, imm(w), r[rd(w)])) {
                goto faulted;
            }
            break;
        case Op::Stgv:
            if (!store_variable(rs, Scope::Global, false, imm(w), r[r1(w)]))
                goto faulted;
            break;
        case Op::Ldlv:
            if (!load_variable(rs, Scope::ClauseLocal, false, imm(w), r[rd(w)]))
                goto faulted;
            break;
        case Op::Stlv:
            if (!store_variable(rs, Scope::ClauseLocal, false, imm(w), r[r1(w)]))
                goto faulted;
            break;
        case Op::Ldtv:
            if (!load_variable(rs, Scope::ThreadLocal, false, imm(w), r[rd(w)]))
                goto faulted;
            break;
        case Op::Sttv:
            if (!store_variable(rs, Scope::ThreadLocal, false, imm(w), r[r1(w)]))
                goto faulted;
            break;
        case Op::Ldga:
            if (imm(w) < kFirstUserVariable ? !load_builtin_array(rs, imm(w), r[r1(w)], r[rd(w)])
                                            : !load_variable(rs, Scope::Global, true, imm(w), r[rd(w)]))
                goto faulted;
            break;
        case Op::Stga:
            if (!store_variable(rs, Scope::Global, true, imm(w), r[r1(w)]))
                goto faulted;
            break;
        case Op::Ldta:
            if (!load_variable(rs, Scope::ThreadLocal, true, imm(w), r[rd(w)]))
                goto faulted;
            break;
        case Op::Stta:
            if (!store_variable(rs, Scope::ThreadLocal, true, imm(w), r[r1(w)]))
                goto faulted;
            break;
        case Op::Pushtv:
            if (!tuples_.push_value(r[r1(w)]))
                goto tuple_overflow;
            break;
        case Op::Pushts:
            if (!push_string(rs, r[r1(w)]))
                goto faulted;
            break;
        case Op::Pushtr:
            if (!push_bytes(rs, r[r1(w)], r[r2(w)]))
                goto faulted;
            break;
        case Op::Popts:
            tuples_.pop();
            break;
        case Op::Flushts:
            tuples_.clear();
            break;
        case Op::Call:
            if (!call(rs, imm(w), r[rd(w)]))
                goto faulted;
            break;
        case Op::Allocs:
            if (!allocate(rs, r[r1(w)], r[rd(w)]))
                goto faulted;
            break;
        case Op::Copys:
            if (!copy(rs, r[rd(w)], r[r1(w)], r[r2(w)]))
                goto faulted;
            break;
        default:
            goto illegal;
        }
    }
    return 0; // fell off the end (only an unvalidated DIFO can)

illegal:
    fail(rs, FaultKind::IllOp);
    goto faulted;
divide_by_zero:
    fail(rs, FaultKind::DivZero);
    goto faulted;
tuple_overflow:
    fail(rs, FaultKind::TupleOverflow);
faulted:
    fault.pc = pc;
    return 0;
}

} // namespace dtrace::dif
