// address_ranges.h: values placed at address ranges of a process.
//
// Images (kernel/module_map.h) and jitted methods (clr_methods.h) occupy
// [start, start + size). A range placed over others replaces whatever it
// overlaps: the later event describes the address space as it is now.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

namespace dtrace::etw::plugin {

template <class Value> class AddressRanges {
  public:
    struct Found {
        const Value &value;
        uint64_t offset; // address minus the range's start
    };

    void place(uint64_t start, uint64_t size, Value value) {
        auto it = ranges_.lower_bound(start);
        if (it != ranges_.begin() && std::prev(it)->first + std::prev(it)->second.size > start) {
            --it;
        }
        while (it != ranges_.end() && it->first < start + size) {
            it = ranges_.erase(it);
        }
        ranges_.emplace(start, Range{size, std::move(value)});
    }

    // The range holding address, if any.
    std::optional<Found> find(uint64_t address) const {
        auto it = ranges_.upper_bound(address);
        if (it == ranges_.begin()) {
            return std::nullopt;
        }
        --it;
        if (address - it->first >= it->second.size) {
            return std::nullopt;
        }
        return Found{it->second.value, address - it->first};
    }

  private:
    struct Range {
        uint64_t size = 0;
        Value value;
    };
    std::map<uint64_t, Range> ranges_; // by start address
};

} // namespace dtrace::etw::plugin
