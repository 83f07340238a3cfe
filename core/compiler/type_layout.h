// type_layout.h: where the members of a struct or union declared in D go,
// laid out the way DTrace's CTF library lays them out (ctf_add_member)
// rather than the way a C compiler would:
//   - a member starts at the first byte after the end of the previous one
//     (the end of its bits, for a bit-field), rounded up to its alignment;
//     so bit-fields are never packed together into one storage unit;
//   - a struct ends where its last member ends: there is no padding after it;
//   - a struct is aligned as its first member, a union as its most aligned
//     member, and anything else as its size;
//   - a bit-field of n bits occupies (and is loaded as) the smallest power of
//     two number of bytes that holds n bits.
// Types that come with their own layout (DWARF, BTF) keep theirs.
#pragma once

#include "compiler/types.h"

#include <cstdint>

namespace dtrace::compiler {

// The bytes a bit-field of `bits` bits occupies: 1, 2, 4 or 8.
uint64_t bitfield_bytes(unsigned bits);

uint64_t type_align(const Type *t);

class MemberLayout {
  public:
    explicit MemberLayout(bool is_union) : union_(is_union) {}

    // Places the next member (bit_width 0: not a bit-field); returns its
    // offset in bits.
    uint64_t add(const Type *type, uint64_t size, unsigned bit_width);
    uint64_t size() const { return size_; }

  private:
    bool union_;
    bool first_ = true;
    uint64_t end_bits_ = 0; // where the previous member's bits end
    uint64_t size_ = 0;
};

} // namespace dtrace::compiler
