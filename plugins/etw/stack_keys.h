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
// StackKeys resolves references with a second reader of the same file that
// runs ahead of the replay (both see the events in the same order, so an
// event's position is its index in that order): asked for a key the reader
// has not met defined since the reference, it reads on until it does,
// keeping the definitions it passes (not the events) for the references to
// come and forgetting those the replay has passed. Memory stays bounded:
// when the kept definitions hold kMaxKeptFrames frames, the ones the replay
// has passed go, and if that is not enough the look-ahead stops there; a
// reference it cannot resolve leaves that half of its event's stack empty.
// Nothing is read ahead for a trace without stack keys.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "reader/etl_reader.h"
#include "reader/result.h"
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
    using Opener = std::function<Result<EtlReader>()>;
    static constexpr size_t kMaxKeptFrames = size_t{1} << 22; // 32 MB of frames

    // open makes the look-ahead reader, when the first key is asked for.
    explicit StackKeys(Opener open) : open_(std::move(open)) {}

    // The frames that key stands for at the reference at position (its
    // index among the trace's events); nullptr when the trace does not say.
    const std::vector<uint64_t> *resolve(uint64_t key, uint64_t position);

  private:
    struct Definition {
        uint64_t position = 0;
        std::vector<uint64_t> frames;
    };

    // Reads on until key is defined after position; false at the end.
    bool read_ahead(uint64_t key, uint64_t position);
    void keep(const Event &event);
    // Forgets the definitions before position; false if none was.
    bool forget_before(uint64_t position);

    Opener open_;
    std::optional<EtlReader> ahead_;
    bool ahead_done_ = false;     // at the end, or could not open
    uint64_t ahead_position_ = 0; // events the look-ahead reader has read
    std::unordered_map<uint64_t, std::deque<Definition>> definitions_;
    size_t kept_frames_ = 0;
};

} // namespace dtrace::etw::plugin
