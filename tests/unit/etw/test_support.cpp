// test_support.cpp: see test_support.h.
#include "test_support.h"

#include <gtest/gtest.h>

#include "reader/le_bytes.h"

namespace dtrace::etw::test {

Result<EtlReader> open_bytes(Bytes bytes, const ReaderOptions &options) {
    return EtlReader::open_source(make_memory_source(std::move(bytes)), "fixture.etl", options);
}

std::vector<OwnedEvent> read_all(EtlReader &reader) {
    std::vector<OwnedEvent> events;
    Event e;
    while (reader.next(e)) {
        OwnedEvent owned;
        owned.record.assign(e.record.begin(), e.record.end());
        owned.payload.assign(e.payload.begin(), e.payload.end());
        owned.extended.assign(e.extended.begin(), e.extended.end());
        owned.event = e;
        owned.event.record = {};
        owned.event.payload = {};
        owned.event.extended = {};
        owned.event.pmc_counters = {};
        events.push_back(std::move(owned));
    }
    return events;
}

std::vector<OwnedEvent> read_bytes(Bytes bytes, const ReaderOptions &options) {
    Result<EtlReader> reader = open_bytes(std::move(bytes), options);
    if (!reader) {
        ADD_FAILURE() << reader.error();
        return {};
    }
    return read_all(reader.value());
}

uint64_t payload_u64(const OwnedEvent &e) {
    return e.payload.size() >= 8 ? load_u64(e.payload.data()) : ~uint64_t{0};
}

} // namespace dtrace::etw::test
