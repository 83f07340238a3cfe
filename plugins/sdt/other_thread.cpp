// other_thread.cpp: records of another thread (see other_thread.h).
#include "other_thread.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include "tracefs.h"

namespace dtrace::sdt {

namespace {

// The number after `key` in /proc/<id>/status ("Tgid:\t1234"); 0 if absent.
uint32_t status_number(const std::string &status, const char *key) {
    const size_t at = status.find(key);
    return at == std::string::npos
               ? 0
               : static_cast<uint32_t>(std::strtoul(status.c_str() + at + std::strlen(key), nullptr, 10));
}

} // namespace

void OtherThread::describe(const live_record &firing, uint32_t pid, uint32_t tid) {
    firing_ = &firing;
    pid_ = pid;
    tid_ = tid;
    child_ = false;
    built_ = false;
    comm_if_gone_.clear();
}

void OtherThread::describe_child(const live_record &firing, uint32_t pid, uint32_t tid) {
    describe(firing, pid, tid);
    child_ = true;
}

void OtherThread::build() {
    record_ = live_record{};
    record_.pid = pid_;
    record_.tid = tid_;
    record_.cpu = firing_->cpu;
    record_.syscall_nr = -1;
    if (child_) { // what fork copied from its creator
        record_.ppid = pid_ == tid_ ? firing_->pid : firing_->ppid;
        record_.uid = firing_->uid;
        record_.gid = firing_->gid;
        std::memcpy(record_.comm, firing_->comm, LIVE_COMM_LEN);
    } else if (live::Result<std::string> status = live::read_text_file("/proc/" + std::to_string(tid_) + "/status")) {
        const std::string &s = status.value();
        if (record_.pid == 0)
            record_.pid = status_number(s, "Tgid:");
        record_.ppid = status_number(s, "PPid:");
        record_.uid = status_number(s, "Uid:");
        record_.gid = status_number(s, "Gid:");
        const size_t name = s.find("Name:\t");
        if (name != std::string::npos) {
            const size_t start = name + 6, end = s.find('\n', start);
            const std::string comm = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
            std::strncpy(record_.comm, comm.c_str(), LIVE_COMM_LEN - 1);
        }
    } else { // gone: the ids and the name the event gave
        comm_if_gone_.copy(record_.comm, LIVE_COMM_LEN - 1);
    }
    info_.begin_firing(record_);
    built_ = true;
}

int64_t OtherThread::read(uint64_t address, void *buffer, size_t length) {
    if (!owns(address) || firing_ == nullptr)
        return -1;
    if (!built_)
        build();
    const uint64_t original = address - kShift;
    const int64_t n = info_.read(original, buffer, length);
    if (n <= 0 || original >= live::kProcessTextBase)
        return n;
    // Text pointers in the records: shifted like the records.
    auto *bytes = static_cast<uint8_t *>(buffer);
    const uint64_t skew = (8 - original % 8) % 8; // the first whole slot
    for (uint64_t at = skew; at + 8 <= static_cast<uint64_t>(n); at += 8) {
        uint64_t slot = 0;
        std::memcpy(&slot, bytes + at, 8);
        if (slot >= live::kProcessTextBase && slot < live::kProcessRecordsEnd) {
            slot += kShift;
            std::memcpy(bytes + at, &slot, 8);
        }
    }
    return n;
}

} // namespace dtrace::sdt
