// perf_event.h: one perf event opened with perf_event_open and its mmap ring.
//
// The ring is read the way the kernel documents it: data_head read with
// acquire ordering, records copied out (a record may wrap around the end of
// the data area), data_tail written with release ordering once they are
// consumed. Nobody is woken per record: the event is opened with a
// watermark, and the reader polls with a timeout (see sampler.h).
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace dtrace::live::perf {

// perf_event_open(2); returns the fd, or -errno.
int open_event(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd = -1);

// One event fd and its ring (1 metadata page + 2^n data pages).
class Event {
  public:
    // Opens the event on `cpu` (pid -1: every thread there) and maps its
    // ring of `data_pages` (a power of two). On failure `error` says why.
    static Event open(const perf_event_attr &attr, pid_t pid, int cpu, size_t data_pages, std::string &error);
    Event() = default;
    Event(Event &&other) noexcept;
    Event &operator=(Event &&other) noexcept;
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;
    ~Event(); // disables, unmaps, closes

    bool valid() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    int cpu() const { return cpu_; }
    bool enable();
    void disable();

    // Copies every complete record now in the ring to `out` (appended, each
    // record's header first, 8-byte aligned as the kernel writes them) and
    // frees their space in the ring. Returns the number of records.
    size_t drain(std::vector<uint8_t> &out);

  private:
    void release();

    int fd_ = -1;
    int cpu_ = -1;
    void *base_ = nullptr; // the metadata page, then the data area
    size_t mapped_ = 0;
    size_t data_size_ = 0;
};

} // namespace dtrace::live::perf
