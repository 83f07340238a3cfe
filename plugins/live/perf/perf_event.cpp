// perf_event.cpp: perf_event_open, the ring's mapping and its reading.
#include "perf_event.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace dtrace::live::perf {

int open_event(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) {
    long fd = syscall(SYS_perf_event_open, &attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : static_cast<int>(fd);
}

Event Event::open(const perf_event_attr &attr, pid_t pid, int cpu, size_t data_pages, std::string &error) {
    Event event;
    int fd = open_event(attr, pid, cpu);
    if (fd < 0) {
        error = "perf_event_open on cpu " + std::to_string(cpu) + ": " + std::strerror(-fd);
        return event;
    }
    event.fd_ = fd;
    event.cpu_ = cpu;
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t length = page * (data_pages + 1);
    void *base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        error = "mmap of a " + std::to_string(data_pages) + "-page perf ring on cpu " + std::to_string(cpu) + ": " +
                std::strerror(errno);
        event.release();
        return event;
    }
    event.base_ = base;
    event.mapped_ = length;
    event.data_size_ = page * data_pages;
    return event;
}

Event::Event(Event &&other) noexcept {
    *this = std::move(other);
}

Event &Event::operator=(Event &&other) noexcept {
    if (this != &other) {
        release();
        fd_ = std::exchange(other.fd_, -1);
        cpu_ = other.cpu_;
        base_ = std::exchange(other.base_, nullptr);
        mapped_ = std::exchange(other.mapped_, 0);
        data_size_ = std::exchange(other.data_size_, 0);
    }
    return *this;
}

Event::~Event() {
    release();
}

void Event::release() {
    if (fd_ >= 0)
        ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
    if (base_ != nullptr)
        munmap(base_, mapped_);
    if (fd_ >= 0)
        close(fd_);
    fd_ = -1;
    base_ = nullptr;
}

bool Event::enable() {
    return ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0) == 0;
}

void Event::disable() {
    ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
}

size_t Event::drain(std::vector<uint8_t> &out) {
    if (base_ == nullptr)
        return 0;
    auto *meta = static_cast<perf_event_mmap_page *>(base_);
    const uint8_t *data = static_cast<const uint8_t *>(base_) + (mapped_ - data_size_);
    const uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = meta->data_tail;
    size_t records = 0;
    while (tail + sizeof(perf_event_header) <= head) {
        perf_event_header header;
        const size_t at = tail % data_size_;
        // The header itself may straddle the end of the data area.
        for (size_t i = 0; i < sizeof header; i++)
            reinterpret_cast<uint8_t *>(&header)[i] = data[(at + i) % data_size_];
        if (header.size < sizeof header || tail + header.size > head)
            break;
        const size_t first = std::min<size_t>(header.size, data_size_ - at);
        const size_t start = out.size();
        out.resize(start + header.size);
        std::memcpy(out.data() + start, data + at, first);
        std::memcpy(out.data() + start + first, data, header.size - first);
        tail += header.size;
        records++;
    }
    __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
    return records;
}

} // namespace dtrace::live::perf
