// stack_keys.h: stack keys resolved to their frames, looking ahead in the file.
//
// With stack caching (Windows 8 on), a kernel session logs after an event a
// StackKeyKernel (StackWalk opcode 37) and a StackKeyUser (38) event that name
// the event as a Stack event does (u64 EventTimeStamp, u32 process, u32
// thread) but hold a key instead of frames: ptr StackKey. The frames come
// with the key's definition, KeyCreate (34), KeyDelete (35, when the cache
// evicts the key) or KeyRundown (36, at the session's end): ptr Key, then
// the frames, innermost first (etw-formats.md 1.9). A definition mostly
// comes later in the file than the events that use its key, and a deleted
// key is used again for another stack: a reference means the first
// definition of its key after it.
//
// StackKeys resolves references with a KeyedLookAhead (keyed_look_ahead.h):
// a second reader of the session that runs ahead of the replay, keeping at
// most kMaxKeptFrames frames of definitions not yet needed; a reference it
// cannot resolve leaves that half of its event's stack empty. Nothing is
// read ahead for a trace without stack keys.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "keyed_look_ahead.h"
#include "reader/etl_reader.h"
#include "stack_walk.h"

namespace dtrace::etw::plugin {

// A StackKeyKernel or StackKeyUser event's content.
struct StackKeyReference {
    int64_t event_timestamp = 0; // raw, in the session clock
    uint32_t pid = 0;
    uint32_t tid = 0;
    uint64_t key = 0;
    bool user = false; // StackKeyUser
};

// The StackWalk opcodes of the stack key references.
inline constexpr uint8_t kStackKeyKernelOpcode = 37;
inline constexpr uint8_t kStackKeyUserOpcode = 38;

// Decodes a StackKeyKernel/StackKeyUser event; nothing for another event or
// a payload too short.
std::optional<StackKeyReference> stack_key_reference(const Event &event);
// True for the records that carry an event's stack: StackWalk/Stack and the
// stack key references. Asked of every event of a trace that has not shown
// a stack yet: the opcode rules out nearly all of them inline.
inline bool is_stack_record(const Event &event) {
    const uint8_t op = event.opcode;
    return (op == kStackWalkOpcode || op == kStackKeyKernelOpcode || op == kStackKeyUserOpcode) &&
           (is_stack_walk(event) || stack_key_reference(event).has_value());
}

class StackKeys {
  public:
    using Opener = ReaderOpener;
    static constexpr size_t kMaxKeptFrames = size_t{1} << 22; // 32 MB of frames

    // open makes the look-ahead reader, when the first key is asked for.
    explicit StackKeys(Opener open);

    // The frames that key stands for at the reference at position (its
    // index among the trace's events); nullptr when the trace does not say.
    const std::vector<uint64_t> *resolve(uint64_t key, uint64_t position) { return ahead_.resolve(key, position); }

  private:
    KeyedLookAhead<std::vector<uint64_t>> ahead_;
};

} // namespace dtrace::etw::plugin
