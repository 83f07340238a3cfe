// dynamic_store.h: the storage behind D's dynamic variables — thread-local
// variables and associative array elements — under the dynvarsize budget.
//
// An element is named by a DynamicKey (which variable, which thread, which
// tuple; built by Variables) and holds a fixed-size value. It is an
// open-addressing hash table (linear probing, backward-shift deletion) of
// pointers to individually allocated elements, so that:
//   - a value's address is stable while the program holds it;
//   - erasing an element retires it rather than freeing it: its memory stays
//     valid until reclaim(), which the VM calls at the next clause start, so a
//     string loaded from a variable the same clause then deletes can still be
//     read safely;
//   - retired elements are pooled by size and reused, so the common
//     "self->ts = timestamp ... self->ts = 0" cycle allocates nothing in the
//     steady state, and lookups never allocate.
// Keys are whole words end to end (the tuple stack writes them that way), so
// hashing and comparing them are word operations; the element used last is
// remembered, so a load and store of the same variable hash once.
// A new element that would take the table over its budget is not created
// and is counted as a drop (DTrace's "dynamic variable drops").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dtrace::dif {

struct DynamicKey {
    uint64_t variable; // scope, kind and id
    uint64_t thread;   // the thread for thread-local scopes, else 0
    std::span<const uint64_t> tuple;
};

class DynamicStore {
  public:
    explicit DynamicStore(size_t budget);
    ~DynamicStore();
    DynamicStore(const DynamicStore &) = delete;
    DynamicStore &operator=(const DynamicStore &) = delete;

    // The value bytes of `key`, or nullptr when it has no element.
    uint8_t *find(const DynamicKey &key);
    // The value bytes of `key`, created (zero-filled, `value_size` bytes)
    // when absent; nullptr when creating it would exceed the budget.
    uint8_t *find_or_insert(const DynamicKey &key, size_t value_size);
    void erase(const DynamicKey &key);
    // Frees (or pools) the elements erased since the last call (called
    // at every clause: nothing to do is the common case).
    void reclaim() {
        if (!retired_.empty())
            reclaim_retired();
    }

    uint64_t drops() const { return drops_; }
    size_t bytes_used() const { return used_; }
    size_t size() const { return count_; }

  private:
    struct Element;
    struct Slot {
        uint64_t hash;
        Element *element; // nullptr: empty
    };
    struct Pool {
        size_t size;
        std::vector<Element *> free;
    };

    // Index of key's slot, or of the empty slot that ends its probe.
    size_t slot_of(const DynamicKey &key, uint64_t hash) const;
    size_t home(uint64_t hash) const { return static_cast<size_t>(hash >> shift_); }
    void grow();
    Element *new_element(size_t size);
    void release(Element *element);
    void reclaim_retired();

    std::vector<Slot> slots_;
    unsigned shift_; // 64 - log2(slots_.size())
    size_t count_ = 0;
    // The element found or created last: a load followed by a store of the
    // same variable (self->x++) looks it up once.
    Element *recent_ = nullptr;
    size_t budget_;
    size_t used_ = 0;
    size_t pooled_ = 0;
    uint64_t drops_ = 0;
    std::vector<Element *> retired_;
    std::vector<Pool> pools_;
};

} // namespace dtrace::dif
