// recursion_misses.h: the firings the kernel skipped because a BPF program
// was already running on the CPU.
//
// The kernel runs a tracepoint or kprobe program only when no other such
// program is running on its CPU (bpf_prog_active: an interrupt's
// block_rq_complete while a system call's program runs), and a raw or BTF
// tracepoint, fentry or fexit program only when the same program is not;
// otherwise it skips the program without a word but to count it in the
// program's recursion_misses (struct bpf_prog_info, Linux 5.12). Those
// firings never reach dtrace: the ring's reader reports them with its drops.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

namespace dtrace::live {

class RecursionMisses {
  public:
    RecursionMisses() = default;
    ~RecursionMisses();
    RecursionMisses(const RecursionMisses &) = delete;
    RecursionMisses &operator=(const RecursionMisses &) = delete;

    // Counts the programs' skips from now on. A program already watched
    // (the same id) counts once; each is held by a descriptor of its own, so
    // its owner may close it. Safe from any thread.
    void watch(std::span<const int> program_fds);
    // The skips of the watched programs since the previous take() (or their
    // watch()).
    uint64_t take();

  private:
    struct Program {
        int fd = -1;
        uint32_t id = 0;
        uint64_t seen = 0;
    };
    std::mutex lock_;
    std::vector<Program> programs_;
};

} // namespace dtrace::live
