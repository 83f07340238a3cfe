// codegen_expr.cpp: constants, operators, conversions and subroutine calls
// (see codegen_expr.h for the register conventions).
#include "compiler/codegen_expr.h"

#include "compiler/sema.h"
#include "compiler/type_layout.h"

namespace dtrace::compiler {

namespace {

using DOp = dif::Op;
constexpr uint8_t kR0 = dif::kZeroRegister;
constexpr uint64_t kRegisterBytes = 8; // DIF registers are 64-bit
constexpr uint64_t kRegisterBits = 64;
// DTrace's tuple register count (DIF_DTR_NREGS): the most keys or arguments
// one tuple may hold.
constexpr size_t kTupleRegisters = 8;

// The size of what a pointer (or array) type points at, for pointer arithmetic.
uint64_t referent_size(const Type *ptr) {
    const Type *ref = resolve(resolve(ptr)->ref);
    if (ref->kind == TypeKind::Array)
        return resolve(ref->ref)->size * ref->count;
    return ref->kind == TypeKind::Enum ? 4 : ref->size;
}

DOp load_op(uint64_t size, bool s) {
    switch (size) {
    case 1:
        return s ? DOp::Ldsb : DOp::Ldub;
    case 2:
        return s ? DOp::Ldsh : DOp::Lduh;
    case 4:
        return s ? DOp::Ldsw : DOp::Lduw;
    default:
        return DOp::Ldx;
    }
}

DOp store_op(uint64_t size) {
    switch (size) {
    case 1:
        return DOp::Stb;
    case 2:
        return DOp::Sth;
    case 4:
        return DOp::Stw;
    default:
        return DOp::Stx;
    }
}

} // namespace

void ExprGen::extend(uint8_t reg, const Type *t) {
    uint64_t size = scalar_size(t);
    if (!is_integer(t) || size == 0 || size >= kRegisterBytes)
        return;
    b_.emit(is_signed(t) ? DOp::Sext : DOp::Zext, reg, reg, 0, uint32_t(size * kBitsPerByte));
}

void ExprGen::convert(uint8_t reg, const Type *from, const Type *to) {
    RegisterCast c = register_cast(from, to);
    if (c.sign_from_bits)
        b_.emit(DOp::Sext, reg, reg, 0, c.sign_from_bits);
    if (c.zero_from_bits)
        b_.emit(DOp::Zext, reg, reg, 0, c.zero_from_bits);
}

uint8_t ExprGen::gen(const Node &n) {
    switch (n.kind) {
    case NodeKind::Const: {
        uint8_t r = b_.alloc();
        b_.setx(r, n.value);
        return r;
    }
    case NodeKind::String: {
        uint8_t r = b_.alloc();
        b_.sets(r, n.str);
        return r;
    }
    case NodeKind::Builtin: {
        uint8_t r = b_.alloc();
        b_.emit(DOp::Ldgv, r, 0, 0, n.id);
        return r;
    }
    case NodeKind::BuiltinArray: {
        uint8_t r = gen(*n.kids[0]);
        b_.emit(DOp::Ldga, r, r, 0, n.id);
        // DTrace drops the bits of an args[] value above its type's size:
        // an argument narrower than 64 bits may come with junk above it.
        if (n.id == uint32_t(dif::VarId::Args))
            extend(r, n.type);
        return r;
    }
    case NodeKind::Var:
    case NodeKind::ArrayElem: {
        auto copy = cow_.find(&n);
        if (copy == cow_.end())
            return load(n);
        uint8_t r = b_.alloc();
        b_.emit(DOp::Mov, r, copy->second);
        return r;
    }
    case NodeKind::Unary:
        return gen_unary(n);
    case NodeKind::Deref:
        return gen_deref(n);
    case NodeKind::Member: {
        uint8_t r = member_address(n);
        if (n.bit_width != 0)
            load_bitfield(r, n);
        else if (in_register(n.type))
            b_.emit(load_op(scalar_size(n.type), is_signed(n.type)), r, r, 0, 0);
        return r;
    }
    case NodeKind::Binary:
        return gen_binary(n);
    case NodeKind::Compare:
        return gen_compare(n);
    case NodeKind::Logical:
        return gen_logical(n);
    case NodeKind::Ternary:
        return gen_ternary(n);
    case NodeKind::Convert: {
        uint8_t r = gen(*n.kids[0]);
        convert(r, n.kids[0]->type, n.type);
        return r;
    }
    case NodeKind::Assign:
        return gen_assign(n);
    case NodeKind::CompoundAssign:
        return gen_compound(n);
    case NodeKind::IncDec:
        return gen_incdec(n);
    case NodeKind::Call:
        return gen_call(n);
    case NodeKind::Comma: {
        b_.free(gen(*n.kids[0]));
        return gen(*n.kids[1]);
    }
    case NodeKind::XlateInput: {
        uint8_t r = b_.alloc();
        b_.emit(DOp::Mov, r, xlate_inputs_.at(n.id));
        return r;
    }
    case NodeKind::Translate:
        return gen_translate(n);
    case NodeKind::XlateCopy:
        return gen_xlate_copy(n);
    case NodeKind::Xlated:
        raise_unsupported(n.line, "a translated struct used as a whole value");
    case NodeKind::AggRef:
        raise_unsupported(n.line, "an aggregation used as a value");
    case NodeKind::ActCall:
        raise_error(Tag::D_CG_EXPR, n.line,
                    std::string(ident_kind_name(n.act_kind)) + " " + n.str +
                        "( ) may not be called from a D expression (D program context required)");
    }
    raise_error(Tag::D_UNKNOWN, n.line, "internal error -- unknown node kind");
}

// A bit-field is loaded as the bytes that hold it (type_layout.h); then, as
// DTrace does on a little-endian machine (the field's first bit lowest), a
// signed field is shifted up to the top of the register and arithmetically
// back down, an unsigned one shifted down and masked.
void ExprGen::load_bitfield(uint8_t reg, const Node &n) {
    bool s = is_signed(n.type);
    b_.emit(load_op(bitfield_bytes(n.bit_offset + n.bit_width), s), reg, reg, 0, 0);
    uint8_t t = b_.alloc();
    if (s) {
        b_.setx(t, kRegisterBits - n.bit_offset - n.bit_width);
        b_.emit(DOp::Shl, reg, reg, t);
        b_.setx(t, kRegisterBits - n.bit_width);
        b_.emit(DOp::Sra, reg, reg, t);
    } else {
        if (n.bit_offset != 0) {
            b_.setx(t, n.bit_offset);
            b_.emit(DOp::Srl, reg, reg, t);
        }
        b_.setx(t, (uint64_t(1) << n.bit_width) - 1);
        b_.emit(DOp::And, reg, reg, t);
    }
    b_.free(t);
}

// A store through memory (*p = v, p->m = v, p[i] = v): the lvalue's
// address, a load from it in place, and a store of `value` to it. A bit-field
// store rewrites the bytes holding it, keeping the other bits.
uint8_t ExprGen::lvalue_address(const Node &lv) {
    if (!in_register(lv.type) && !is_string(lv.type))
        raise_unsupported(lv.line, "assigning a whole " + TypeTable::name_of(lv.type) + " through a pointer");
    return lv.kind == NodeKind::Deref ? gen(*lv.kids[0]) : member_address(lv);
}

void ExprGen::load_through(uint8_t address, const Node &lv, uint8_t into) {
    b_.emit(DOp::Mov, into, address);
    if (lv.kind == NodeKind::Member && lv.bit_width != 0)
        load_bitfield(into, lv);
    else
        b_.emit(load_op(scalar_size(lv.type), is_signed(lv.type)), into, into, 0, 0);
}

void ExprGen::store_through(uint8_t address, const Node &lv, uint8_t value) {
    if (lv.kind != NodeKind::Member || lv.bit_width == 0) {
        b_.emit(store_op(scalar_size(lv.type)), address, value, 0, 0);
        return;
    }
    const uint64_t bytes = bitfield_bytes(lv.bit_offset + lv.bit_width);
    const uint64_t mask = ((uint64_t(1) << lv.bit_width) - 1) << lv.bit_offset;
    uint8_t word = b_.alloc(), bits = b_.alloc(), t = b_.alloc();
    b_.emit(load_op(bytes, false), word, address, 0, 0);
    b_.setx(t, ~mask);
    b_.emit(DOp::And, word, word, t);
    b_.emit(DOp::Mov, bits, value);
    if (lv.bit_offset != 0) {
        b_.setx(t, lv.bit_offset);
        b_.emit(DOp::Shl, bits, bits, t);
    }
    b_.setx(t, mask);
    b_.emit(DOp::And, bits, bits, t);
    b_.emit(DOp::Or, word, word, bits);
    b_.emit(store_op(bytes), address, word, 0, 0);
    b_.free(t);
    b_.free(bits);
    b_.free(word);
}

// The address of a member: its struct's address (or pointer) plus its offset.
uint8_t ExprGen::member_address(const Node &n) {
    uint8_t r = gen(*n.kids[0]);
    if (n.value != 0) {
        uint8_t t = b_.alloc();
        b_.setx(t, n.value);
        b_.emit(DOp::Add, r, r, t);
        b_.free(t);
    }
    return r;
}

uint8_t ExprGen::gen_unary(const Node &n) {
    if (n.op == Op::AddrOf) { // &*p is p; &s.m the member's address
        const Node &target = *n.kids[0];
        return target.kind == NodeKind::Deref ? gen(*target.kids[0]) : member_address(target);
    }
    uint8_t r = gen(*n.kids[0]);
    switch (n.op) {
    case Op::Minus:
        b_.emit(DOp::Sub, r, kR0, r);
        break;
    case Op::BitNot:
        b_.emit(DOp::Not, r, r);
        break;
    case Op::LogNot:
        b_.emit(DOp::Seq, r, r, kR0);
        break;
    default: // unary plus
        break;
    }
    return r;
}

uint8_t ExprGen::gen_deref(const Node &n) {
    uint8_t r = gen(*n.kids[0]);
    if (in_register(n.type)) // a struct, union, array or long double is used by its address
        b_.emit(load_op(scalar_size(n.type), is_signed(n.type)), r, r, 0, 0);
    return r;
}

void ExprGen::scale_pointer_operand(uint8_t reg, const Type *ptr) {
    uint64_t size = referent_size(ptr);
    if (size <= 1)
        return;
    uint8_t t = b_.alloc();
    b_.setx(t, size);
    b_.emit(DOp::Mul, reg, reg, t);
    b_.free(t);
}

void ExprGen::arith(Op op, uint8_t l, uint8_t r, const Type *t, const Type *left_type) {
    bool s = is_signed(t);
    DOp o = DOp::Nop;
    switch (op) {
    case Op::Add:
        o = DOp::Add;
        break;
    case Op::Sub:
        o = DOp::Sub;
        break;
    case Op::Mul:
        o = DOp::Mul;
        break;
    case Op::Div:
        o = s ? DOp::Sdiv : DOp::Udiv;
        break;
    case Op::Mod:
        o = s ? DOp::Srem : DOp::Urem;
        break;
    case Op::BitAnd:
        o = DOp::And;
        break;
    case Op::BitOr:
        o = DOp::Or;
        break;
    case Op::BitXor:
        o = DOp::Xor;
        break;
    case Op::Shl:
        o = DOp::Shl;
        break;
    case Op::Shr:
        o = is_signed(left_type) ? DOp::Sra : DOp::Srl;
        break;
    default:
        break;
    }
    b_.emit(o, l, l, r);
}

// An index past the end of an array a variable holds (or negative) would
// reach memory that is not the variable's: the element's address becomes
// its bare offset (the index scaled, from address 0), which no readable or
// writable region holds, so the access faults as an invalid address.
void ExprGen::check_bound(uint8_t base, uint8_t index, uint64_t bound) {
    uint8_t t = b_.alloc();
    int inside = b_.new_label();
    b_.setx(t, bound);
    b_.emit(DOp::Sltu, t, index, t);
    b_.branch(DOp::Bnz, t, inside);
    b_.emit(DOp::Mov, base, kR0);
    b_.place(inside);
    b_.free(t);
}

uint8_t ExprGen::gen_binary(const Node &n) {
    const Node &ln = *n.kids[0], &rn = *n.kids[1];
    bool lp = is_pointer(ln.type), rp = is_pointer(rn.type);
    uint8_t l = gen(ln);
    if (rp && !lp)
        scale_pointer_operand(l, rn.type);
    uint8_t r = gen(rn);
    if (n.bound != 0)
        check_bound(l, r, n.bound);
    if (lp && !rp)
        scale_pointer_operand(r, ln.type);
    arith(n.op, l, r, n.type, ln.type);
    if (lp && rp) { // pointer difference: in elements (DTrace divides unsigned)
        uint64_t size = referent_size(ln.type);
        if (size > 1) {
            b_.setx(r, size);
            b_.emit(DOp::Udiv, l, l, r);
        }
    }
    b_.free(r);
    return l;
}

// Operands are compared as they are, all 64 bits, signed or unsigned as
// their common type says (strings by strcmp's sign).
uint8_t ExprGen::gen_compare(const Node &n) {
    bool strings = is_string(n.common);
    uint8_t l = gen(*n.kids[0]);
    uint8_t r = gen(*n.kids[1]);
    if (strings) {
        b_.emit(DOp::Scmp, l, l, r);
        b_.free(r);
        r = kR0; // compare strcmp's sign with zero
    }
    bool s = strings || is_signed(n.common);
    DOp lt = s ? DOp::Slt : DOp::Sltu, le = s ? DOp::Sle : DOp::Sleu;
    switch (n.op) {
    case Op::Lt:
        b_.emit(lt, l, l, r);
        break;
    case Op::Le:
        b_.emit(le, l, l, r);
        break;
    case Op::Gt:
        b_.emit(lt, l, r, l);
        break;
    case Op::Ge:
        b_.emit(le, l, r, l);
        break;
    case Op::Eq:
        b_.emit(DOp::Seq, l, l, r);
        break;
    default:
        b_.emit(DOp::Sne, l, l, r);
        break;
    }
    b_.free(r);
    return l;
}

uint8_t ExprGen::gen_logical(const Node &n) {
    uint8_t l = gen(*n.kids[0]);
    if (n.op == Op::LogXor) { // both sides are always evaluated
        b_.emit(DOp::Sne, l, l, kR0);
        uint8_t r = gen(*n.kids[1]);
        b_.emit(DOp::Sne, r, r, kR0);
        b_.emit(DOp::Xor, l, l, r);
        b_.free(r);
        return l;
    }
    // && skips its right operand when the left is false, || when it is true.
    bool is_and = n.op == Op::LogAnd;
    int skip = b_.new_label(), done = b_.new_label();
    b_.branch(is_and ? DOp::Bz : DOp::Bnz, l, skip);
    b_.free(l);
    uint8_t r = gen(*n.kids[1]);
    b_.emit(DOp::Sne, r, r, kR0);
    b_.branch(DOp::Ba, kR0, done);
    b_.place(skip);
    if (is_and)
        b_.emit(DOp::Mov, r, kR0);
    else
        b_.setx(r, 1);
    b_.place(done);
    return r;
}

uint8_t ExprGen::gen_ternary(const Node &n) {
    const Node &ln = *n.kids[1], &rn = *n.kids[2];
    int other = b_.new_label(), done = b_.new_label();
    uint8_t c = gen(*n.kids[0]);
    b_.branch(DOp::Bz, c, other);
    b_.free(c);
    // The true arm moves its value into the register the false arm ends up
    // in, which is only known after generating the false arm: patch it then.
    uint8_t l = gen(ln);
    size_t move = b_.emit(DOp::Mov, l, l);
    b_.free(l);
    b_.branch(DOp::Ba, kR0, done);
    b_.place(other);
    uint8_t r = gen(rn);
    b_.patch(move, DOp::Mov, r, l);
    b_.place(done);
    return r;
}

// The input is evaluated once; the member's expression reads copies of it.
uint8_t ExprGen::gen_translate(const Node &n) {
    uint8_t input = gen(*n.kids[0]);
    xlate_inputs_[n.id] = input;
    uint8_t r = gen(*n.kids[1]);
    xlate_inputs_.erase(n.id);
    b_.free(input);
    convert(r, n.kids[1]->type, n.type);
    return r;
}

// The struct is zeroed scratch; each translated member is stored at its
// offset: a scalar by its size, a string into a char array up to its NUL
// (cut to the array), other by-reference values by their size.
uint8_t ExprGen::gen_xlate_copy(const Node &n) {
    uint8_t object = b_.alloc();
    b_.setx(object, resolve(n.type)->size);
    b_.emit(DOp::Allocs, object, object);
    uint8_t input = gen(*n.kids[0]);
    xlate_inputs_[n.id] = input;
    for (size_t i = 1; i < n.kids.size(); i++) {
        const Node &member = *n.kids[i];
        uint8_t value = gen(member);
        uint8_t address = b_.alloc();
        b_.setx(address, n.offsets[i - 1]);
        b_.emit(DOp::Add, address, address, object);
        if (in_register(member.type))
            b_.emit(store_op(scalar_size(member.type)), address, value, 0, 0);
        else
            copy_bytes(address, value, *member.kids[0], resolve(member.type)->size);
        b_.free(address);
        b_.free(value);
    }
    xlate_inputs_.erase(n.id);
    b_.free(input);
    return object;
}

// Copies `size` bytes of the value `from` (of from_node's type) to `to`; a
// string stops after its NUL, so that nothing past it is read.
void ExprGen::copy_bytes(uint8_t to, uint8_t from, const Node &from_node, uint64_t size) {
    uint8_t count = b_.alloc();
    if (is_string(from_node.type)) {
        b_.emit(DOp::Flushts);
        b_.emit(DOp::Pushts, 0, from);
        b_.emit(DOp::Call, count, 0, 0, uint32_t(dif::Subr::Strlen));
        uint8_t limit = b_.alloc();
        int fits = b_.new_label();
        b_.setx(limit, 1);
        b_.emit(DOp::Add, count, count, limit); // the NUL
        b_.setx(limit, size);
        b_.emit(DOp::Sleu, limit, count, limit);
        b_.branch(DOp::Bnz, limit, fits);
        b_.setx(count, size);
        b_.place(fits);
        b_.free(limit);
    } else {
        b_.setx(count, size);
    }
    b_.emit(DOp::Copys, to, from, count);
    b_.free(count);
}

void ExprGen::push_tuple(const std::vector<NodePtr> &args, const std::vector<const Type *> &params) {
    if (args.size() > kTupleRegisters)
        throw CompileError{Diagnostic{Tag::None, 0, "", "", "Insufficient tuple registers to generate code"}};
    // Evaluate everything first: an argument may itself use the tuple stack.
    std::vector<uint8_t> regs;
    for (size_t i = 0; i < args.size(); i++) {
        uint8_t r = gen(*args[i]);
        const Type *p = i < params.size() ? params[i] : nullptr;
        if (p)
            convert(r, args[i]->type, p);
        regs.push_back(r);
    }
    b_.emit(DOp::Flushts);
    for (size_t i = 0; i < args.size(); i++) {
        const Type *t = args[i]->type;
        const Type *p = i < params.size() && params[i] ? params[i] : t;
        const dif::TypeDesc desc = type_desc(p, 0);
        if (is_string(t) || (is_strcompat(p) && is_strcompat(t))) {
            b_.emit(DOp::Pushts, 0, regs[i]);
        } else if (desc.kind == dif::TypeDesc::Kind::ByRef) {
            // A struct, union or array key is its bytes, as DTrace pushes it.
            uint8_t size = b_.alloc();
            b_.setx(size, desc.size);
            b_.emit(DOp::Pushtr, 0, regs[i], size);
            b_.free(size);
        } else {
            b_.emit(DOp::Pushtv, 0, regs[i], 0, uint32_t(is_scalar(p) ? scalar_size(p) : kRegisterBytes));
        }
        b_.free(regs[i]);
    }
}

uint8_t ExprGen::gen_call(const Node &n) {
    push_tuple(n.kids, n.params);
    uint8_t r = b_.alloc();
    b_.emit(DOp::Call, r, 0, 0, n.id);
    return r;
}

} // namespace dtrace::compiler
