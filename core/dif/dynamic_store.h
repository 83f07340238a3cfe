// dynamic_store.h: the storage behind D's dynamic variables — thread-local
// variables and associative array elements — under the dynvarsize budget.
//
// Elements are named by opaque key bytes (variable, thread and tuple, built
// by Variables) and hold fixed-size values. It is an open-addressing hash
// table (linear probing, backward-shift deletion) of pointers to
// individually allocated elements, so that:
//   - a value's address is stable while the program holds it;
//   - erasing an element retires it rather than freeing it: its memory stays
//     valid until reclaim(), which the VM calls at the next clause start, so a
//     string loaded from a variable the same clause then deletes can still be
//     read safely;
//   - retired elements are pooled by size and reused, so the common
//     "self->ts = timestamp ... self->ts = 0" cycle allocates nothing in the
//     steady state, and lookups that hit never allocate.
// A new element that would take the table over its budget is not created
// and is counted as a drop (DTrace's "dynamic variable drops").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace dtrace::dif {

class DynamicStore {
  public:
    explicit DynamicStore(size_t budget);
    ~DynamicStore();
    DynamicStore(const DynamicStore &) = delete;
    DynamicStore &operator=(const DynamicStore &) = delete;

    // The value bytes of `key`, or nullptr when it has no element.
    uint8_t *find(std::string_view key) const;
    // The value bytes of `key`, created (zero-filled, `value_size` bytes)
    // when absent; nullptr when creating it would exceed the budget.
    uint8_t *find_or_insert(std::string_view key, size_t value_size);
    void erase(std::string_view key);
    // Frees (or pools) the elements erased since the last call.
    void reclaim();

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

    size_t slot_of(std::string_view key,
                   uint64_t hash) const; // index of key's slot or of the empty slot ending its probe
    void grow();
    Element *new_element(size_t size);
    void release(Element *element);

    std::vector<Slot> slots_;
    size_t count_ = 0;
    size_t budget_;
    size_t used_ = 0;
    size_t pooled_ = 0;
    uint64_t drops_ = 0;
    std::vector<Element *> retired_;
    std::vector<Pool> pools_;
};

} // namespace dtrace::dif
