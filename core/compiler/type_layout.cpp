// type_layout.cpp: CTF's layout of D-declared structs and unions (see type_layout.h).
#include "compiler/type_layout.h"

#include <algorithm>
#include <bit>

namespace dtrace::compiler {

namespace {

uint64_t round_up(uint64_t v, uint64_t a) {
    return (v + a - 1) / a * a;
}

} // namespace

uint64_t bitfield_bytes(unsigned bits) {
    return std::bit_ceil(uint64_t(round_up(bits, kBitsPerByte) / kBitsPerByte));
}

uint64_t type_align(const Type *t) {
    const Type *r = resolve(t);
    switch (r->kind) {
    case TypeKind::Array:
        return type_align(r->ref);
    case TypeKind::Struct: // as its first member
        if (r->members.empty())
            return 0;
        return r->members.front().bit_width ? bitfield_bytes(r->members.front().bit_width)
                                            : type_align(r->members.front().type);
    case TypeKind::Union: {
        uint64_t a = 0;
        for (const auto &m : r->members)
            a = std::max(a, m.bit_width ? bitfield_bytes(m.bit_width) : type_align(m.type));
        return a;
    }
    case TypeKind::String: // DTrace's string is a char array
        return 1;
    default:
        return scalar_size(r);
    }
}

uint64_t MemberLayout::add(const Type *type, uint64_t size, unsigned bit_width) {
    uint64_t align = bit_width ? size : type_align(type);
    uint64_t offset_bits = 0;
    if (union_) {
        size_ = std::max(size_, size);
    } else if (first_) {
        size_ = size;
    } else {
        uint64_t off = round_up(end_bits_, kBitsPerByte) / kBitsPerByte;
        off = round_up(off, std::max<uint64_t>(align, 1));
        offset_bits = off * kBitsPerByte;
        size_ = off + size;
    }
    first_ = false;
    end_bits_ = offset_bits + (bit_width ? bit_width : size * kBitsPerByte);
    return offset_bits;
}

} // namespace dtrace::compiler
