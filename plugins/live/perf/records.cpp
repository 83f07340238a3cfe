// records.cpp: bounds-checked decoding of perf ring records.
#include "records.h"

#include <bit>
#include <cstring>

namespace dtrace::live::perf {

namespace {

// Reads fields in order from a record, failing once past its end.
class Cursor {
  public:
    explicit Cursor(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    bool u64(uint64_t &value) {
        if (!fits(8))
            return false;
        std::memcpy(&value, bytes_.data() + at_, 8);
        at_ += 8;
        return true;
    }
    bool u32_pair(uint32_t &first, uint32_t &second) {
        uint64_t both;
        if (!u64(both))
            return false;
        first = static_cast<uint32_t>(both);
        second = static_cast<uint32_t>(both >> 32);
        return true;
    }
    template <typename T> bool array(uint64_t count, std::span<const T> &out) {
        if (count > bytes_.size() / sizeof(T) || !fits(count * sizeof(T)))
            return false;
        out = {reinterpret_cast<const T *>(bytes_.data() + at_), static_cast<size_t>(count)};
        at_ += count * sizeof(T);
        return true;
    }
    bool fits(uint64_t n) const { return n <= bytes_.size() - at_; }
    size_t offset() const { return at_; }

  private:
    std::span<const uint8_t> bytes_;
    size_t at_ = 0;
};

bool valid_header(std::span<const uint8_t> record, uint32_t type) {
    if (record.size() < sizeof(perf_event_header))
        return false;
    perf_event_header header;
    std::memcpy(&header, record.data(), sizeof header);
    return header.type == type && header.size == record.size();
}

// A NUL-terminated string of at most the bytes left in a fixed-size tail.
std::string_view bounded_string(std::span<const uint8_t> record, size_t offset) {
    if (offset >= record.size())
        return {};
    const char *text = reinterpret_cast<const char *>(record.data() + offset);
    return {text, strnlen(text, record.size() - offset)};
}

} // namespace

std::optional<Sample> parse_sample(std::span<const uint8_t> record, const RecordLayout &layout) {
    if (!valid_header(record, PERF_RECORD_SAMPLE))
        return std::nullopt;
    perf_event_header header;
    std::memcpy(&header, record.data(), sizeof header);
    Cursor c(record.subspan(sizeof header));
    Sample s;
    s.kernel_mode = (header.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
    const uint64_t type = layout.sample_type;
    uint64_t ignored, cpu_and_reserved = 0;
    if ((type & PERF_SAMPLE_IDENTIFIER) && !c.u64(ignored))
        return std::nullopt;
    if ((type & PERF_SAMPLE_IP) && !c.u64(s.ip))
        return std::nullopt;
    if ((type & PERF_SAMPLE_TID) && !c.u32_pair(s.pid, s.tid))
        return std::nullopt;
    if ((type & PERF_SAMPLE_TIME) && !c.u64(s.time))
        return std::nullopt;
    if ((type & PERF_SAMPLE_ADDR) && !c.u64(ignored))
        return std::nullopt;
    if ((type & PERF_SAMPLE_ID) && !c.u64(ignored))
        return std::nullopt;
    if ((type & PERF_SAMPLE_STREAM_ID) && !c.u64(ignored))
        return std::nullopt;
    if ((type & PERF_SAMPLE_CPU) && !c.u64(cpu_and_reserved))
        return std::nullopt;
    s.cpu = static_cast<uint32_t>(cpu_and_reserved);
    if ((type & PERF_SAMPLE_PERIOD) && !c.u64(s.period))
        return std::nullopt;
    if (type & (PERF_SAMPLE_READ | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK))
        return std::nullopt; // never asked for by the live plugins
    if (type & PERF_SAMPLE_CALLCHAIN) {
        uint64_t count;
        if (!c.u64(count) || !c.array(count, s.callchain))
            return std::nullopt;
    }
    if (type & PERF_SAMPLE_REGS_USER) {
        uint64_t abi;
        if (!c.u64(abi))
            return std::nullopt;
        if (abi != PERF_SAMPLE_REGS_ABI_NONE && !c.array(std::popcount(layout.regs_user_mask), s.user_regs))
            return std::nullopt;
    }
    if (type & PERF_SAMPLE_STACK_USER) {
        uint64_t size;
        std::span<const uint8_t> stack;
        if (!c.u64(size) || !c.array(size, stack))
            return std::nullopt;
        if (size != 0) {
            uint64_t dynamic_size;
            if (!c.u64(dynamic_size))
                return std::nullopt;
            s.user_stack = stack.first(std::min(size, dynamic_size));
        }
    }
    return s;
}

size_t kernel_frames(std::span<const uint64_t> callchain, std::span<uint64_t> out) {
    size_t n = 0;
    bool in_kernel = false;
    for (uint64_t pc : callchain) {
        if (pc >= PERF_CONTEXT_MAX) {
            in_kernel = pc == PERF_CONTEXT_KERNEL;
            continue;
        }
        if (in_kernel && n < out.size())
            out[n++] = pc;
    }
    return n;
}

std::optional<CommRecord> parse_comm(std::span<const uint8_t> record) {
    if (!valid_header(record, PERF_RECORD_COMM))
        return std::nullopt;
    perf_event_header header;
    std::memcpy(&header, record.data(), sizeof header);
    Cursor c(record.subspan(sizeof header));
    CommRecord comm{};
    if (!c.u32_pair(comm.pid, comm.tid))
        return std::nullopt;
    comm.comm = bounded_string(record, sizeof header + c.offset());
    comm.exec = (header.misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
    return comm;
}

std::optional<MmapRecord> parse_mmap2(std::span<const uint8_t> record) {
    if (!valid_header(record, PERF_RECORD_MMAP2))
        return std::nullopt;
    Cursor c(record.subspan(sizeof(perf_event_header)));
    MmapRecord mmap{};
    uint64_t ignored;
    if (!c.u32_pair(mmap.pid, mmap.tid) || !c.u64(mmap.start) || !c.u64(mmap.length) || !c.u64(mmap.pgoff))
        return std::nullopt;
    // maj, min, ino, ino_generation (or the build id), then prot and flags.
    for (int i = 0; i < 4; i++)
        if (!c.u64(ignored))
            return std::nullopt;
    mmap.path = bounded_string(record, sizeof(perf_event_header) + c.offset());
    return mmap;
}

std::optional<LostRecord> parse_lost(std::span<const uint8_t> record) {
    if (!valid_header(record, PERF_RECORD_LOST))
        return std::nullopt;
    Cursor c(record.subspan(sizeof(perf_event_header)));
    uint64_t id;
    LostRecord lost{};
    if (!c.u64(id) || !c.u64(lost.lost))
        return std::nullopt;
    return lost;
}

std::optional<TaskRecord> parse_task(std::span<const uint8_t> record) {
    const bool exit = valid_header(record, PERF_RECORD_EXIT);
    if (!exit && !valid_header(record, PERF_RECORD_FORK))
        return std::nullopt;
    Cursor c(record.subspan(sizeof(perf_event_header)));
    TaskRecord task{};
    if (!c.u32_pair(task.pid, task.ppid) || !c.u32_pair(task.tid, task.ptid))
        return std::nullopt;
    task.exit = exit;
    return task;
}

uint64_t record_time(std::span<const uint8_t> record, const RecordLayout &layout) {
    if (record.size() < sizeof(perf_event_header))
        return 0;
    perf_event_header header;
    std::memcpy(&header, record.data(), sizeof header);
    if (header.type == PERF_RECORD_SAMPLE) {
        // Only the fields before the time: the rest need not be decoded here.
        size_t before_time = sizeof header;
        for (uint64_t bit : {PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID})
            if (layout.sample_type & bit)
                before_time += 8;
        uint64_t time = 0;
        if ((layout.sample_type & PERF_SAMPLE_TIME) && record.size() >= before_time + 8)
            std::memcpy(&time, record.data() + before_time, 8);
        return time;
    }
    // The sample_id trailer: [pid tid] [time] [id] [stream_id] [cpu res] [identifier].
    if (!(layout.sample_type & PERF_SAMPLE_TIME))
        return 0;
    size_t after_time = 0;
    for (uint64_t bit : {PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER})
        if (layout.sample_type & bit)
            after_time += 8;
    if (record.size() < sizeof header + after_time + 8)
        return 0;
    uint64_t time;
    std::memcpy(&time, record.data() + record.size() - after_time - 8, 8);
    return time;
}

} // namespace dtrace::live::perf
