// extended_items.cpp: walking and decoding extended data items (see extended_items.h).
#include "reader/extended_items.h"

#include <cstring>

#include "reader/event_header_record.h"
#include "reader/le_bytes.h"

namespace dtrace::etw {

namespace {
namespace L = extended_item_layout;

// EVENT_EXTENDED_ITEM_* payload layouts.
constexpr size_t kTsIdSize = 4;
constexpr size_t kInstanceIdAt = 0;
constexpr size_t kParentInstanceIdAt = 4;
constexpr size_t kParentGuidAt = 8;
constexpr size_t kInstanceInfoSize = kParentGuidAt + Guid::kSize;
constexpr size_t kStackMatchIdSize = 8;
constexpr size_t kTraitsTotalSizeSize = 2;
constexpr size_t kU64Size = 8;
} // namespace

ExtendedItem ExtendedItems::iterator::operator*() const {
    ExtendedItem item;
    item.type = load_u16(rest_.data() + L::kType);
    item.data = rest_.subspan(L::kHeaderSize, load_u16(rest_.data() + L::kDataSize));
    return item;
}

ExtendedItems::iterator &ExtendedItems::iterator::operator++() {
    rest_ = rest_.subspan(load_u16(rest_.data() + L::kSize));
    return *this;
}

std::optional<ExtendedItem> find_extended_item(const Event &event, uint16_t type) {
    for (ExtendedItem item : ExtendedItems(event)) {
        if (item.type == type) {
            return item;
        }
    }
    return std::nullopt;
}

uint64_t StackTrace::frame(size_t index) const {
    const uint8_t *p = frames.data() + index * pointer_size;
    return pointer_size == 4 ? load_u32(p) : load_u64(p);
}

std::optional<Guid> related_activity_id(const ExtendedItem &item) {
    if (item.data.size() < Guid::kSize) {
        return std::nullopt;
    }
    return Guid::from_bytes(item.data.data());
}

std::optional<uint32_t> terminal_session_id(const ExtendedItem &item) {
    if (item.data.size() < kTsIdSize) {
        return std::nullopt;
    }
    return load_u32(item.data.data());
}

std::optional<InstanceInfo> instance_info(const ExtendedItem &item) {
    if (item.data.size() < kInstanceInfoSize) {
        return std::nullopt;
    }
    const uint8_t *p = item.data.data();
    InstanceInfo info;
    info.instance_id = load_u32(p + kInstanceIdAt);
    info.parent_instance_id = load_u32(p + kParentInstanceIdAt);
    info.parent_guid = Guid::from_bytes(p + kParentGuidAt);
    return info;
}

std::optional<StackTrace> stack_trace(const ExtendedItem &item) {
    if ((item.type != ext_type::kStackTrace32 && item.type != ext_type::kStackTrace64) ||
        item.data.size() < kStackMatchIdSize) {
        return std::nullopt;
    }
    StackTrace stack;
    stack.pointer_size = item.type == ext_type::kStackTrace32 ? 4 : 8;
    stack.match_id = load_u64(item.data.data());
    auto frames = item.data.subspan(kStackMatchIdSize);
    stack.frames = frames.first(frames.size() - frames.size() % stack.pointer_size);
    return stack;
}

std::optional<uint64_t> extended_u64(const ExtendedItem &item) {
    if (item.data.size() < kU64Size) {
        return std::nullopt;
    }
    return load_u64(item.data.data());
}

std::optional<std::string_view> provider_traits_name(const ExtendedItem &item) {
    if (item.data.size() < kTraitsTotalSizeSize) {
        return std::nullopt;
    }
    auto text = item.data.subspan(kTraitsTotalSizeSize);
    const void *nul = std::memchr(text.data(), 0, text.size());
    if (nul == nullptr) {
        return std::nullopt;
    }
    size_t length = static_cast<const uint8_t *>(nul) - text.data();
    return std::string_view(reinterpret_cast<const char *>(text.data()), length);
}

} // namespace dtrace::etw
