// nettrace_reader_fuzzer.cpp: libFuzzer entry point for the nettrace reader.
//
// The input is a whole stream (or a ZIP archive holding one). The target
// opens it, pulls every event and touches everything an event points to
// (payload, extended items through their decoders) so that the sanitizers
// see any out-of-bounds span. Block and pending-memory limits are lowered
// so that a hostile size shows up as a reported problem, not as an
// out-of-memory report.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nettrace/nettrace_reader.h"
#include "reader/fuzz/touch_event.h"

namespace {

constexpr uint64_t kFuzzBlockSize = 16u << 20;
constexpr uint64_t kFuzzPendingBytes = 16u << 20;
constexpr uint64_t kFuzzExtractedSize = 64u << 20;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace dtrace::etw;
    nettrace::NetTraceOptions options;
    options.max_block_size = kFuzzBlockSize;
    options.max_pending_bytes = kFuzzPendingBytes;
    options.max_extracted_size = kFuzzExtractedSize;
    auto opened = nettrace::NetTraceReader::open_source(make_memory_source(std::vector<uint8_t>(data, data + size)),
                                                        "fuzz.nettrace", options);
    if (!opened) {
        return 0;
    }
    uint64_t sum = 0;
    Event e;
    while (opened.value()->next(e)) {
        sum += fuzz::touch_event(e);
    }
    volatile uint64_t sink = sum + opened.value()->stats().problem_count;
    (void)sink;
    return 0;
}
