// test_support.cpp: see test_support.h.
#include "test_support.h"

namespace dtrace::etw::nettrace::test {

Result<std::unique_ptr<NetTraceReader>> open_bytes(const std::vector<uint8_t> &bytes, const NetTraceOptions &options) {
    return NetTraceReader::open_source(make_memory_source(bytes), "mem.nettrace", options);
}

std::vector<ReadEvent> read_all(NetTraceReader &reader) {
    std::vector<ReadEvent> out;
    Event e;
    while (reader.next(e)) {
        ReadEvent &r = out.emplace_back();
        r.event = e;
        r.payload.assign(e.payload.begin(), e.payload.end());
        r.extended.assign(e.extended.begin(), e.extended.end());
        r.event.payload = r.payload;
        r.event.extended = r.extended;
    }
    return out;
}

} // namespace dtrace::etw::nettrace::test
