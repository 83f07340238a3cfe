// breakpoints.h: the int3 breakpoints of the ptrace backend in one traced
// process, and the out-of-line copies of the instructions they displace.
//
// A site is asked for by file and file offset (as uprobes are), and placed
// once that file is mapped executable in the process (a -c command maps its
// libraries after exec: their sites wait for the link-map hook). Placing a
// site copies its instruction, relocated by fpid's relocator
// (hook/prologue.h: rip-relative operands and relative branches re-encoded;
// a call becomes push + jmp), into a slot of a scratch area the process maps
// within reach of the module (an anonymous mapping made by a system call
// the tracer has a stopped thread run, near the file), followed by a jump
// back after the instruction, then writes int3 over the instruction's
// first byte. A thread stopped at the int3 is sent to the slot: no
// single-stepping, no window in which the original instruction is back in
// the text, so any number of threads can hit any site at once.
//
// Memory is written through /proc/PID/mem (text pages are written as the
// debugger writes them, private to this process). remove_all() puts every
// original byte back; the scratch areas stay mapped (a thread may still be
// running the last instructions of a slot).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "result.h"

namespace dtrace::pid::ptrace_backend {

struct Site {
    uint64_t address = 0;
    uint8_t original = 0;          // the byte the int3 replaced
    uint64_t out_of_line = 0;      // where the relocated instruction runs
    std::vector<uint64_t> cookies; // live::uprobe_cookie(slot, offset in function), one per probe here
};

class Breakpoints {
  public:
    explicit Breakpoints(int64_t pid);
    ~Breakpoints();
    Breakpoints(const Breakpoints &) = delete;
    Breakpoints &operator=(const Breakpoints &) = delete;

    // Asks for a probe at `file_offset` of `path` (placed by place_pending).
    void add(const std::string &path, uint64_t file_offset, uint64_t cookie);
    // Places every asked-for site whose file is mapped now. `tid`: a thread
    // of the process stopped by this tracer, which runs the mmap of a new
    // scratch area. Sites that cannot be placed are left out, said in `refused`.
    live::Status place_pending(pid_t tid, std::vector<std::string> &refused);
    bool has_pending() const { return !pending_.empty(); }

    // The site whose int3 is at `address`, or nullptr.
    const Site *site_at(uint64_t address) const;
    // Whether `address` held one of this tracer's int3 (a thread may have
    // hit it before it was removed: it must run the original instruction).
    bool was_site(uint64_t address) const { return removed_.count(address) != 0; }
    // Puts every original byte back.
    void remove_all();
    // Puts the original bytes back in another process that shares none of
    // this one's memory (a fork child, which inherits the int3s).
    void remove_from(int64_t child) const;

    // The process's memory (the thread being stopped): bytes read.
    size_t read(uint64_t address, void *buffer, size_t length) const;

  private:
    struct Request {
        std::string path;
        uint64_t file_offset = 0;
        uint64_t cookie = 0;
    };
    struct Area {
        uint64_t base = 0, size = 0, used = 0;
    };
    bool write(uint64_t address, const void *data, size_t length) const;
    // A scratch slot within reach (rel32) of `near`; 0 with `why`.
    uint64_t scratch_slot(pid_t tid, uint64_t near, std::string &why);
    // Places one site at `address`; false with `why`.
    bool place(pid_t tid, uint64_t address, uint64_t cookie, std::string &why);

    int64_t pid_;
    int mem_fd_ = -1;
    std::vector<Request> pending_;
    std::map<uint64_t, Site> sites_;
    std::map<uint64_t, uint8_t> removed_;
    std::vector<Area> areas_;
};

// Runs system call `number` with `args` in stopped thread `tid` (traced by
// the calling thread), at `stub`: an address whose three bytes it may
// overwrite for the call (the program's entry point, which runs only once,
// at its start) and puts back. The thread's registers are put back after.
live::Result<uint64_t> remote_syscall(pid_t tid, uint64_t stub, long number, const uint64_t (&args)[6]);

} // namespace dtrace::pid::ptrace_backend
