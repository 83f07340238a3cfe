// other_thread.h: lwpsinfo_t and psinfo_t of a thread other than the one
// the event fired in (off-cpu's next thread, the woken thread, a signal's
// target, a new process or thread).
//
// The live library's ProcessInfo builds the records of the firing's own
// thread from its live_record and /proc, served at fixed addresses. This
// class runs a second ProcessInfo over a record made for the other thread
// and serves its records and texts at addresses shifted by kShift,
// relocating the text pointers inside the records so that the translators
// read this thread's texts, not the firing thread's. The record is made
// only when a clause reads it (off-cpu fires at every context switch): its
// ids from the event, the rest from /proc/<tid>/status, or, for a new
// process or thread, from its creator (what fork copies), as DTrace's
// proc:::create describes the child.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bpf/live_record.h"
#include "process_info.h"
#include "process_library.h"

namespace dtrace::sdt {

class OtherThread {
  public:
    // Where the records are served: the live library's addresses plus this.
    static constexpr uint64_t kShift = 0x100000;

    // The other thread of the current firing (record `firing`): thread tid
    // of process pid (0: looked up in /proc).
    void describe(const live_record &firing, uint32_t pid, uint32_t tid);
    // A thread `firing`'s thread has just created (pid == tid: a process).
    void describe_child(const live_record &firing, uint32_t pid, uint32_t tid);
    // The command name to give the thread described last when /proc no
    // longer has it (the event's own copy, such as signal_generate's comm).
    void name_if_gone(std::string_view comm) { comm_if_gone_ = comm; }

    static uint64_t lwpsinfo_address() { return live::kLwpsinfoAddress + kShift; }
    static uint64_t psinfo_address() { return live::kPsinfoAddress + kShift; }
    static bool owns(uint64_t address) {
        return address >= live::kPsinfoAddress + kShift && address < live::kProcessRecordsEnd + kShift;
    }
    // Reads [address, address + length) of the records; -1 when not ours.
    int64_t read(uint64_t address, void *buffer, size_t length);

  private:
    void build();

    const live_record *firing_ = nullptr;
    uint32_t pid_ = 0, tid_ = 0;
    bool child_ = false;
    bool built_ = false;
    std::string comm_if_gone_;
    live_record record_{};
    live::ProcessInfo info_;
};

} // namespace dtrace::sdt
