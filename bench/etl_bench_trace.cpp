// etl_bench_trace.cpp: writes a large synthetic ETL file for the replay
// throughput figure: etl_bench_trace PATH MEGABYTES.
//
// The file is streamed buffer by buffer (it may be larger than memory): the
// logfile header buffer, then 64 KB buffers of four CPUs in turn, each CPU's
// records in time order and the CPUs interleaved in time, so the reader's
// merge does real work. The records are the mix a kernel + user trace has:
// compact SYSTEM context switches (the most frequent kernel event), full
// SYSTEM records, and EVENT_HEADER events of three providers.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "etl_file_builder.h"
#include "reader/le_bytes.h"

using namespace dtrace::etw;
using namespace dtrace::etw::fixture;

namespace {

constexpr uint16_t kCpus = 4;
constexpr uint32_t kBufferSize = 0x10000;
constexpr uint16_t kCSwitchHook = 0x0524;     // Thread group, CSwitch
constexpr uint16_t kReadyThreadHook = 0x0532; // Thread group, ReadyThread
constexpr size_t kCSwitchPayload = 24;
constexpr size_t kUserPayload = 16;
constexpr uint64_t kBytesPerMegabyte = 1 << 20;

const Guid kProviders[] = {*Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"),
                           *Guid::parse("a669021c-c450-4609-a035-5af59af4df18"),
                           *Guid::parse("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716")};

// Record n of a CPU at raw time t: 2 in 4 compact CSwitch, 1 in 4 a full
// SYSTEM ReadyThread, 1 in 4 a user event.
Bytes record(uint64_t n, uint16_t cpu, int64_t t) {
    const uint32_t tid = 1000 + static_cast<uint32_t>(n % 64);
    const uint32_t pid = 100 + static_cast<uint32_t>(n % 8);
    switch (n % 4) {
    case 0:
    case 1: {
        KernelRecord k;
        k.form = KernelRecord::Form::Compact;
        k.hook_id = kCSwitchHook;
        k.tid = tid;
        k.pid = pid;
        k.timestamp = t;
        k.payload.assign(kCSwitchPayload, static_cast<uint8_t>(n));
        return encode(k);
    }
    case 2: {
        KernelRecord k;
        k.hook_id = kReadyThreadHook;
        k.tid = tid;
        k.pid = pid;
        k.timestamp = t;
        k.payload.assign(kCSwitchPayload / 2, static_cast<uint8_t>(cpu));
        return encode(k);
    }
    default: {
        EventHeaderSpec e;
        e.provider = kProviders[(n / 4) % std::size(kProviders)];
        e.id = static_cast<uint16_t>(n % 16);
        e.level = 4;
        e.keyword = 1;
        e.tid = tid;
        e.pid = pid;
        e.timestamp = t;
        e.payload.assign(kUserPayload, static_cast<uint8_t>(n));
        return encode(e);
    }
    }
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s <output.etl> <megabytes>\n", argv[0]);
        return 2;
    }
    const uint64_t target = std::strtoull(argv[2], nullptr, 10) * kBytesPerMegabyte;
    std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
    LogfileSpec logfile;
    logfile.buffer_size = kBufferSize;
    logfile.number_of_processors = kCpus;
    logfile.header_timestamp = 1;
    EtlFileBuilder header(logfile);
    Bytes bytes = header.build();
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    uint64_t written = bytes.size();
    uint64_t events = 0;
    int64_t sequence = 1;
    std::vector<uint64_t> next(kCpus, 0); // per CPU: records written
    for (uint16_t cpu = 0; written < target; cpu = static_cast<uint16_t>((cpu + 1) % kCpus)) {
        BufferSpec buffer;
        buffer.cpu = cpu;
        size_t used = buffer_layout::kSize;
        for (;;) {
            const uint64_t n = next[cpu];
            Bytes r = record(n, cpu, static_cast<int64_t>(2 + n * kCpus + cpu));
            if (used + align8(r.size()) > kBufferSize) {
                break;
            }
            used += align8(r.size());
            buffer.records.push_back(std::move(r));
            ++next[cpu];
        }
        buffer.timestamp = static_cast<int64_t>(2 + next[cpu] * kCpus + cpu);
        events += buffer.records.size();
        bytes = encode_buffer(buffer, sequence++, kBufferSize);
        out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        written += bytes.size();
    }
    if (!out) {
        std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[1]);
        return 1;
    }
    std::printf("%llu\n", static_cast<unsigned long long>(events + 1)); // + the logfile header record
    return 0;
}
