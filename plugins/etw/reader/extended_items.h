// extended_items.h: reading the extended data items of EVENT_HEADER records.
//
// The reader validates the item chain when it parses a record and keeps it as
// one span (Event::extended), so events stay allocation-free; these helpers
// walk that span and decode the item types consumers need: related activity
// ids, SIDs, terminal session ids, instance info, stack traces (with their
// match id), event keys, provider traits (the TraceLogging provider name) and
// the TraceLogging schema (decoded by the plugin, not here). Type numbers are
// EVENT_HEADER_EXT_TYPE_* from evntcons.h (etw-formats.md 1.5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "reader/event.h"
#include "reader/guid.h"

namespace dtrace::etw {

namespace ext_type {
inline constexpr uint16_t kRelatedActivityId = 0x0001;
inline constexpr uint16_t kSid = 0x0002;
inline constexpr uint16_t kTsId = 0x0003;
inline constexpr uint16_t kInstanceInfo = 0x0004;
inline constexpr uint16_t kStackTrace32 = 0x0005;
inline constexpr uint16_t kStackTrace64 = 0x0006;
inline constexpr uint16_t kPebsIndex = 0x0007;
inline constexpr uint16_t kPmcCounters = 0x0008;
inline constexpr uint16_t kPsmKey = 0x0009;
inline constexpr uint16_t kEventKey = 0x000A;
inline constexpr uint16_t kEventSchemaTl = 0x000B;
inline constexpr uint16_t kProvTraits = 0x000C;
inline constexpr uint16_t kProcessStartKey = 0x000D;
inline constexpr uint16_t kControlGuid = 0x000E;
inline constexpr uint16_t kQpcDelta = 0x000F;
inline constexpr uint16_t kContainerId = 0x0010;
inline constexpr uint16_t kStackKey32 = 0x0011;
inline constexpr uint16_t kStackKey64 = 0x0012;
} // namespace ext_type

struct ExtendedItem {
    uint16_t type = 0;
    std::span<const uint8_t> data;
};

// Iterates the items of an already validated chain (Event::extended).
class ExtendedItems {
  public:
    class iterator {
      public:
        using value_type = ExtendedItem;
        using difference_type = std::ptrdiff_t;
        iterator() = default;
        iterator(std::span<const uint8_t> rest) : rest_(rest) {}
        ExtendedItem operator*() const;
        iterator &operator++();
        bool operator==(const iterator &other) const { return rest_.size() == other.rest_.size(); }

      private:
        std::span<const uint8_t> rest_;
    };

    explicit ExtendedItems(const Event &event) : items_(event.extended) {}
    iterator begin() const { return iterator(items_); }
    iterator end() const { return iterator(items_.subspan(items_.size())); }

  private:
    std::span<const uint8_t> items_;
};

// The first item of a type, if the event has one.
std::optional<ExtendedItem> find_extended_item(const Event &event, uint16_t type);

struct InstanceInfo {
    uint32_t instance_id = 0;
    uint32_t parent_instance_id = 0;
    Guid parent_guid;
};

// A STACK_TRACE32/64 item: the match id relates the user and kernel halves of
// one stack; frames are 4 or 8 bytes each.
struct StackTrace {
    uint64_t match_id = 0;
    uint8_t pointer_size = 8;
    std::span<const uint8_t> frames;

    size_t depth() const { return frames.size() / pointer_size; }
    uint64_t frame(size_t index) const;
};

// Typed decoders; nothing if the item's data is too short for its type.
std::optional<Guid> related_activity_id(const ExtendedItem &item);
std::optional<uint32_t> terminal_session_id(const ExtendedItem &item);
std::optional<InstanceInfo> instance_info(const ExtendedItem &item);
std::optional<StackTrace> stack_trace(const ExtendedItem &item);
// EVENT_KEY, PROCESS_START_KEY: one u64.
std::optional<uint64_t> extended_u64(const ExtendedItem &item);
// PROV_TRAITS: u16 total size, then the provider name (UTF-8, NUL-terminated).
std::optional<std::string_view> provider_traits_name(const ExtendedItem &item);

} // namespace dtrace::etw
