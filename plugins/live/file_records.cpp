// file_records.cpp: fds[]'s twins and texts from /proc.
#include "file_records.h"

#include <cstring>

namespace dtrace::live {

namespace {

constexpr size_t kMaxCachedProcesses = 256;
constexpr size_t kMaxText = kFileTextSlot - 1; // and its NUL

} // namespace

void FileRecords::build(int32_t fd) {
    if (mounts_.size() >= kMaxCachedProcesses && mounts_.find(pid_) == mounts_.end())
        mounts_.clear();
    const FileFacts f = read_file_facts("/proc/" + std::to_string(pid_), fd, mounts_[pid_]);
    texts_ = {};
    texts_[fi::fi_name] = f.name;
    texts_[fi::fi_dirname] = f.dirname;
    texts_[fi::fi_pathname] = f.pathname;
    texts_[fi::fi_fs] = f.fs;
    texts_[fi::fi_mount] = f.mount;
    for (size_t m = 0; m < fi::kSize; ++m) {
        if (texts_[m].size() > kMaxText)
            texts_[m].resize(kMaxText);
        twin_[m] = file_text_address(m);
    }
    twin_[fi::fi_offset] = static_cast<uint64_t>(f.offset);
    twin_[fi::fi_oflags] = f.oflags;
    fd_ = fd;
    built_ = true;
}

int64_t FileRecords::read(uint64_t address, void *buffer, size_t length) {
    if (!owns(address))
        return -1;
    const uint8_t *base = nullptr;
    size_t size = 0;
    if (address < kFileTextBase) {
        const uint64_t within = (address - kFileRecordsAddress) % kFileRecordStride;
        if (within >= sizeof twin_)
            return -1;
        const auto fd =
            static_cast<int32_t>(static_cast<uint32_t>((address - kFileRecordsAddress) / kFileRecordStride));
        if (!built_ || fd != fd_)
            build(fd);
        base = reinterpret_cast<const uint8_t *>(twin_.data()) + within;
        size = sizeof twin_ - within;
    } else {
        const size_t member = static_cast<size_t>((address - kFileTextBase) / kFileTextSlot);
        const size_t offset = static_cast<size_t>((address - kFileTextBase) % kFileTextSlot);
        if (!built_ || offset > texts_[member].size())
            return -1;
        base = reinterpret_cast<const uint8_t *>(texts_[member].c_str()) + offset;
        size = texts_[member].size() + 1 - offset; // with its NUL
    }
    const size_t n = length < size ? length : size;
    std::memcpy(buffer, base, n);
    return static_cast<int64_t>(n);
}

} // namespace dtrace::live
