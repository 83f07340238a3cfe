// fetched_memory.h: answering a clause's read of memory from what a
// plugin's BPF program fetched at the event (fbt's kernel loads, pid's
// copyin() and copyinstr()): each fetch is `length` bytes (a string's with
// its NUL; negative: the read failed) of `address`, at `data_offset` in the
// event's fetched bytes.
#ifndef DTRACE_PLUGINS_COMMON_FETCHED_MEMORY_H
#define DTRACE_PLUGINS_COMMON_FETCHED_MEMORY_H

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

namespace dtrace::plugin_common {

// `length` bytes at `address` from fetch `f` (fewer for a string whose NUL
// it holds): the count, or nothing when `f` does not hold them.
template <typename Fetched>
std::optional<int64_t> read_from_fetch(const Fetched &f, bool is_string, std::span<const uint8_t> data,
                                       uint64_t address, void *buffer, size_t length) {
    if (f.length <= 0)
        return std::nullopt;
    const auto held = static_cast<uint64_t>(f.length);
    if (address < f.address || address - f.address >= held || f.data_offset > data.size() ||
        held > data.size() - f.data_offset)
        return std::nullopt;
    const uint64_t within = address - f.address;
    const uint8_t *bytes = data.data() + f.data_offset + within;
    const uint64_t available = held - within;
    if (length <= available) {
        std::memcpy(buffer, bytes, length);
        return static_cast<int64_t>(length);
    }
    // A string ends in what was read: a shorter answer ends at its NUL.
    if (is_string && std::memchr(bytes, 0, available) != nullptr) {
        std::memcpy(buffer, bytes, available);
        return static_cast<int64_t>(available);
    }
    return std::nullopt;
}

} // namespace dtrace::plugin_common

#endif
