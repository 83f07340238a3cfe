// kernel_memory.h: the memory D reads through the kernel providers' arguments.
//
// A kernel probe's translated arguments point to records (the native twins of
// kernel_library.h) and their strings, built for the firing in buffers reused
// from firing to firing. curpsinfo and curlwpsinfo read records at two fixed
// addresses, built on first read from what the plugin knows of the firing's
// process and thread. Any other address goes on to the event's own memory
// (event_memory.h), so this reader serves every probe of the plugin.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>

#include "event_memory.h"
#include "kernel/kernel_library.h"
#include "kernel/kernel_state.h"
#include "process_table.h"

namespace dtrace::etw::plugin::kernel {

class KernelMemory {
  public:
    KernelMemory(EventMemory &event_memory, const ProcessTable &processes, const KernelState &state)
        : event_memory_(event_memory), processes_(processes), state_(state) {}

    // Forgets the previous firing's records; pid and tid are the new firing's.
    // (Run for every event: inline.)
    void begin_firing(uint32_t pid, uint32_t tid, uint32_t cpu) {
        pid_ = pid;
        tid_ = tid;
        cpu_ = cpu;
        record_count_ = 0;
        text_count_ = 0;
        current_psinfo_built_ = false;
        current_lwpsinfo_built_ = false;
    }

    // A fresh zeroed record, readable until the next begin_firing().
    KernelRecord &record(uint64_t &address);
    // The address of a copy of text, readable until the next begin_firing().
    uint64_t text(const std::string &text);

    // Records describing a process and a thread (psinfo_t, lwpsinfo_t twins).
    uint64_t psinfo(uint32_t pid);
    uint64_t lwpsinfo(uint32_t tid);

    // dtrace_memory_read_fn over a KernelMemory.
    static int64_t read(void *state, uint64_t address, void *buffer, size_t length);

  private:
    static constexpr size_t kMaxRecords = 8;

    void fill_psinfo(KernelRecord &r, uint32_t pid);
    void fill_lwpsinfo(KernelRecord &r, uint32_t tid);
    int64_t read_current(uint64_t base, KernelRecord &record, bool &built, size_t size, uint64_t address, void *buffer,
                         size_t length);

    EventMemory &event_memory_;
    const ProcessTable &processes_;
    const KernelState &state_;
    uint32_t pid_ = kUnknownId;
    uint32_t tid_ = kUnknownId;
    uint32_t cpu_ = 0;
    std::array<KernelRecord, kMaxRecords> records_{};
    size_t record_count_ = 0;
    std::deque<std::string> texts_; // a deque: growing it moves no text already handed out
    size_t text_count_ = 0;
    KernelRecord current_psinfo_{};
    KernelRecord current_lwpsinfo_{};
    bool current_psinfo_built_ = false;
    bool current_lwpsinfo_built_ = false;
};

} // namespace dtrace::etw::plugin::kernel
