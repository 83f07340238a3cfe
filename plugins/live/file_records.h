// file_records.h: the twins behind fds[] (file_library.h), built when a
// clause reads them.
//
// fds[fd] reads the twin at file_record_address(fd): its members from /proc
// (file_facts.h) when it is read, after the event; a file closed since, or
// a process gone, reads as DTrace's values for no file (or "<unknown>").
// Its strings are served at one text slot per member, holding the texts of
// the descriptor whose twin was read last (a translator reads a string
// member's slot right after the twin). A process's mounts are cached and
// read again when a file's mount is not among them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "file_facts.h"
#include "file_library.h"

namespace dtrace::live {

class FileRecords {
  public:
    // The firing whose process the next reads describe.
    void begin_firing(uint32_t pid) {
        pid_ = pid;
        built_ = false;
    }

    // Reads [address, address + length) of the twins and their strings; -1
    // when the range is not theirs.
    int64_t read(uint64_t address, void *buffer, size_t length);

    static bool owns(uint64_t address) { return address >= kFileRecordsAddress && address < kFileRecordsEnd; }

  private:
    void build(int32_t fd);

    uint32_t pid_ = 0;
    bool built_ = false;
    int32_t fd_ = 0;
    std::array<uint64_t, fi::kSize> twin_{};
    std::array<std::string, fi::kSize> texts_;
    std::unordered_map<uint32_t, Mounts> mounts_;
};

} // namespace dtrace::live
