// record_memory.h: the translated-type twins of one firing, and their texts.
//
// A family's builder takes a record (kMaxRecordSlots 64-bit slots, zeroed)
// and text slots here; their addresses become the probe's native
// arguments, which the translators of sdt_library.h copy in through the
// firing's memory reader. Addresses are in the kernel half of the address
// space (no traced process's memory is there), clear of the live library's
// psinfo records and of the tracepoint copy (SDT_RAW_ADDRESS). Everything
// is forgotten at the next firing.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sdt_library.h"

namespace dtrace::sdt {

using Record = std::array<uint64_t, kMaxRecordSlots>;

class RecordMemory {
  public:
    static constexpr uint64_t kRecordBase = 0xfffffc0000000000ull;
    static constexpr uint64_t kTextBase = 0xfffffc4000000000ull;
    static constexpr uint64_t kEnd = 0xfffffc8000000000ull;

    // Forgets the previous firing's records and texts.
    void reset() {
        records_used_ = 0;
        texts_.clear();
    }
    // A zeroed record and its address.
    Record &record(uint64_t &address);
    // The address of a copy of text.
    uint64_t text(std::string_view text);

    static bool owns(uint64_t address) { return address >= kRecordBase && address < kEnd; }
    // Reads [address, address + length); -1 when nothing there is ours.
    int64_t read(uint64_t address, void *buffer, size_t length) const;

  private:
    static constexpr size_t kRecordBytes = sizeof(Record);
    static constexpr uint64_t kTextSlot = 0x1000; // address room per text
    std::vector<Record> records_;
    size_t records_used_ = 0;
    std::vector<std::string> texts_;
};

} // namespace dtrace::sdt
