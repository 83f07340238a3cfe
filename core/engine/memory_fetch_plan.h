// memory_fetch_plan.h: which kernel memory a probe's clauses load from the
// event's own values (dtrace_probe_usage.fetches), so that a kernel probe's
// plugin can read it when the event happens instead of when the clause
// runs in dtrace, milliseconds later, when the object may be gone.
//
// It follows each DIFO's registers from what the event gives (argN,
// args[i], curthread, a constant address: a backquoted symbol) through
// constant offsets (add, sub, a load's displacement) and 8-byte loads (a
// pointer: the next load's base), and lists each load, and each string or
// by-reference value read at the end of such a chain (a string recorded,
// compared or pushed; a struct recorded or copied: print(*args[0])).
// Clause-local variables carry chains from one DIFO of a clause to the
// next. Branches are not followed: a chain through either arm is listed,
// which at worst reads memory nobody uses. What it cannot follow (a
// pointer kept in a global or thread-local variable, a computed index) is
// simply not listed: the plugin then reads that memory late.
//
// The user memory copyin() and copyinstr() read is listed the same way
// (a user-space probe's plugin reads it at the event): copyin(chain, n)
// with a constant n, an 8-byte load from its bytes at a known offset (a
// pointer: the next fetch's base), copyinstr(chain) unless chain is a bare
// argument (probe_usage's string_args say those).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <dtrace/provider.h>

#include "dif/difo.h"

namespace dtrace::engine {

class MemoryFetchPlanner {
  public:
    // native_index[i]: the native argument args[i] is translated from (an
    // index past it reads argument i); string_limit: strsize.
    MemoryFetchPlanner(std::vector<uint32_t> native_index, uint32_t string_limit)
        : native_index_(std::move(native_index)), string_limit_(string_limit) {}

    // Each clause's DIFOs in the order they run, after begin_clause().
    void begin_clause() { locals_.clear(); }
    void scan(const dif::Difo &difo);

    // The fetches, at most DTRACE_USAGE_MAX_FETCHES, each after those its base reads.
    const std::vector<dtrace_memory_fetch> &fetches() const { return fetches_; }

  private:
    // An address the event determines: base + offset.
    struct Chain {
        uint8_t base = DTRACE_FETCH_ARG;
        uint16_t index = 0;
        int64_t offset = 0;
    };
    // One register's value, as far as the scan knows it.
    struct Value {
        std::optional<Chain> chain;
        std::optional<uint64_t> constant;
        std::optional<Chain> copied; // the bytes copyin() read from here (a scratch pointer: loads read them)
    };

    // The fetch of `length` bytes (or a string) at `at`; its index, or
    // nullopt when the plan is full.
    std::optional<uint16_t> fetch(const Chain &at, uint32_t length, bool string);
    // A register used as an address: its chain, or a constant as an absolute address.
    static std::optional<Chain> address_of(const Value &v);
    void read_whole(const Value &v, const dif::TypeDesc &type);
    // What a call of copyin() or copyinstr() with the tuple pushed reads; copyin()'s result.
    Value copy_in(uint32_t subroutine);

    std::vector<uint32_t> native_index_;
    uint32_t string_limit_;
    std::map<uint32_t, Value> locals_; // clause-local variables by id
    std::vector<Value> tuple_;         // the values pushed for the next call
    std::vector<dtrace_memory_fetch> fetches_;
};

} // namespace dtrace::engine
