// pmc_sources_test.cpp: what the kernel logger's PMC events say (kernel/pmc_sources.h):
// source names from SampledProfileInterval, Windows' own names as the fallback, and the
// counter names of PmcCounterConfig, however the payload is cut or overstates its count.
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "kernel/pmc_sources.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw::plugin::kernel {
namespace {

using fixture::Bytes;
using fixture::put;

void put_wide(Bytes &b, std::u16string_view text) {
    for (char16_t c : text) {
        put(b, static_cast<uint16_t>(c));
    }
    put(b, uint16_t{0});
}

Event perfinfo(uint8_t opcode, const Bytes &payload) {
    Event e;
    e.kind = RecordKind::PerfInfo;
    e.hook_id = static_cast<uint16_t>(0x0F00 | opcode);
    e.provider = kernel_class_guid(e.hook_id);
    e.opcode = opcode;
    e.version = 3;
    e.pointer_size = 8;
    e.payload = payload;
    return e;
}

Bytes counter_config(uint32_t count, std::initializer_list<std::u16string_view> names) {
    Bytes b;
    put(b, count);
    for (std::u16string_view n : names) {
        put_wide(b, n);
    }
    return b;
}

TEST(PmcSources, CounterNamesTakeNoMoreThanThePayloadHoldsWhole) {
    const Bytes both = counter_config(2, {u"TotalCycles", u"InstructionRetired"});
    EXPECT_EQ(counter_config_names(both, 2), (std::vector<std::string>{"TotalCycles", "InstructionRetired"}));
    EXPECT_EQ(counter_config_names(both, 1), (std::vector<std::string>{"TotalCycles"}));
    EXPECT_EQ(counter_config_names(both, 1000), (std::vector<std::string>{"TotalCycles", "InstructionRetired"}))
        << "a count beyond the names";
    Bytes cut(both.begin(), both.end() - 3); // the last name loses its NUL and a byte
    EXPECT_EQ(counter_config_names(cut, 2), (std::vector<std::string>{"TotalCycles"}));
    EXPECT_TRUE(counter_config_names(Bytes{1, 0}, 5).empty()) << "shorter than its count";
}

TEST(PmcSources, ASampleSourceIsNamedByTheTraceElseByWindows) {
    PmcSources sources;
    EXPECT_EQ(sources.source_name(19), "TotalCycles");
    EXPECT_EQ(sources.source_name(25), "");
    Bytes interval;
    put(interval, uint32_t{25});
    put(interval, uint32_t{200000});
    put(interval, uint32_t{100000});
    put_wide(interval, u"InstructionRetired");
    const Event start = perfinfo(73, interval);
    MofRecord record;
    ASSERT_TRUE(decode_mof(start, static_cast<int>(KernelClass::PerfInfo), record));
    sources.note(start, record);
    EXPECT_EQ(sources.source_name(25), "InstructionRetired");

    const Bytes config = counter_config(2, {u"TotalCycles", u"InstructionRetired"});
    const Event configured = perfinfo(48, config);
    ASSERT_TRUE(decode_mof(configured, static_cast<int>(KernelClass::PerfInfo), record));
    sources.note(configured, record);
    EXPECT_EQ(sources.counter_names(), (std::vector<std::string>{"TotalCycles", "InstructionRetired"}));
}

} // namespace
} // namespace dtrace::etw::plugin::kernel
