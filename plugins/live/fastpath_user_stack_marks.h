// fastpath_user_stack_marks.h: the programs that keep the in-kernel
// ustack() walk from reading rows of a file no longer mapped where the
// table says (bpf/user_stack_marks.bpf.c, docs/fastpath.md "Stacks").
//
// Attached to the entries and exits of mmap, munmap, mprotect,
// pkey_mprotect and mremap and to exec, for the table's process only: a
// call that can touch code the table holds zeroes every mapping's nrows
// before the kernel changes anything (each walk then sends its event to
// user space), and every mapping call moves the gate's sequence. User
// space enables a table only through publish(), which refuses when a
// mapping call began, ended or is under way since the table's
// /proc/PID/maps was read.
//
// The links, programs and maps are file descriptors held here (none
// pinned): nothing stays attached once this is destroyed or the process ends.
#pragma once

#include <dtrace/provider.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

struct bpf_object;
struct bpf_link;

namespace dtrace::live {

class UserStackMarks {
  public:
    // The programs over the walk's mappings map (`mappings_fd`, shared),
    // following process `pid`; nullptr with `error` saying why.
    static std::unique_ptr<UserStackMarks> attach(int mappings_fd, int64_t pid, std::string &error);
    ~UserStackMarks();
    UserStackMarks(const UserStackMarks &) = delete;
    UserStackMarks &operator=(const UserStackMarks &) = delete;

    // The gate's sequence: read it before /proc/PID/maps, give it to publish().
    uint64_t sequence() const;
    // How many times the table was zeroed since the programs attached.
    uint64_t marks() const;

    // Returns when every walk running now has ended (an RCU grace period:
    // fastpath_user_stacks.cpp's steps); false with `error` set.
    bool wait_for_walks(std::string &error);

    enum class Publish { Done, Raced, Failed };
    // Sets mapping i's nrows to nrows[i], unless a mapping call began or
    // ended since `sequence` was read or one is under way (Raced: the table
    // stays zeroed, read /proc/PID/maps again); Failed with `error`.
    Publish publish(uint64_t sequence, const std::array<uint32_t, DTRACE_UNWIND_MAPPINGS_MAX> &nrows,
                    std::string &error);

  private:
    UserStackMarks() = default;
    bool gate_field(size_t offset, uint64_t &out) const;

    bpf_object *object_ = nullptr;
    std::array<bpf_link *, 12> links_{};
    int gate_fd_ = -1, staged_fd_ = -1, grace_fd_ = -1, in_flight_fd_ = -1, publish_fd_ = -1;
};

} // namespace dtrace::live
