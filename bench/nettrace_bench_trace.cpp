// nettrace_bench_trace.cpp: writes a large synthetic .nettrace file for the
// nettrace replay throughput figure: nettrace_bench_trace PATH MEGABYTES.
//
// NetTrace V5 with header compression, as .NET runtimes write it, streamed
// to the file block by block (it may be larger than memory): event blocks of
// about 64 KB, each one thread's run of events (four threads in turn, so
// the reader sorts between sequence points as it does for real traces), a
// sequence point every 16 blocks, a stack block before each region. The
// events are the runtime's (GC, allocation ticks, contention) and an
// EventSource's, 20 to 40 bytes of payload, about the density of real files
// (the sample objver4 trace has 46 bytes a event). Prints the event count.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "nettrace_builder.h"

using namespace dtrace::etw::nettrace::fixture;

namespace {

constexpr uint64_t kBytesPerMegabyte = 1 << 20;
constexpr size_t kEventsPerBlock = 2048;
constexpr int kThreads = 4;
constexpr int kBlocksPerRegion = 16;
constexpr int64_t kTicksPerEvent = 250; // ns

void write(std::ofstream &out, const Bytes &bytes) {
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: nettrace_bench_trace PATH MEGABYTES\n");
        return 2;
    }
    const uint64_t target = std::strtoull(argv[2], nullptr, 10) * kBytesPerMegabyte;
    std::ofstream out(argv[1], std::ios::binary);
    TraceSpec spec;
    spec.version = 5;
    NetTraceBuilder b(spec);
    const char *runtime = "Microsoft-Windows-DotNETRuntime";
    b.metadata({{1, runtime, 1, "", 0x1, 2, 4, 1, {}, {}},
                {2, runtime, 10, "", 0x1, 3, 5, 0, {}, {}},
                {3, runtime, 81, "", 0x4000, 1, 4, 1, {}, {}},
                {4, "Bench-Source", 1, "Tick", 0, 0, 4, 0, {{"Value", 9, 0}, {"Label", 18, 0}}, {}}});
    uint64_t written = 0;
    uint64_t events = 0;
    int64_t region_start = 10000;
    for (int region = 0; written < target; ++region) {
        b.stacks(1, {{0x7ff000001000, 0x7ff000002000, 0x7ff000003000}});
        for (int block = 0; block < kBlocksPerRegion; ++block) {
            const int thread = block % kThreads;
            std::vector<EventSpec> rows(kEventsPerBlock);
            for (size_t i = 0; i < rows.size(); ++i) {
                EventSpec &e = rows[i];
                const uint64_t n = events + i;
                e.metadata_id = static_cast<uint32_t>(1 + n % 4);
                e.thread = 1000 + static_cast<uint64_t>(thread);
                e.processor = static_cast<uint32_t>(thread);
                e.stack_id = n % 16 == 0 ? 1 : 0;
                // The threads' runs overlap in time: sorting has work to do.
                e.timestamp =
                    region_start +
                    static_cast<int64_t>(((block / kThreads) * kEventsPerBlock + i) * kTicksPerEvent * kThreads) +
                    thread;
                e.payload.assign(20 + n % 21, static_cast<uint8_t>(n));
                if (e.metadata_id == 4) {
                    e.payload = {static_cast<uint8_t>(n), 0, 0, 0, 'a', 0, 'b', 0, 0, 0};
                }
            }
            b.events(rows);
            events += rows.size();
        }
        region_start +=
            static_cast<int64_t>(kBlocksPerRegion / kThreads * kEventsPerBlock * kTicksPerEvent * kThreads) + 1;
        b.sequence_point(region_start - 1);
        const Bytes chunk = b.take_bytes();
        written += chunk.size();
        write(out, chunk);
    }
    write(out, b.finish());
    if (!out) {
        std::fprintf(stderr, "nettrace_bench_trace: cannot write %s\n", argv[1]);
        return 1;
    }
    std::printf("%llu\n", static_cast<unsigned long long>(events));
    return 0;
}
