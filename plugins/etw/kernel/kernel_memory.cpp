// kernel_memory.cpp: records, their strings, curpsinfo/curlwpsinfo.
#include "kernel/kernel_memory.h"

#include <algorithm>
#include <cstring>

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr size_t kSlot = sizeof(uint64_t);
constexpr uint8_t kBitsPerByte = 8;

// Solaris' pr_sname letters for the KTHREAD_STATE values: Initialized,
// Ready, Running, Standby, Terminated, Waiting, Transition, DeferredReady,
// GateWait.
constexpr char kStateLetters[] = {'I', 'R', 'O', 'R', 'Z', 'S', 'R', 'R', 'S'};

} // namespace

KernelRecord &KernelMemory::record(uint64_t &address) {
    // A firing uses at most three records; past the pool the last is reused.
    KernelRecord &r = records_[std::min(record_count_, kMaxRecords - 1)];
    record_count_ = std::min(record_count_ + 1, kMaxRecords);
    r.fill(0);
    address = reinterpret_cast<uint64_t>(r.data());
    return r;
}

uint64_t KernelMemory::text(const std::string &text) {
    if (text_count_ == texts_.size()) {
        texts_.emplace_back();
    }
    std::string &copy = texts_[text_count_++];
    copy = text;
    return reinterpret_cast<uint64_t>(copy.c_str());
}

void KernelMemory::fill_psinfo(KernelRecord &r, uint32_t pid) {
    const ProcessInfo *p = pid == kUnknownId ? nullptr : processes_.find(pid);
    r[ps::pr_pid] = pid == kUnknownId ? static_cast<uint64_t>(-1) : pid;
    r[ps::pr_pgid] = r[ps::pr_pid];
    r[ps::pr_ppid] = static_cast<uint64_t>(p ? p->ppid : -1);
    r[ps::pr_sid] = p ? p->session_id : 0;
    r[ps::pr_arch] = p ? p->pointer_size * kBitsPerByte : 0;
    r[ps::pr_addr] = p ? p->key : 0;
    r[ps::pr_fname] = text(p ? p->execname : std::string());
    r[ps::pr_psargs] = text(p ? p->command_line : std::string());
    r[ps::pr_arglen] = p ? p->command_line.size() : 0;
}

void KernelMemory::fill_lwpsinfo(KernelRecord &r, uint32_t tid) {
    const ThreadInfo *t = tid == kUnknownId ? nullptr : state_.thread(tid);
    r[lwp::pr_lwpid] = tid == kUnknownId ? static_cast<uint64_t>(-1) : tid;
    r[lwp::pr_cpu] = t != nullptr && t->cpu >= 0 ? static_cast<uint64_t>(t->cpu) : cpu_;
    if (t == nullptr) {
        return;
    }
    r[lwp::pr_flag] = t->flags;
    r[lwp::pr_pri] = static_cast<uint64_t>(t->priority);
    r[lwp::pr_state] = static_cast<uint64_t>(t->state);
    r[lwp::pr_sname] = t->state >= 0 && static_cast<size_t>(t->state) < sizeof kStateLetters
                           ? kStateLetters[static_cast<size_t>(t->state)]
                           : '?';
    r[lwp::pr_addr] = t->teb;
    r[lwp::pr_waitr] = static_cast<uint64_t>(t->wait_reason);
    r[lwp::pr_waitm] = static_cast<uint64_t>(t->wait_mode);
    r[lwp::pr_wipr] = static_cast<uint64_t>(t->ideal_processor);
    r[lwp::pr_waittm] = t->wait_time;
    r[lwp::pr_iopri] = t->io_priority;
    r[lwp::pr_pagepri] = t->page_priority;
}

uint64_t KernelMemory::psinfo(uint32_t pid) {
    uint64_t address = 0;
    fill_psinfo(record(address), pid);
    return address;
}

uint64_t KernelMemory::lwpsinfo(uint32_t tid) {
    uint64_t address = 0;
    fill_lwpsinfo(record(address), tid);
    return address;
}

int64_t KernelMemory::read_current(uint64_t base, KernelRecord &record, bool &built, size_t size, uint64_t address,
                                   void *buffer, size_t length) {
    if (!built) {
        record.fill(0);
        if (base == kCurrentPsinfoAddress) {
            fill_psinfo(record, pid_);
        } else {
            fill_lwpsinfo(record, tid_);
        }
        built = true;
    }
    const size_t n = std::min(length, size - (address - base));
    std::memcpy(buffer, reinterpret_cast<const uint8_t *>(record.data()) + (address - base), n);
    return static_cast<int64_t>(n);
}

int64_t KernelMemory::read(void *state, uint64_t address, void *buffer, size_t length) {
    KernelMemory &m = *static_cast<KernelMemory *>(state);
    if (address - kCurrentPsinfoAddress < ps::kSize * kSlot) {
        return m.read_current(kCurrentPsinfoAddress, m.current_psinfo_, m.current_psinfo_built_, ps::kSize * kSlot,
                              address, buffer, length);
    }
    if (address - kCurrentLwpsinfoAddress < lwp::kSize * kSlot) {
        return m.read_current(kCurrentLwpsinfoAddress, m.current_lwpsinfo_, m.current_lwpsinfo_built_,
                              lwp::kSize * kSlot, address, buffer, length);
    }
    for (size_t i = 0; i < m.record_count_; ++i) {
        const uint64_t base = reinterpret_cast<uint64_t>(m.records_[i].data());
        if (address - base < sizeof(KernelRecord)) {
            const size_t n = std::min(length, static_cast<size_t>(sizeof(KernelRecord) - (address - base)));
            std::memcpy(buffer, reinterpret_cast<const uint8_t *>(m.records_[i].data()) + (address - base), n);
            return static_cast<int64_t>(n);
        }
    }
    for (size_t i = 0; i < m.text_count_; ++i) {
        const std::string &t = m.texts_[i];
        const uint64_t base = reinterpret_cast<uint64_t>(t.c_str());
        if (address - base <= t.size()) {
            const size_t n = std::min(length, static_cast<size_t>(t.size() + 1 - (address - base)));
            std::memcpy(buffer, t.c_str() + (address - base), n);
            return static_cast<int64_t>(n);
        }
    }
    return EventMemory::read(&m.event_memory_, address, buffer, length);
}

} // namespace dtrace::etw::plugin::kernel
