// live_records_fuzz.cpp: the live plugins' parsers of kernel-made input, on
// arbitrary bytes: perf ring records (sample layouts, comm, mmap2, lost,
// fork/exit, and what they change in the process maps),
// /proc/kallsyms text and /proc/PID/maps text. The first byte picks the parser.
#include "kernel_symbols.h"
#include "mapping_tracker.h"
#include "process_maps.h"
#include "records.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace dtrace::live;
    if (size == 0)
        return 0;
    const uint8_t which = data[0];
    std::span<const uint8_t> rest(data + 1, size - 1);
    const std::string_view text(reinterpret_cast<const char *>(rest.data()), rest.size());
    switch (which % 4) {
    case 0: {
        // Every sample_type the records could carry, from the second byte's bits.
        perf::RecordLayout layout;
        if (!rest.empty())
            layout.sample_type = perf::kSampleType & ~(uint64_t(rest[0]) << 1);
        layout.regs_user_mask = 0xff01ff;
        if (auto sample = perf::parse_sample(rest, layout)) {
            uint64_t frames[16];
            perf::kernel_frames(sample->callchain, frames);
        }
        perf::record_time(rest, layout);
        break;
    }
    case 1:
        perf::parse_comm(rest);
        perf::parse_mmap2(rest);
        perf::parse_lost(rest);
        perf::parse_task(rest);
        {
            stacks::ProcessMaps maps("/nonexistent");
            stacks::apply_side_band(rest, maps);
            maps.find(0, 0);
        }
        break;
    case 2: {
        stacks::KernelSymbols symbols("/nonexistent");
        symbols.load_from(text);
        symbols.lookup(0xffffffff81000000);
        symbols.lookup(size);
        break;
    }
    default:
        stacks::parse_maps(text);
        break;
    }
    return 0;
}
