// problem_log.h: turning damage into counted, located messages.
//
// Every kind of damage the reader recovers from goes through here so that the
// messages have one form: the file, the buffer's file offset, the record's
// offset inside the buffer, what is wrong and what was skipped. For a
// compressed buffer a record offset is not a file offset, so the buffer's
// offset is the located one there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "reader/reader_stats.h"
#include "reader/record_fault.h"

namespace dtrace::etw {

std::string hex_offset(uint64_t value);

class ProblemLog {
  public:
    ProblemLog(std::string file_name, ReaderStats &stats) : file_(std::move(file_name)), stats_(stats) {}

    const std::string &file() const { return file_; }
    // A buffer that cannot be used at all.
    void buffer_skipped(uint64_t buffer_offset, std::string_view what);
    // A damaged record: the records before it were delivered, the rest are not.
    void record_damaged(uint64_t buffer_offset, bool compressed, uint32_t record_offset, RecordFault fault);
    // "<file>: buffer at offset 0x...: " for messages of the caller's own.
    std::string at_buffer(uint64_t buffer_offset) const;

  private:
    void add(uint64_t file_offset, std::string message);

    std::string file_;
    ReaderStats &stats_;
};

} // namespace dtrace::etw
