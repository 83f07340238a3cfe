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

void StackKeys::keep(const Event &event) {
    const std::span<const uint8_t> p = event.payload;
    const size_t pointer = event.pointer_size;
    if (p.size() < pointer) {
        return;
    }
    Definition d{.position = ahead_position_};
    for (size_t at = pointer; at + pointer <= p.size(); at += pointer) {
        d.frames.push_back(pointer_at(p, at, event.pointer_size));
    }
    kept_frames_ += d.frames.size();
    definitions_[pointer_at(p, 0, event.pointer_size)].push_back(std::move(d));
}

bool StackKeys::forget_before(uint64_t position) {
    bool forgot = false;
    for (auto it = definitions_.begin(); it != definitions_.end();) {
        std::deque<Definition> &defs = it->second;
        while (!defs.empty() && defs.front().position < position) {
            kept_frames_ -= defs.front().frames.size();
            defs.pop_front();
            forgot = true;
        }
        it = defs.empty() ? definitions_.erase(it) : std::next(it);
    }
    return forgot;
}

bool StackKeys::read_ahead(uint64_t key, uint64_t position) {
    if (!ahead_ && !ahead_done_) {
        Result<EtlReader> opened = open_();
        ahead_done_ = !opened;
        if (opened) {
            ahead_.emplace(std::move(opened.value()));
        }
    }
    Event event;
    while (!ahead_done_) {
        if (kept_frames_ >= kMaxKeptFrames && !forget_before(position)) {
            ahead_done_ = true; // full of definitions still to come: resolve no further
            break;
        }
        if (!ahead_->next(event)) {
            ahead_done_ = true;
            break;
        }
        const uint64_t at = ahead_position_++;
        if (at > position && is_definition(event)) {
            keep(event);
            if (pointer_at(event.payload, 0, event.pointer_size) == key) {
                return true;
            }
        }
    }
    return false;
}

const std::vector<uint64_t> *StackKeys::resolve(uint64_t key, uint64_t position) {
    auto it = definitions_.find(key);
    if (it != definitions_.end()) {
        std::deque<Definition> &defs = it->second;
        while (!defs.empty() && defs.front().position < position) { // definitions for earlier references
            kept_frames_ -= defs.front().frames.size();
            defs.pop_front();
        }
        if (!defs.empty()) {
            return &defs.front().frames;
        }
    }
    if (!read_ahead(key, position)) {
        return nullptr;
    }
    return &definitions_[key].back().frames;
}

} // namespace dtrace::etw::plugin
