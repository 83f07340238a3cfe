// event_memory.cpp: per-event readable regions and the memory reader over them.
#include "event_memory.h"

#include <algorithm>
#include <cstring>

#include "event_header_image.h"

namespace dtrace::etw::plugin {

namespace {

constexpr size_t kPrefixId = 0;
constexpr size_t kPrefixVersion = 2;
constexpr size_t kPrefixArch = 3;
constexpr uint8_t kPointerSize64 = 8;

} // namespace

void EventMemory::fill_prefixed() {
    const std::span<const uint8_t> payload = event_->payload;
    prefixed_[kPrefixId] = static_cast<uint8_t>(event_->id);
    prefixed_[kPrefixId + 1] = static_cast<uint8_t>(event_->id >> 8);
    prefixed_[kPrefixVersion] = event_->version;
    prefixed_[kPrefixArch] = event_->pointer_size == kPointerSize64 ? 1 : 0;
    std::copy(payload.begin(), payload.end(), prefixed_.begin() + kPayloadPrefixSize);
    prefixed_filled_ = true;
}

uint64_t EventMemory::header_and_payload() {
    if (regions_[kHeader].size == 0) {
        const std::span<const uint8_t> payload = event_->payload;
        header_.resize(kEventHeaderImageSize + payload.size());
        write_event_header_image(*event_, header_.data());
        std::copy(payload.begin(), payload.end(), header_.begin() + kEventHeaderImageSize);
        set_region(kHeader, header_.data(), header_.size());
    }
    return reinterpret_cast<uint64_t>(regions_[kHeader].base);
}

uint64_t EventMemory::header_and_payload_size() const {
    return kEventHeaderImageSize + event_->payload.size();
}

int64_t EventMemory::read(void *state, uint64_t address, void *buffer, size_t length) {
    EventMemory &memory = *static_cast<EventMemory *>(state);
    for (size_t i = 0; i < kSlots; ++i) {
        const Region &r = memory.regions_[i];
        const uint64_t base = reinterpret_cast<uint64_t>(r.base);
        if (address >= base && address - base < r.size) {
            if (i == kPrefixed && !memory.prefixed_filled_) {
                memory.fill_prefixed();
            }
            const size_t n = std::min<size_t>(length, r.size - (address - base));
            std::memcpy(buffer, r.base + (address - base), n);
            return static_cast<int64_t>(n);
        }
    }
    return -1;
}

} // namespace dtrace::etw::plugin
