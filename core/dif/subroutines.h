// subroutines.h: the DIF subroutines (the Call opcode) — one table of name,
// arity and implementation, and the context an implementation runs with.
//
// Subroutines follow DTrace's semantics and bounds (illumos dtrace_dif_subr):
// every string they read goes through the VM's checked accessor and is cut
// at strsize; results live in scratch; failures are faults, never crashes.
#pragma once

#include "dif/fault.h"
#include "dif/isa.h"
#include "dif/memory.h"
#include "dif/vm_config.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dtrace::dif {

// What subroutines keep between calls.
struct SubrState {
    SubrState();

    // strtok(): a private copy of the string being split and how far it has
    // been consumed. As in DTrace the position lasts for the clauses of one
    // firing (Vm::begin_firing() forgets it); the copy never reads memory a
    // later clause no longer owns.
    std::string strtok_text;
    size_t strtok_offset = 0;
    bool strtok_active = false;
    // rand(): the generator's state (deterministic, so that replays repeat).
    uint64_t rand_state;
};

class SubrContext {
  public:
    SubrContext(Memory &memory, Environment &env, SubrState &state, uint32_t strsize, Fault &fault)
        : memory_(memory), env_(env), state_(state), strsize_(strsize), fault_(fault) {}

    SubrState &state() { return state_; }
    uint32_t strsize() const { return strsize_; }
    uint64_t tid() { return env_.builtin(VarId::Tid); }
    uint64_t speculation() { return env_.speculation(); }
    uint64_t pid() { return env_.builtin(VarId::Pid); }
    uint64_t ppid() { return env_.builtin(VarId::Ppid); }
    std::span<const uint64_t> stack_pcs(bool user) { return env_.stack_pcs(user); }

    // Records a fault; returns 0, the value a faulting subroutine yields.
    uint64_t fail(FaultKind kind, uint64_t address = 0);
    bool failed() const { return fault_.kind != FaultKind::None; }

    // Checked reads (BadAddr on failure).
    std::optional<std::string_view> string(uint64_t address);
    const uint8_t *bytes(uint64_t address, size_t length);
    // Scratch (NoScratch on failure) and stores into it (BadAddr outside it).
    uint8_t *scratch(uint64_t length, size_t align);
    uint8_t *scratch_target(uint64_t address, size_t length);
    void trim(const uint8_t *block, size_t used) { memory_.trim(block, used); }
    // A copy of `s` in scratch, NUL-terminated; returns its address.
    uint64_t result_string(std::string_view s);
    // Reads the traced process (BadAddr or UPriv on failure); returns the
    // number of bytes read, which may be short of `length` only when
    // `allow_short` is set.
    std::optional<size_t> read_target(uint64_t address, uint8_t *buffer, size_t length, bool allow_short = false);

  private:
    Memory &memory_;
    Environment &env_;
    SubrState &state_;
    uint32_t strsize_;
    Fault &fault_;
};

// A string result being built in scratch, at most strsize - 1 characters.
// While it is open no other scratch may be allocated.
class StringBuilder {
  public:
    explicit StringBuilder(SubrContext &ctx);
    bool ok() const { return data_ != nullptr; }
    size_t size() const { return size_; }
    char at(size_t i) const { return data_[i]; }
    void push(char c); // a NUL ends the string early
    void append(std::string_view s);
    void resize(size_t n); // only shrinks
    uint64_t finish();

  private:
    SubrContext &ctx_;
    char *data_;
    size_t size_ = 0;
    size_t capacity_;
};

using SubrFn = uint64_t (*)(SubrContext &ctx, std::span<const uint64_t> args);

struct SubrInfo {
    Subr id;
    const char *name;
    uint8_t min_args;
    uint8_t max_args;
    SubrFn fn;
};

// nullptr when `id` names no subroutine.
const SubrInfo *subr_info(uint32_t id);
std::optional<Subr> subr_by_name(std::string_view name);

} // namespace dtrace::dif
