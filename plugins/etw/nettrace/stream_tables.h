// stream_tables.h: the rows events refer to: metadata, stacks, threads, label lists.
//
// An event names its metadata row by id, its stack by id, and in V6 its
// thread by index and its activity ids by label list id; the rows come in
// blocks earlier in the stream. Metadata rows live for the whole stream
// (kept in a deque so that the events waiting to be sorted can point at
// them even after a V6 stream redefines an id); stacks and label lists are
// valid until the next sequence point, which clears them; V6 threads until
// a sequence point that says so.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "nettrace/event_metadata.h"
#include "reader/guid.h"
#include "reader/result.h"

namespace dtrace::etw::nettrace {

// A metadata row with what every event of it shares, worked out once.
struct MetadataEntry {
    EventMetadata metadata;
    Guid provider;
    std::vector<uint8_t> items; // extended items: traits, schema (metadata_items.h)
    uint32_t item_types = 0;    // Event::extended_types of those
};

struct ThreadRow {
    uint32_t pid = 0xFFFFFFFF;
    uint32_t tid = 0xFFFFFFFF;
};

struct LabelRow {
    Guid activity;
    Guid related_activity;
};

class StreamTables {
  public:
    explicit StreamTables(uint32_t format_version) : format_version_(format_version) {}

    // Defines (or, V6, redefines) a metadata row.
    const MetadataEntry &define(EventMetadata metadata);
    const MetadataEntry *metadata(uint32_t id) const {
        if (id < small_.size()) {
            return small_[id];
        }
        auto it = large_.find(id);
        return it == large_.end() ? nullptr : it->second;
    }
    size_t metadata_count() const { return entries_.size(); }

    // A StackBlock's stacks; the bytes must outlive the next sequence point.
    // The error is a fragment naming the offset in the block.
    std::optional<std::string> add_stacks(std::span<const uint8_t> block);
    std::span<const uint8_t> stack(uint32_t id) const {
        auto it = stacks_.find(id);
        return it == stacks_.end() ? std::span<const uint8_t>{} : it->second;
    }

    // V6 Thread and LabelList blocks.
    std::optional<std::string> add_threads(std::span<const uint8_t> block);
    std::optional<std::string> add_labels(std::span<const uint8_t> block);
    const ThreadRow *thread(uint64_t index) const {
        auto it = threads_.find(index);
        return it == threads_.end() ? nullptr : &it->second;
    }
    const LabelRow *labels(uint32_t id) const {
        auto it = labels_.find(id);
        return it == labels_.end() ? nullptr : &it->second;
    }

    // A sequence point: stacks and label lists go; threads too if asked.
    void sequence_point(bool flush_threads);

  private:
    uint32_t format_version_;
    std::deque<MetadataEntry> entries_;
    std::vector<const MetadataEntry *> small_; // ids below kSmallIds, by id
    std::unordered_map<uint32_t, const MetadataEntry *> large_;
    std::unordered_map<uint32_t, std::span<const uint8_t>> stacks_;
    std::unordered_map<uint64_t, ThreadRow> threads_;
    std::unordered_map<uint32_t, LabelRow> labels_;
};

} // namespace dtrace::etw::nettrace
