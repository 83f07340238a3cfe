// kernel_memory.h: kernel memory for D's reads at fbt probes.
//
// dtrace runs in user space and cannot read the kernel's memory; a BPF
// program can. KernelMemory loads a small BPF_PROG_TYPE_SYSCALL program
// (bpf/kernel_read.bpf.c) at the first kernel read and runs it through
// BPF_PROG_TEST_RUN for each read, which bpf_probe_read_kernel makes safe:
// an unmapped address fails (a D fault), it never crashes. The read happens
// when the clause runs in dtrace, shortly after the event, not at the event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

struct bpf_object;

namespace dtrace::fbt {

// Addresses at or above this are the kernel's on x86-64.
inline constexpr uint64_t kKernelAddressStart = 0xffff800000000000ull;

class KernelMemory {
  public:
    KernelMemory() = default;
    ~KernelMemory();
    KernelMemory(const KernelMemory &) = delete;
    KernelMemory &operator=(const KernelMemory &) = delete;

    // Bytes read (fewer than `length` when a later page is not mapped), or
    // -1 when none is readable or the reader cannot be loaded (error() then
    // says why). Safe from several threads (the ring's clauses, the module
    // watcher's return offsets): one read at a time, as its buffer is one.
    int64_t read(uint64_t address, void *buffer, size_t length);
    const std::string &error() const { return error_; }

  private:
    bool ensure_loaded();

    bpf_object *object_ = nullptr;
    int program_fd_ = -1;
    int buffer_fd_ = -1;
    bool tried_ = false;
    std::mutex mutex_;
    std::string error_;
};

} // namespace dtrace::fbt
