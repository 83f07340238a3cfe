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
#include "reader/extended_items.h"

namespace {

constexpr uint64_t kFuzzBufferMemory = 256u << 20;
constexpr uint64_t kFuzzExtractedSize = 64u << 20;

uint64_t touch(std::span<const uint8_t> bytes) {
    uint64_t sum = 0;
    for (uint8_t b : bytes) {
        sum += b;
    }
    return sum;
}

uint64_t touch_items(const dtrace::etw::Event &e) {
    using namespace dtrace::etw;
    uint64_t sum = 0;
    for (ExtendedItem item : ExtendedItems(e)) {
        sum += touch(item.data);
        if (auto stack = stack_trace(item)) {
            for (size_t i = 0; i < stack->depth(); ++i) {
                sum += stack->frame(i);
            }
        }
        if (auto name = provider_traits_name(item)) {
            sum += name->size();
        }
        sum += related_activity_id(item).value_or(Guid{}).data1;
        sum += instance_info(item).value_or(InstanceInfo{}).instance_id;
        sum += terminal_session_id(item).value_or(0) + extended_u64(item).value_or(0);
    }
    return sum;
}

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
        sum += touch(e.record) + touch(e.payload) + touch(e.pmc_counters) + touch_items(e);
        sum += static_cast<uint64_t>(e.time_ns);
    }
    volatile uint64_t sink = sum + reader.value().stats().problem_count;
    (void)sink;
    return 0;
}
