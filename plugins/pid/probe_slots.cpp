// probe_slots.cpp: stable storage of the pid provider's probe slots.
#include "probe_slots.h"

namespace dtrace::pid {

std::optional<uint32_t> ProbeSlots::slot_for(const std::string &key, bool &created) {
    std::lock_guard guard(mutex_);
    created = false;
    if (auto found = by_key_.find(key); found != by_key_.end())
        return found->second;
    const uint32_t index = count_.load(std::memory_order_relaxed);
    if (index >= UPROBE_MAX_SLOTS)
        return std::nullopt;
    std::unique_ptr<ProbeSlot[]> &chunk = chunks_[index / kChunk];
    if (!chunk)
        chunk = std::make_unique<ProbeSlot[]>(kChunk);
    by_key_.emplace(key, index);
    created = true;
    count_.store(index + 1, std::memory_order_release);
    return index;
}

ProbeSlot *ProbeSlots::get(uint32_t index) const {
    if (index >= count())
        return nullptr;
    return &chunks_[index / kChunk][index % kChunk];
}

} // namespace dtrace::pid
