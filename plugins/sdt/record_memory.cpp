// record_memory.cpp: serving a firing's records and texts.
#include "record_memory.h"

#include <algorithm>
#include <cstring>

namespace dtrace::sdt {

Record &RecordMemory::record(uint64_t &address) {
    if (records_used_ == records_.size())
        records_.emplace_back();
    Record &r = records_[records_used_];
    r.fill(0);
    address = kRecordBase + records_used_ * kRecordBytes;
    ++records_used_;
    return r;
}

uint64_t RecordMemory::text(std::string_view text) {
    texts_.emplace_back(text.substr(0, kTextSlot - 1));
    return kTextBase + (texts_.size() - 1) * kTextSlot;
}

int64_t RecordMemory::read(uint64_t address, void *buffer, size_t length) const {
    if (address >= kRecordBase && address < kTextBase) {
        const uint64_t offset = address - kRecordBase;
        const uint64_t index = offset / kRecordBytes, within = offset % kRecordBytes;
        if (index >= records_used_)
            return -1;
        const size_t n = std::min<size_t>(length, kRecordBytes - within);
        std::memcpy(buffer, reinterpret_cast<const uint8_t *>(records_[index].data()) + within, n);
        return static_cast<int64_t>(n);
    }
    if (address >= kTextBase && address < kEnd) {
        const uint64_t offset = address - kTextBase;
        const uint64_t index = offset / kTextSlot, within = offset % kTextSlot;
        if (index >= texts_.size())
            return -1;
        const std::string &t = texts_[index];
        if (within > t.size())
            return -1;
        const size_t n = std::min<size_t>(length, t.size() + 1 - within); // with the NUL
        std::memcpy(buffer, t.c_str() + within, n);
        return static_cast<int64_t>(n);
    }
    return -1;
}

} // namespace dtrace::sdt
