// memory.h: the one checked accessor through which DIF touches memory, and
// the scratch arena.
//
// D values that are strings or by-reference objects are host addresses. A
// DIF program may read only what the VM can vouch for:
//   - this clause's scratch allocations (subroutine results, alloca, copyin),
//   - the string tables of the DIFOs run in this clause (the running one is
//     checked first),
//   - regions declared readable for the clause: the environment's strings and
//     event payload, and variable storage the VM handed out to the program,
//   - the shared empty string that unset string variables read as,
//   - for a replayed event, the memory of the trace its plugin serves: the
//     trace is the only "kernel" there is, so its pointers are loaded and read
//     as strings directly (copies are made on demand; see read_through).
// Everything else is refused before it is touched, so a wild pointer becomes
// a BadAddr fault instead of a crash. Stores may only target scratch.
//
// Scratch is a bump allocator reset at each clause start: allocation is a
// pointer increment, and nothing is freed individually. Reads may go past
// the allocations into the rest of the arena, as DTrace's do (tracemem() of
// more bytes than copyin() copied shows the scratch after them); stores may
// not.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::dif {

// What every unset string variable reads as (a single NUL, always readable).
extern const char kEmptyString[1];

class Environment;

class Memory {
  public:
    explicit Memory(size_t scratch_size);

    // Forgets the clause's scratch allocations, readable regions and
    // read-through source.
    void begin_clause() {
        external_ = nullptr;
        if (!touched_)
            return; // the commonest clause at event rate reads only integers: nothing to forget
        touched_ = false;
        used_ = 0;
        regions_.clear();
        strtab_ = {};
        known_string_ = {};
        if (!external_copies_.empty())
            external_copies_.clear();
    }
    void add_readable(const void *base, size_t length) {
        touched_ = true;
        Region r{reinterpret_cast<uintptr_t>(base), length};
        if (regions_.empty() || regions_.back().base != r.base || regions_.back().length != r.length)
            regions_.push_back(r);
    }
    // Declares the NUL-terminated string `s` of `length` bytes (no NUL
    // among them) readable. The last one declared is also remembered, so
    // that string_at() answers for it without searching for its NUL: a
    // builtin string (probefunc, execname) is usually read right after.
    void add_readable_string(const char *s, size_t length) {
        add_readable(s, length + 1);
        known_string_ = {reinterpret_cast<uintptr_t>(s), length};
    }
    // Until the clause ends, an address outside the VM's own memory is read
    // through `env->read_target` (a replayed event's memory).
    void read_through(Environment *env) { external_ = env; }
    // The running DIFO's string table. The previous one stays readable until
    // the clause ends: the engine may read a DIFO's result after running the next.
    void set_strtab(std::string_view strtab);

    // The host pointer for [address, address + length) if all of it is
    // readable, else nullptr. A zero-length range is always readable.
    const uint8_t *readable(uint64_t address, size_t length) const;
    // The same for stores: the range must lie in this clause's scratch.
    uint8_t *writable(uint64_t address, size_t length);

    // The NUL-terminated string at `address`, at most `limit` bytes long
    // (a string that reaches `limit` without a NUL is cut there). nullopt
    // when the string is not readable up to its NUL or the limit.
    std::optional<std::string_view> string_at(uint64_t address, size_t limit) const {
        if (address == known_string_.base && address != 0)
            return std::string_view(reinterpret_cast<const char *>(address), std::min(known_string_.length, limit));
        return find_string(address, limit);
    }

    // `length` bytes of scratch aligned to `align` (a power of two), not
    // zeroed; nullptr when the arena cannot hold them.
    uint8_t *allocate(uint64_t length, size_t align = 1);
    // Shrinks the most recent allocation, which starts at `block`, to `used` bytes.
    void trim(const uint8_t *block, size_t used);

  private:
    struct Region {
        uintptr_t base;
        size_t length;
        bool contains(uint64_t address, size_t n) const {
            uint64_t offset = address - base;
            return offset < length && n <= length - offset;
        }
    };
    std::optional<std::string_view> find_string(uint64_t address, size_t limit) const;
    // The region holding `address`, if any.
    std::optional<Region> region_of(uint64_t address) const;
    // Copies of the read-through source's memory (nullptr / nullopt when the
    // source cannot supply the bytes).
    const uint8_t *copy_external(uint64_t address, size_t length) const;
    std::optional<std::string_view> external_string(uint64_t address, size_t limit) const;
    Region scratch_region() const { return {reinterpret_cast<uintptr_t>(scratch_.get()), used_}; }
    // The whole arena, allocated or not: what reads of scratch may reach.
    Region scratch_arena() const { return {reinterpret_cast<uintptr_t>(scratch_.get()), capacity_}; }
    Region strtab_region() const { return {reinterpret_cast<uintptr_t>(strtab_.data()), strtab_.size()}; }

    std::unique_ptr<uint8_t[]> scratch_;
    size_t capacity_;
    size_t used_ = 0;
    std::string_view strtab_;
    std::vector<Region> regions_;
    Environment *external_ = nullptr;
    // The copies, kept until the clause ends; a deque so that handing out a
    // new one moves none already handed out.
    mutable std::deque<std::string> external_copies_;
    Region known_string_{0, 0}; // base 0: none; length excludes the NUL
    // Whether the clause declared, allocated, copied or set a string table,
    // i.e. whether begin_clause() has anything but external_ to forget.
    // Every member that begin_clause() resets sets it.
    mutable bool touched_ = false;
};

} // namespace dtrace::dif
