// etl_reader_fuzzer.cpp: libFuzzer entry point for the ETL reader.
//
// The input is a whole file (an ETL or a ZIP archive holding one). The
// target opens it, pulls every event and touches everything an event points
// to (payload, record, extended items through their decoders) so that the
// sanitizers see any out-of-bounds span. Memory limits are lowered so that a
// hostile size field shows up as a skipped buffer, not as an out-of-memory
// report.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "reader/etl_reader.h"
#include "reader/fuzz/touch_event.h"

namespace {

constexpr uint64_t kFuzzBufferMemory = 256u << 20;
constexpr uint64_t kFuzzExtractedSize = 64u << 20;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace dtrace::etw;
    ReaderOptions options;
    options.max_buffer_memory = kFuzzBufferMemory;
    options.max_extracted_size = kFuzzExtractedSize;
    Result<EtlReader> reader =
        EtlReader::open_source(make_memory_source(std::vector<uint8_t>(data, data + size)), "fuzz.etl", options);
    if (!reader) {
        return 0;
    }
    uint64_t sum = 0;
    Event e;
    while (reader.value().next(e)) {
        sum += fuzz::touch_event(e);
    }
    volatile uint64_t sink = sum + reader.value().stats().problem_count;
    (void)sink;
    return 0;
}
