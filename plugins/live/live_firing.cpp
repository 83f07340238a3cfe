// live_firing.cpp: event contexts and target memory of live records.
#include "live_firing.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <sys/uio.h>

namespace dtrace::live {

namespace {

uint64_t clock_ns(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

} // namespace

LiveFiring::LiveFiring() : wall_offset_(clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC)) {}

bool LiveFiring::prepare(std::span<const uint8_t> record, uint32_t nargs, dtrace_event_ctx &ctx) {
    if (record.size() < sizeof record_)
        return false;
    std::memcpy(&record_, record.data(), sizeof record_);
    size_t captured = 0;
    for (uint16_t length : record_.capture_length)
        captured += length;
    if (record_.size != record.size() || record.size() < sizeof record_ + captured)
        return false;
    record_.comm[LIVE_COMM_LEN - 1] = '\0';
    captures_ = record.subspan(sizeof record_, captured);
    stack_tail_ = record.subspan(sizeof record_ + captured);
    process_info_.begin_firing(record_);

    ctx = dtrace_event_ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.cpu = record_.cpu;
    ctx.timestamp = record_.timestamp;
    ctx.walltimestamp = record_.timestamp + wall_offset_;
    ctx.pid = record_.pid;
    ctx.ppid = record_.ppid;
    ctx.tid = record_.tid;
    ctx.uid = record_.uid;
    ctx.gid = record_.gid;
    ctx.execname = record_.comm;
    ctx.nargs = nargs < LIVE_MAX_ARGS ? nargs : LIVE_MAX_ARGS;
    ctx.args = reinterpret_cast<const uint64_t *>(record_.args); // __u64 is unsigned long long, same size
    ctx.read_memory = &LiveFiring::read;
    ctx.reader_state = this;
    ctx.flags = DTRACE_EVENT_LIVE_TARGET;
    ctx.errno_value = record_.error;
    ctx.vtimestamp = record_.vtimestamp;
    ctx.curthread = record_.task;
    return true;
}

int64_t LiveFiring::read(void *state, uint64_t address, void *buffer, size_t length) {
    return static_cast<LiveFiring *>(state)->read_memory(address, static_cast<uint8_t *>(buffer), length);
}

size_t LiveFiring::read_captured(uint64_t address, uint8_t *buffer, size_t length, bool &whole_string) const {
    size_t offset = 0;
    for (int i = 0; i < LIVE_MAX_CAPTURES; ++i) {
        const size_t size = record_.capture_length[i];
        const uint64_t start = record_.capture_arg[i] < LIVE_MAX_ARGS ? record_.args[record_.capture_arg[i]] : 0;
        if (size > 0 && address >= start && address - start < size) {
            const size_t skip = static_cast<size_t>(address - start);
            const size_t n = std::min(length, size - skip);
            std::memcpy(buffer, captures_.data() + offset + skip, n);
            whole_string = record_.capture_mode[i] == LIVE_CAPTURE_STRING && captures_[offset + size - 1] == '\0';
            return n;
        }
        offset += size;
    }
    return 0;
}

int64_t LiveFiring::read_memory(uint64_t address, uint8_t *buffer, size_t length) {
    if (ProcessInfo::owns(address))
        return process_info_.read(address, buffer, length);
    bool whole_string = false;
    size_t done = read_captured(address, buffer, length, whole_string);
    if (done == length || whole_string)
        return static_cast<int64_t>(done);
    iovec local{buffer + done, length - done};
    iovec remote{reinterpret_cast<void *>(address + done), length - done};
    ssize_t n = process_vm_readv(static_cast<pid_t>(record_.pid), &local, 1, &remote, 1, 0);
    if (n > 0)
        return static_cast<int64_t>(done + static_cast<size_t>(n));
    return done > 0 ? static_cast<int64_t>(done) : -1;
}

} // namespace dtrace::live
