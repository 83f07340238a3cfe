// stream_tables.cpp: filling and clearing the tables events refer to (see stream_tables.h).
#include "nettrace/stream_tables.h"

#include "nettrace/byte_cursor.h"
#include "nettrace/metadata_items.h"
#include "nettrace/provider_guid.h"
#include "reader/extended_items.h"
#include "reader/problem_log.h"

namespace dtrace::etw::nettrace {

namespace {

constexpr uint32_t kSmallIds = 1u << 16; // metadata ids are small and dense in practice
constexpr uint32_t kMaxStacksPerBlock = 1u << 24;

namespace thread_kind {
constexpr uint8_t kName = 1;
constexpr uint8_t kProcessId = 2;
constexpr uint8_t kThreadId = 3;
constexpr uint8_t kKeyValue = 4;
} // namespace thread_kind

namespace label_kind {
constexpr uint8_t kLast = 0x80;
constexpr uint8_t kActivityId = 1;
constexpr uint8_t kRelatedActivityId = 2;
constexpr uint8_t kTraceId = 3;
constexpr uint8_t kSpanId = 4;
constexpr uint8_t kKeyString = 5;
constexpr uint8_t kKeyVarint = 6;
constexpr uint8_t kOpCode = 7;
constexpr uint8_t kKeywords = 8;
constexpr uint8_t kLevel = 9;
constexpr uint8_t kVersion = 10;
constexpr size_t kTraceIdSize = 16;
} // namespace label_kind

uint32_t item_types_of(std::span<const uint8_t> chain) {
    uint32_t types = 0;
    Event holder;
    holder.extended = chain;
    for (ExtendedItem item : ExtendedItems(holder)) {
        types |= item.type < 32 ? 1u << item.type : 0;
    }
    return types;
}

} // namespace

const MetadataEntry &StreamTables::define(EventMetadata metadata) {
    MetadataEntry &e = entries_.emplace_back();
    e.provider = metadata.provider_guid.value_or(provider_guid_of(metadata.provider_name));
    e.items = metadata_items(metadata, format_version_);
    e.item_types = item_types_of(e.items);
    e.metadata = std::move(metadata);
    const uint32_t id = e.metadata.id;
    if (id < kSmallIds) {
        if (small_.size() <= id) {
            small_.resize(id + 1, nullptr);
        }
        small_[id] = &e;
    } else {
        large_[id] = &e;
    }
    return e;
}

std::optional<std::string> StreamTables::add_stacks(std::span<const uint8_t> block) {
    ByteCursor c(block);
    const uint32_t first = c.u32();
    const uint32_t count = c.u32();
    if (!c.ok() || count > kMaxStacksPerBlock) {
        return "a StackBlock header that does not fit (" + std::to_string(block.size()) + " bytes)";
    }
    for (uint32_t i = 0; i < count; ++i) {
        const size_t at = c.offset();
        const uint32_t size = c.u32();
        std::span<const uint8_t> frames = c.bytes(size);
        if (!c.ok()) {
            return "stack " + std::to_string(first + i) + " at offset " + hex_offset(at) +
                   " in the block runs past its end";
        }
        stacks_[first + i] = frames;
    }
    return std::nullopt;
}

std::optional<std::string> StreamTables::add_threads(std::span<const uint8_t> block) {
    ByteCursor c(block);
    while (c.ok() && !c.at_end()) {
        const size_t at = c.offset();
        const uint16_t size = c.u16();
        ByteCursor row(c.bytes(size));
        const uint64_t index = row.varuint();
        ThreadRow t;
        while (row.ok() && !row.at_end()) {
            switch (row.u8()) {
            case thread_kind::kName:
                row.utf8_counted();
                break;
            case thread_kind::kProcessId:
                t.pid = static_cast<uint32_t>(row.varuint());
                break;
            case thread_kind::kThreadId:
                t.tid = static_cast<uint32_t>(row.varuint());
                break;
            case thread_kind::kKeyValue:
                row.utf8_counted();
                row.utf8_counted();
                break;
            default:
                row = ByteCursor(); // an unknown kind: the rest of the row is unread
                break;
            }
        }
        if (!c.ok() || !row.ok()) {
            return "a thread row at offset " + hex_offset(at) + " in the block is malformed";
        }
        threads_[index] = t;
    }
    return std::nullopt;
}

std::optional<std::string> StreamTables::add_labels(std::span<const uint8_t> block) {
    ByteCursor c(block);
    const uint32_t first = c.u32();
    const uint32_t count = c.u32();
    for (uint32_t i = 0; i < count && c.ok(); ++i) {
        LabelRow labels;
        for (uint8_t kind = 0; c.ok() && (kind & label_kind::kLast) == 0;) {
            kind = c.u8();
            switch (kind & ~label_kind::kLast) {
            case label_kind::kActivityId:
                labels.activity = c.guid();
                break;
            case label_kind::kRelatedActivityId:
                labels.related_activity = c.guid();
                break;
            case label_kind::kTraceId:
                c.skip(label_kind::kTraceIdSize);
                break;
            case label_kind::kSpanId:
            case label_kind::kKeywords:
                c.u64();
                break;
            case label_kind::kKeyString:
                c.utf8_counted();
                c.utf8_counted();
                break;
            case label_kind::kKeyVarint:
                c.utf8_counted();
                c.varuint();
                break;
            case label_kind::kOpCode:
            case label_kind::kLevel:
            case label_kind::kVersion:
                c.u8();
                break;
            default:
                c.fail();
                break;
            }
        }
        if (c.ok()) {
            labels_[first + i] = labels;
        }
    }
    if (!c.ok()) {
        return std::string("a label list is malformed or of a kind this reader does not know");
    }
    return std::nullopt;
}

void StreamTables::sequence_point(bool flush_threads) {
    stacks_.clear();
    labels_.clear();
    if (flush_threads) {
        threads_.clear();
    }
}

} // namespace dtrace::etw::nettrace
