// test_support.h: reading a nettrace stream held in memory, for the tests.
#pragma once

#include <memory>
#include <vector>

#include "nettrace/nettrace_reader.h"
#include "reader/event.h"

namespace dtrace::etw::nettrace::test {

struct ReadEvent {
    Event event;
    std::vector<uint8_t> payload;
    std::vector<uint8_t> extended;
};

Result<std::unique_ptr<NetTraceReader>> open_bytes(const std::vector<uint8_t> &bytes,
                                                   const NetTraceOptions &options = {});
// Every event, with copies of what its spans point to.
std::vector<ReadEvent> read_all(NetTraceReader &reader);

} // namespace dtrace::etw::nettrace::test
