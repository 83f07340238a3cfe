// records.h: decoding the records of a perf ring.
//
// The layout of a PERF_RECORD_SAMPLE depends on the event's sample_type and
// sample_regs_user; RecordLayout keeps both so that a record can be decoded
// without the attr. Every field is bounds-checked against the record's size:
// a truncated or malformed record is refused, never read past.
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace dtrace::live::perf {

// What the sampling events of the live plugins ask for.
inline constexpr uint64_t kSampleType = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
                                        PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
                                        PERF_SAMPLE_STACK_USER;

struct RecordLayout {
    uint64_t sample_type = kSampleType;
    uint64_t regs_user_mask = 0;
};

struct Sample {
    uint64_t ip = 0;
    uint32_t pid = 0, tid = 0;
    uint64_t time = 0;
    uint32_t cpu = 0;
    uint64_t period = 0;
    bool kernel_mode = false;            // the sampled instruction was in the kernel
    std::span<const uint64_t> callchain; // with PERF_CONTEXT_* markers
    std::span<const uint64_t> user_regs; // in mask order; empty: no user context (a kernel thread)
    std::span<const uint8_t> user_stack; // the bytes copied from the user stack pointer up
};

// Decodes a PERF_RECORD_SAMPLE; nullopt when it is malformed.
std::optional<Sample> parse_sample(std::span<const uint8_t> record, const RecordLayout &layout);

// The kernel frames of a callchain (PERF_CONTEXT_KERNEL's section), written to
// `out`; returns how many.
size_t kernel_frames(std::span<const uint64_t> callchain, std::span<uint64_t> out);

// Side-band records (attr.comm, attr.mmap, attr.task), decoded.
struct CommRecord {
    uint32_t pid, tid;
    std::string_view comm;
    bool exec; // the name changed because the process exec'd
};
struct MmapRecord {
    uint32_t pid, tid;
    uint64_t start, length, pgoff;
    std::string_view path;
};
struct LostRecord {
    uint64_t lost;
};
// PERF_RECORD_FORK and PERF_RECORD_EXIT (attr.task): a thread or process
// was created (pid != ppid: a new process) or ended.
struct TaskRecord {
    uint32_t pid, ppid, tid, ptid;
    bool exit;
};
std::optional<CommRecord> parse_comm(std::span<const uint8_t> record);
std::optional<MmapRecord> parse_mmap2(std::span<const uint8_t> record);
std::optional<LostRecord> parse_lost(std::span<const uint8_t> record);
std::optional<TaskRecord> parse_task(std::span<const uint8_t> record);

// The timestamp of any record: a sample's own, or the sample_id trailer
// (attr.sample_id_all) of a side-band record. 0 when it has none.
uint64_t record_time(std::span<const uint8_t> record, const RecordLayout &layout);

} // namespace dtrace::live::perf
