// stack_walk.h: the kernel's StackWalk events, for diag:::missed-stack.
//
// A kernel session that walks stacks logs each stack as a separate event
// (StackWalk group, opcode 32 Stack) right after the event it belongs to,
// naming that event by timestamp and thread: u64 EventTimeStamp, u32
// StackProcess, u32 StackThread, then the frames, pointer-sized, innermost
// first, kernel frames before user ones (etw-formats.md 1.9). Stacks are
// attached to their events (kernel/stack_attach.h); the Dtrace-ETW port
// fires diag:::missed-stack with a stack it could not attach. The frames are
// split where the addresses leave the kernel's half of the address space.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "reader/event.h"

namespace dtrace::etw::plugin {

struct WalkedStack {
    int64_t event_timestamp = 0; // raw, in the session clock
    uint32_t pid = 0;
    uint32_t tid = 0;
    std::vector<uint64_t> frames; // kernel frames, then user frames
    size_t kernel_depth = 0;      // frames[0 .. kernel_depth) are kernel frames

    std::span<const uint64_t> kernel() const { return {frames.data(), kernel_depth}; }
    std::span<const uint64_t> user() const { return std::span<const uint64_t>(frames).subspan(kernel_depth); }
};

// True for an address in the kernel's half of the address space of a 32- or
// 64-bit Windows (pointer_size 4 or 8).
bool is_kernel_address(uint64_t address, uint8_t pointer_size);
// The StackWalk class GUID, and the opcode of its Stack events.
const Guid &stack_walk_class();
inline constexpr uint8_t kStackWalkOpcode = 32;
// True for StackWalk/Stack events.
bool is_stack_walk(const Event &event);
// Decodes a StackWalk/Stack payload into out (reusing its storage); false if
// the payload is too short.
bool decode_stack_walk(const Event &event, WalkedStack &out);
// The stack an EVENT_HEADER event carries itself in a STACK_TRACE32/64
// extended item (a session that asked for stacks; nettrace stacks arrive so
// too), as the event's thread's; false if it carries none.
bool decode_extended_stack(const Event &event, WalkedStack &out);

// decode_extended_stack() of the events of a replay, each in turn. A trace's
// stacks repeat (a runtime's allocation ticks, a loop's events): an event
// whose extended items are the last decoded event's bytes for bytes gets
// the frames decoded then, with its own time and ids.
class CarriedStacks {
  public:
    // The event's stack, valid until the next call; nullptr if it carries none.
    const WalkedStack *of(const Event &event);

  private:
    WalkedStack stack_;
    std::vector<uint8_t> items_; // the extended items stack_ was decoded from
    bool decoded_ = false;       // stack_ holds items_' frames
};
inline bool has_extended_stack(const Event &event) {
    constexpr uint32_t kStackItems = (1u << 5) | (1u << 6); // STACK_TRACE32, STACK_TRACE64
    return (event.extended_types & kStackItems) != 0;
}

} // namespace dtrace::etw::plugin
