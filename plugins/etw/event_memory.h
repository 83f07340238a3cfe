// event_memory.h: the memory D reads through the pointers an event hands it.
//
// Replayed events have no process to read from: what a script reaches with
// copyin/copyinstr is what the plugin hands out as arguments, laid out as the
// Windows ports lay it out:
//   - the payload behind 4 bytes (u16 event id, u8 version, u8 1 if the
//     logger was 64-bit else 0), the Dtrace-ETW convention for
//     <provider-name>:::events' arg2 and diag:::events' arg4;
//   - the event as Windows' consumer API presents it: the 0x50-byte
//     EVENT_HEADER (evntcons.h) followed by the payload, Microsoft's
//     convention for etw probes' arg0;
//   - the provider name (diag's arg0), a string that outlives the event;
//   - the strings and other by-address values of decoded fields
//     (payload_decoder.h).
// Each is built on first use for the current event, in buffers reused from
// event to event, and registered as a readable region; the prefixed payload,
// which diag:::events hands out for every event, is copied only when D reads
// it. Each layout has its own region slot, so handing one out is two stores
// (this runs for every event). The reader function serves exactly the
// current event's regions and refuses any other address, so a script cannot
// read outside them whatever number it passes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "reader/event.h"

namespace dtrace::etw::plugin {

// Bytes before the payload in the prefixed layout.
inline constexpr size_t kPayloadPrefixSize = 4;

class EventMemory {
  public:
    // Forgets the regions of the previous event.
    void begin(const Event &event) {
        event_ = &event;
        regions_ = {};
    }

    // Addresses of the layouts above, for the current event. Every event
    // hands out its prefixed payload and label to diag:::events: those two
    // are inline.
    uint64_t prefixed_payload() {
        Region &r = regions_[kPrefixed];
        if (r.size == 0) { // its bytes are written when D reads them (fill_prefixed)
            const size_t size = kPayloadPrefixSize + event_->payload.size();
            if (prefixed_.size() < size) {
                prefixed_.resize(size);
            }
            prefixed_filled_ = false;
            r = {prefixed_.data(), size};
        }
        return reinterpret_cast<uint64_t>(r.base) + kPayloadPrefixSize;
    }
    uint64_t header_and_payload();
    uint64_t header_and_payload_size() const;
    // The provider's name; s must outlive the event.
    uint64_t label(const std::string &s) {
        return set_region(kLabel, reinterpret_cast<const uint8_t *>(s.c_str()), s.size() + 1);
    }
    // Bytes the caller keeps unchanged until the next event (decoded fields).
    uint64_t bytes(const std::vector<uint8_t> &b) { return set_region(kBytes, b.data(), b.size()); }

    // dtrace_memory_read_fn over an EventMemory.
    static int64_t read(void *state, uint64_t address, void *buffer, size_t length);

  private:
    struct Region {
        const uint8_t *base = nullptr;
        size_t size = 0;
    };
    // One slot per layout; an empty slot (size 0) matches no address.
    enum Slot : size_t { kLabel, kPrefixed, kHeader, kBytes, kSlots };

    uint64_t set_region(Slot slot, const uint8_t *base, size_t size) {
        regions_[slot] = {base, size};
        return reinterpret_cast<uint64_t>(base);
    }
    void fill_prefixed();

    const Event *event_ = nullptr;
    std::vector<uint8_t> prefixed_;
    std::vector<uint8_t> header_;
    bool prefixed_filled_ = false;
    std::array<Region, kSlots> regions_{};
};

} // namespace dtrace::etw::plugin
