// family_lockstat.cpp: lockstat — lock contention, over the kernel's
// lock:contention_begin and lock:contention_end (CONFIG_LOCKDEP's lighter
// sibling, present in every kernel since 5.19). The program pairs each
// thread's end with its begin (probe_family.h, wait_begin) and hands the end
// the nanoseconds waited and the begin's flags (LCB_F_*), which say the kind
// of lock and of wait.
//
// | probe          | lock kind (contention_begin's flags)   | arguments                          |
// |----------------|----------------------------------------|------------------------------------|
// | adaptive-block | a mutex (or rt_mutex) the thread slept on | lock address, ns blocked        |
// | adaptive-spin  | a mutex the thread spun on its owner for | lock address, ns spinning        |
// | spin-spin      | a spinlock                              | lock address, ns spinning         |
// | rw-block       | a reader/writer semaphore slept on      | lock address, ns blocked, writer  |
// | rw-spin        | a reader/writer lock spun on            | lock address, ns spinning, writer |
//
// All fire in the waiting thread's context when it has the lock (an end whose
// ret is not 0, a wait given up, fires nothing). Solaris' spin probes give a
// spin count; Linux gives none, so args[1] is the time, as for the blocks.
// Not here: the acquire and release probes (no tracepoint).
#include "probe_family.h"

namespace dtrace::sdt {

namespace {

// include/trace/events/lock.h
constexpr uint64_t kSpin = 1u << 0, kRead = 1u << 1, kWrite = 1u << 2, kRt = 1u << 3, kMutex = 1u << 5;

constexpr std::string_view kEndFields[] = {"lock_addr", "ret"};

uint64_t waited(const ArgContext &c) {
    return c.record.args[3];
}
uint64_t flags(const ArgContext &c) {
    return c.record.args[4];
}
// An end of a kept wait (the program zeroes both without one), acquired.
bool acquired(const ArgContext &c) {
    return (waited(c) != 0 || flags(c) != 0) && c.i(1) == 0;
}

bool adaptive_block(const ArgContext &c) {
    return acquired(c) && (flags(c) & (kMutex | kRt)) != 0 && (flags(c) & kSpin) == 0;
}
bool adaptive_spin(const ArgContext &c) {
    return acquired(c) && (flags(c) & kMutex) != 0 && (flags(c) & kSpin) != 0;
}
bool spin_spin(const ArgContext &c) {
    return acquired(c) && (flags(c) & (kMutex | kRt | kRead | kWrite)) == 0 && (flags(c) & kSpin) != 0;
}
bool rw_block(const ArgContext &c) {
    return acquired(c) && (flags(c) & (kRead | kWrite)) != 0 && (flags(c) & kSpin) == 0;
}
bool rw_spin(const ArgContext &c) {
    return acquired(c) && (flags(c) & (kRead | kWrite)) != 0 && (flags(c) & kSpin) != 0;
}

constexpr dtrace_arg_desc kLockArgs[] = {probe_arg("void *", 0), probe_arg("uint64_t", 1)};
size_t lock_args(const ArgContext &c, ProbeArgs &a) {
    a[0] = c.u(0);
    a[1] = waited(c);
    return 2;
}
constexpr dtrace_arg_desc kRwArgs[] = {probe_arg("void *", 0), probe_arg("uint64_t", 1), probe_arg("int", 2)};
size_t rw_args(const ArgContext &c, ProbeArgs &a) {
    lock_args(c, a);
    a[2] = (flags(c) & kWrite) != 0;
    return 3;
}

// Every row ends a contention_begin wait at contention_end.
constexpr StableProbe lock_row(std::string_view name, std::span<const dtrace_arg_desc> args, BuildArgs build,
                               AcceptEvent accept) {
    StableProbe row{"lockstat", name,  EventSource::Tracepoint, "lock", "contention_end", kEndFields, args,
                    build,      accept};
    row.wait_begin = "contention_begin";
    row.wait_flags = "flags";
    return row;
}

constexpr StableProbe kRows[] = {
    lock_row("adaptive-block", kLockArgs, lock_args, adaptive_block),
    lock_row("adaptive-spin", kLockArgs, lock_args, adaptive_spin),
    lock_row("spin-spin", kLockArgs, lock_args, spin_spin),
    lock_row("rw-block", kRwArgs, rw_args, rw_block),
    lock_row("rw-spin", kRwArgs, rw_args, rw_spin),
};

} // namespace

std::span<const StableProbe> lockstat_family() {
    return kRows;
}

} // namespace dtrace::sdt
