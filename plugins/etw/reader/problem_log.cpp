// problem_log.cpp: located problem messages (see problem_log.h).
#include "reader/problem_log.h"

#include <cstdio>

namespace dtrace::etw {

std::string hex_offset(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

std::string ProblemLog::at_buffer(uint64_t buffer_offset) const {
    return file_ + ": buffer at offset " + hex_offset(buffer_offset) + ": ";
}

void ProblemLog::buffer_skipped(uint64_t buffer_offset, std::string_view what) {
    ++stats_.corrupt_buffers;
    add(buffer_offset, at_buffer(buffer_offset) + std::string(what) + "; buffer skipped");
}

void ProblemLog::record_damaged(uint64_t buffer_offset, bool compressed, uint32_t record_offset, RecordFault fault) {
    ++stats_.corrupt_buffers;
    std::string where = compressed ? "decompressed record at +" : "record at +";
    add(compressed ? buffer_offset : buffer_offset + record_offset,
        at_buffer(buffer_offset) + where + hex_offset(record_offset) + ": " + std::string(describe(fault)) +
            "; rest of buffer skipped");
}

void ProblemLog::add(uint64_t file_offset, std::string message) {
    ++stats_.problem_count;
    if (stats_.problems.size() < ReaderStats::kMaxProblems) {
        stats_.problems.push_back(Problem{file_offset, std::move(message)});
    }
}

} // namespace dtrace::etw
