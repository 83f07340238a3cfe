// dynamic_store.cpp: open addressing over individually allocated elements.
#include "dif/dynamic_store.h"

#include <cstring>
#include <new>

namespace dtrace::dif {

// The header, then the tuple words, then (8-byte aligned) the value bytes.
struct DynamicStore::Element {
    size_t size; // of the whole allocation
    uint64_t hash;
    uint64_t variable;
    uint64_t thread;
    uint32_t tuple_words;
    uint32_t value_size;

    uint64_t *tuple() {
        static_assert(sizeof(Element) % sizeof(uint64_t) == 0, "tuple words stay aligned");
        return reinterpret_cast<uint64_t *>(this + 1);
    }
    uint8_t *value() { return reinterpret_cast<uint8_t *>(tuple() + tuple_words); }
    bool matches(const DynamicKey &k) {
        return variable == k.variable && thread == k.thread && tuple_words == k.tuple.size() &&
               (k.tuple.empty() || std::memcmp(tuple(), k.tuple.data(), k.tuple.size_bytes()) == 0);
    }
};

namespace {

constexpr unsigned kInitialSlotBits = 6;
constexpr unsigned kHashBits = 64;
constexpr size_t kMaxLoadDivisor = 2; // grow beyond half full
constexpr size_t kValueAlignment = 8;
// Multiplicative (Fibonacci) hashing: each word is folded in with a multiply
// by 2^64 / golden ratio, and slots are indexed by the top bits of the
// result, which depend on every bit of the key.
constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ull;

constexpr size_t round_up(size_t n, size_t to) {
    return (n + to - 1) / to * to;
}

uint64_t hash_key(const DynamicKey &key) {
    uint64_t h = (key.variable ^ key.tuple.size()) * kMultiplier;
    h = (h ^ key.thread) * kMultiplier;
    for (uint64_t word : key.tuple)
        h = (h ^ word) * kMultiplier;
    return h;
}

} // namespace

DynamicStore::DynamicStore(size_t budget)
    : slots_(size_t(1) << kInitialSlotBits, Slot{0, nullptr}), shift_(kHashBits - kInitialSlotBits), budget_(budget) {}

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

size_t DynamicStore::slot_of(const DynamicKey &key, uint64_t hash) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = home(hash);; i = (i + 1) & mask) {
        const Slot &s = slots_[i];
        if (!s.element || (s.hash == hash && s.element->matches(key)))
            return i;
    }
}

uint8_t *DynamicStore::find(const DynamicKey &key) {
    if (recent_ && recent_->matches(key))
        return recent_->value();
    const Slot &s = slots_[slot_of(key, hash_key(key))];
    if (!s.element)
        return nullptr;
    recent_ = s.element;
    return s.element->value();
}

uint8_t *DynamicStore::find_or_insert(const DynamicKey &key, size_t value_size) {
    if (recent_ && recent_->matches(key))
        return recent_->value();
    uint64_t hash = hash_key(key);
    size_t i = slot_of(key, hash);
    if (slots_[i].element) {
        recent_ = slots_[i].element;
        return recent_->value();
    }
    size_t size = sizeof(Element) + key.tuple.size_bytes() + round_up(value_size, kValueAlignment);
    // Charge the slots an element keeps occupied at the maximum load, too.
    size_t charge = size + kMaxLoadDivisor * sizeof(Slot);
    if (used_ > budget_ || charge > budget_ - used_) {
        drops_++;
        return nullptr;
    }
    if ((count_ + 1) * kMaxLoadDivisor > slots_.size()) {
        grow();
        i = slot_of(key, hash);
    }
    Element *e = new_element(size);
    e->hash = hash;
    e->variable = key.variable;
    e->thread = key.thread;
    e->tuple_words = static_cast<uint32_t>(key.tuple.size());
    e->value_size = static_cast<uint32_t>(value_size);
    if (!key.tuple.empty())
        std::memcpy(e->tuple(), key.tuple.data(), key.tuple.size_bytes());
    std::memset(e->value(), 0, round_up(value_size, kValueAlignment));
    slots_[i] = Slot{hash, e};
    count_++;
    used_ += charge;
    recent_ = e;
    return e->value();
}

void DynamicStore::erase(const DynamicKey &key) {
    size_t mask = slots_.size() - 1;
    size_t hole = slot_of(key, hash_key(key));
    Element *e = slots_[hole].element;
    if (!e)
        return;
    if (e == recent_)
        recent_ = nullptr;
    retired_.push_back(e);
    used_ -= e->size + kMaxLoadDivisor * sizeof(Slot);
    count_--;
    // Backward-shift deletion: move later members of the probe run into the
    // hole when their home slot does not lie cyclically in (hole, j].
    for (size_t j = (hole + 1) & mask; slots_[j].element; j = (j + 1) & mask) {
        size_t h = home(slots_[j].hash);
        bool home_after_hole = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j);
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
    shift_--;
    size_t mask = slots_.size() - 1;
    for (const Slot &s : old) {
        if (!s.element)
            continue;
        size_t i = home(s.hash);
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

void DynamicStore::reclaim_retired() {
    for (Element *e : retired_)
        release(e);
    retired_.clear();
}

} // namespace dtrace::dif
