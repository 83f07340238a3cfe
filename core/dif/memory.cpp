// memory.cpp: the checked accessor and the scratch arena.
#include "dif/memory.h"

#include "dif/vm_config.h"

#include <cstring>

namespace dtrace::dif {

const char kEmptyString[1] = "";

namespace {
// Regions kept across clauses so that the vector never reallocates in the
// steady state.
constexpr size_t kExpectedRegions = 32;
// A read-through string is read in pieces this long until its NUL.
constexpr size_t kExternalStringChunk = 64;
} // namespace

Memory::Memory(size_t scratch_size)
    // Deliberately not value-initialised: the operating system supplies the
    // pages only when a clause first uses them.
    : scratch_(new uint8_t[scratch_size]), capacity_(scratch_size) {
    regions_.reserve(kExpectedRegions);
}

void Memory::set_strtab(std::string_view strtab) {
    if (!strtab_.empty() && strtab_.data() != strtab.data())
        add_readable(strtab_.data(), strtab_.size());
    strtab_ = strtab;
    touched_ = true;
}

std::optional<Memory::Region> Memory::region_of(uint64_t address) const {
    if (Region r = scratch_arena(); r.contains(address, 1))
        return r;
    if (Region r = strtab_region(); r.contains(address, 1))
        return r;
    if (Region r{reinterpret_cast<uintptr_t>(kEmptyString), sizeof kEmptyString}; r.contains(address, 1))
        return r;
    for (auto it = regions_.rbegin(); it != regions_.rend(); ++it)
        if (it->contains(address, 1))
            return *it;
    return std::nullopt;
}

const uint8_t *Memory::readable(uint64_t address, size_t length) const {
    if (length == 0)
        return reinterpret_cast<const uint8_t *>(kEmptyString);
    if (scratch_arena().contains(address, length) || strtab_region().contains(address, length))
        return reinterpret_cast<const uint8_t *>(address);
    for (auto it = regions_.rbegin(); it != regions_.rend(); ++it)
        if (it->contains(address, length))
            return reinterpret_cast<const uint8_t *>(address);
    if (Region r{reinterpret_cast<uintptr_t>(kEmptyString), sizeof kEmptyString}; r.contains(address, length))
        return reinterpret_cast<const uint8_t *>(address);
    return external_ ? copy_external(address, length) : nullptr;
}

const uint8_t *Memory::copy_external(uint64_t address, size_t length) const {
    touched_ = true;
    std::string &copy = external_copies_.emplace_back(length, '\0');
    if (external_->read_target(address, copy.data(), length) != static_cast<int64_t>(length)) {
        external_copies_.pop_back();
        return nullptr;
    }
    return reinterpret_cast<const uint8_t *>(copy.data());
}

std::optional<std::string_view> Memory::external_string(uint64_t address, size_t limit) const {
    touched_ = true;
    std::string &copy = external_copies_.emplace_back();
    char chunk[kExternalStringChunk];
    while (copy.size() < limit) {
        const size_t want = std::min(sizeof chunk, limit - copy.size());
        const int64_t got = external_->read_target(address + copy.size(), chunk, want);
        if (got <= 0) {
            external_copies_.pop_back();
            return std::nullopt; // unreadable before the NUL
        }
        const auto n = static_cast<size_t>(got);
        if (const void *nul = std::memchr(chunk, 0, n)) {
            copy.append(chunk, static_cast<const char *>(nul) - chunk);
            return std::string_view(copy);
        }
        copy.append(chunk, n);
    }
    return std::string_view(copy);
}

uint8_t *Memory::writable(uint64_t address, size_t length) {
    if (length == 0)
        return scratch_.get();
    return scratch_region().contains(address, length) ? reinterpret_cast<uint8_t *>(address) : nullptr;
}

std::optional<std::string_view> Memory::find_string(uint64_t address, size_t limit) const {
    auto region = region_of(address);
    if (!region)
        return external_ ? external_string(address, limit) : std::nullopt;
    const char *s = reinterpret_cast<const char *>(address);
    size_t available = region->length - (address - region->base);
    size_t scan = available < limit ? available : limit;
    if (const void *nul = std::memchr(s, 0, scan))
        return std::string_view(s, static_cast<const char *>(nul) - s);
    if (scan == limit)
        return std::string_view(s, limit);
    // Bytes without a NUL up to the end of the scratch arena: the string
    // ends there (a string in the rest of the arena, as stringof() of a
    // write's buffer reads on into it, finds a NUL long before).
    if (region->base == scratch_arena().base)
        return std::string_view(s, scan);
    return std::nullopt; // the region ends before the string does
}

uint8_t *Memory::allocate(uint64_t length, size_t align) {
    size_t start = (used_ + align - 1) & ~(align - 1);
    if (start > capacity_ || length > capacity_ - start)
        return nullptr;
    used_ = start + length;
    touched_ = true;
    return scratch_.get() + start;
}

void Memory::trim(const uint8_t *block, size_t used) {
    size_t start = static_cast<size_t>(block - scratch_.get());
    if (start + used <= used_)
        used_ = start + used;
}

} // namespace dtrace::dif
