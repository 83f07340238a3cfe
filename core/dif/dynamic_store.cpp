// dynamic_store.cpp: open addressing over individually allocated elements.
#include "dif/dynamic_store.h"

#include <cstring>
#include <new>

namespace dtrace::dif {

// Header, then the key bytes, then (8-byte aligned) the value bytes.
struct DynamicStore::Element {
    size_t size; // of the whole allocation
    uint64_t hash;
    uint32_t key_length;
    uint32_t value_size;

    char *key() { return reinterpret_cast<char *>(this + 1); }
    std::string_view key_view() { return {key(), key_length}; }
    uint8_t *value();
};

namespace {

constexpr size_t kInitialSlots = 64;  // a power of two
constexpr size_t kMaxLoadDivisor = 2; // grow beyond half full
constexpr size_t kValueAlignment = 8;

constexpr size_t round_up(size_t n, size_t to) {
    return (n + to - 1) / to * to;
}

uint64_t hash_key(std::string_view key) {
    constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ull;
    constexpr size_t kWord = sizeof(uint64_t);
    uint64_t h = key.size() * kMultiplier;
    const char *p = key.data();
    size_t n = key.size();
    auto mix = [&](uint64_t word) {
        h = (h ^ word) * kMultiplier;
        h ^= h >> 29;
    };
    for (; n >= kWord; p += kWord, n -= kWord) {
        uint64_t word;
        std::memcpy(&word, p, kWord);
        mix(word);
    }
    if (n) {
        uint64_t word = 0;
        std::memcpy(&word, p, n);
        mix(word);
    }
    // Final avalanche (the 64-bit finaliser of MurmurHash3).
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

} // namespace

uint8_t *DynamicStore::Element::value() {
    return reinterpret_cast<uint8_t *>(key()) + round_up(key_length, kValueAlignment);
}

DynamicStore::DynamicStore(size_t budget) : slots_(kInitialSlots, Slot{0, nullptr}), budget_(budget) {}

DynamicStore::~DynamicStore() {
    for (Slot &s : slots_)
        if (s.element)
            ::operator delete(s.element);
    for (Element *e : retired_)
        ::operator delete(e);
    for (Pool &pool : pools_)
        for (Element *e : pool.free)
            ::operator delete(e);
}

size_t DynamicStore::slot_of(std::string_view key, uint64_t hash) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot &s = slots_[i];
        if (!s.element || (s.hash == hash && s.element->key_view() == key))
            return i;
    }
}

uint8_t *DynamicStore::find(std::string_view key) const {
    const Slot &s = slots_[slot_of(key, hash_key(key))];
    return s.element ? s.element->value() : nullptr;
}

uint8_t *DynamicStore::find_or_insert(std::string_view key, size_t value_size) {
    uint64_t hash = hash_key(key);
    size_t i = slot_of(key, hash);
    if (slots_[i].element)
        return slots_[i].element->value();
    size_t size = sizeof(Element) + round_up(key.size(), kValueAlignment) + round_up(value_size, kValueAlignment);
    // Charge the slots an element keeps occupied at the maximum load, too.
    size_t charge = size + kMaxLoadDivisor * sizeof(Slot);
    if (charge > budget_ - used_ || used_ > budget_) {
        drops_++;
        return nullptr;
    }
    if ((count_ + 1) * kMaxLoadDivisor > slots_.size()) {
        grow();
        i = slot_of(key, hash);
    }
    Element *e = new_element(size);
    e->hash = hash;
    e->key_length = static_cast<uint32_t>(key.size());
    e->value_size = static_cast<uint32_t>(value_size);
    std::memcpy(e->key(), key.data(), key.size());
    std::memset(e->value(), 0, round_up(value_size, kValueAlignment));
    slots_[i] = Slot{hash, e};
    count_++;
    used_ += charge;
    return e->value();
}

void DynamicStore::erase(std::string_view key) {
    size_t mask = slots_.size() - 1;
    size_t hole = slot_of(key, hash_key(key));
    Element *e = slots_[hole].element;
    if (!e)
        return;
    retired_.push_back(e);
    used_ -= e->size + kMaxLoadDivisor * sizeof(Slot);
    count_--;
    // Backward-shift deletion: move later members of the probe run into the
    // hole when their home slot does not lie cyclically in (hole, j].
    for (size_t j = (hole + 1) & mask; slots_[j].element; j = (j + 1) & mask) {
        size_t home = slots_[j].hash & mask;
        bool home_after_hole = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!home_after_hole) {
            slots_[hole] = slots_[j];
            hole = j;
        }
    }
    slots_[hole] = Slot{0, nullptr};
}

void DynamicStore::grow() {
    std::vector<Slot> old(slots_.size() * 2, Slot{0, nullptr});
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (const Slot &s : old) {
        if (!s.element)
            continue;
        size_t i = s.hash & mask;
        while (slots_[i].element)
            i = (i + 1) & mask;
        slots_[i] = s;
    }
}

DynamicStore::Element *DynamicStore::new_element(size_t size) {
    for (Pool &pool : pools_) {
        if (pool.size == size && !pool.free.empty()) {
            Element *e = pool.free.back();
            pool.free.pop_back();
            pooled_ -= size;
            return e;
        }
    }
    auto *e = static_cast<Element *>(::operator new(size));
    e->size = size;
    return e;
}

void DynamicStore::release(Element *e) {
    // Pool at most what the budget could hold live; free the rest.
    if (pooled_ + e->size > budget_) {
        ::operator delete(e);
        return;
    }
    for (Pool &pool : pools_) {
        if (pool.size == e->size) {
            pool.free.push_back(e);
            pooled_ += e->size;
            return;
        }
    }
    pools_.push_back(Pool{e->size, {e}});
    pooled_ += e->size;
}

void DynamicStore::reclaim() {
    for (Element *e : retired_)
        release(e);
    retired_.clear();
}

} // namespace dtrace::dif
