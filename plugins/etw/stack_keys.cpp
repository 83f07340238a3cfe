// stack_keys.cpp: the look-ahead reader of stack key definitions.
#include "stack_keys.h"

#include "reader/le_bytes.h"
#include "stack_walk.h"

namespace dtrace::etw::plugin {

namespace {

constexpr uint8_t kKeyCreate = 34;
constexpr uint8_t kKeyRundown = 36;
constexpr size_t kTimestampAt = 0;
constexpr size_t kProcessAt = 8;
constexpr size_t kThreadAt = 12;
constexpr size_t kKeyAt = 16;
constexpr uint8_t kPointerSize32 = 4;

uint64_t pointer_at(std::span<const uint8_t> p, size_t at, uint8_t pointer_size) {
    return pointer_size == kPointerSize32 ? load_u32(p.data() + at) : load_u64(p.data() + at);
}

bool is_definition(const Event &event) {
    return event.opcode >= kKeyCreate && event.opcode <= kKeyRundown && event.provider == stack_walk_class();
}

// A KeyCreate, KeyDelete or KeyRundown event: the key and its frames.
std::optional<std::pair<uint64_t, std::vector<uint64_t>>> definition(const Event &event) {
    const std::span<const uint8_t> p = event.payload;
    const size_t pointer = event.pointer_size;
    if (!is_definition(event) || p.size() < pointer) {
        return std::nullopt;
    }
    std::vector<uint64_t> frames;
    for (size_t at = pointer; at + pointer <= p.size(); at += pointer) {
        frames.push_back(pointer_at(p, at, event.pointer_size));
    }
    return std::pair{pointer_at(p, 0, event.pointer_size), std::move(frames)};
}

size_t frame_bytes(const std::vector<uint64_t> &frames) {
    return frames.size() * sizeof(uint64_t);
}

} // namespace

std::optional<StackKeyReference> stack_key_reference(const Event &event) {
    if ((event.opcode != kStackKeyKernelOpcode && event.opcode != kStackKeyUserOpcode) ||
        event.provider != stack_walk_class() || event.payload.size() < kKeyAt + event.pointer_size) {
        return std::nullopt;
    }
    const std::span<const uint8_t> p = event.payload;
    return StackKeyReference{.event_timestamp = load_i64(p.data() + kTimestampAt),
                             .pid = load_u32(p.data() + kProcessAt),
                             .tid = load_u32(p.data() + kThreadAt),
                             .key = pointer_at(p, kKeyAt, event.pointer_size),
                             .user = event.opcode == kStackKeyUserOpcode};
}

StackKeys::StackKeys(Opener open)
    : ahead_(std::move(open), definition, frame_bytes, kMaxKeptFrames * sizeof(uint64_t)) {}

} // namespace dtrace::etw::plugin
