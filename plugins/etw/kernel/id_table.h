// id_table.h: what the trace said of each thread or process, by its id.
//
// Every event looks up its process (execname) and every context switch two
// threads, so this is an open-addressing table (linear probing, at most 3/4
// full, Fibonacci hashing of the id) rather than a node-based map: a lookup
// is a multiply and, mostly, one cache line. Entries stay until a later
// event replaces them; growing the table moves them, so a pointer to an
// entry lasts until the next insertion.
#pragma once

#include <cstdint>
#include <vector>

namespace dtrace::etw::plugin::kernel {

template <typename Info> class IdTable {
  public:
    // The id's entry, added (default values) if it had none.
    Info &operator[](uint32_t id) {
        if (count_ == max_count_) {
            grow();
        }
        Slot &slot = slots_[position(id)];
        if (!slot.used) {
            slot.id = id;
            slot.used = true;
            slot.info = Info{};
            ++count_;
        }
        return slot.info;
    }
    // nullptr for an id that has no entry.
    const Info *find(uint32_t id) const {
        if (slots_.empty()) {
            return nullptr;
        }
        const Slot &slot = slots_[position(id)];
        return slot.used ? &slot.info : nullptr;
    }

  private:
    static constexpr size_t kInitialSlots = 64;
    static constexpr uint64_t kFibonacci = 0x9E3779B97F4A7C15ull;

    struct Slot {
        uint32_t id = 0;
        bool used = false;
        Info info;
    };

    // The slot holding id, or the free one where it would go.
    size_t position(uint32_t id) const {
        const Slot *slots = slots_.data();
        size_t i = static_cast<size_t>((id * kFibonacci) >> shift_);
        while (slots[i].used && slots[i].id != id) {
            i = (i + 1) & mask_;
        }
        return i;
    }
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_ = std::vector<Slot>(old.empty() ? kInitialSlots : old.size() * 2);
        mask_ = slots_.size() - 1;
        max_count_ = slots_.size() / 4 * 3;
        shift_ = 64;
        for (size_t n = slots_.size(); n > 1; n >>= 1) {
            --shift_;
        }
        for (Slot &s : old) {
            if (s.used) {
                slots_[position(s.id)] = std::move(s);
            }
        }
    }

    std::vector<Slot> slots_; // a power of two of them
    size_t mask_ = 0;         // slots - 1
    unsigned shift_ = 64;     // 64 - log2(slots)
    size_t count_ = 0;
    size_t max_count_ = 0; // 3/4 of the slots: grow before passing it
};

} // namespace dtrace::etw::plugin::kernel
