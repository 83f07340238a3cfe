// etw_trace_writer.h: the ETL file etw_trace() writes (-x etwtrace=PATH).
//
// There is no ETW session to log to outside Windows, so etw_trace() events go
// to a file in the format the reader reads (and Windows' tools too): a header
// buffer with the logfile header record, then 64 KB buffers of EVENT_HEADER
// records, each a TraceLogging event carrying its provider's name
// (PROV_TRAITS) and its own schema (EVENT_SCHEMA_TL). The clock is the
// system time (FILETIME), so timestamps need no frequency. Buffers are
// written as they fill; close() writes the last one and rewrites the header
// with the end time and the number of buffers.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "etw_trace_event.h"
#include "writer/byte_writer.h"

namespace dtrace::etw::plugin {

class EtwTraceWriter {
  public:
    explicit EtwTraceWriter(std::string path) : path_(std::move(path)) {}
    ~EtwTraceWriter() { (void)close(); }
    EtwTraceWriter(const EtwTraceWriter &) = delete;
    EtwTraceWriter &operator=(const EtwTraceWriter &) = delete;

    const std::string &path() const { return path_; }
    bool is_open() const { return file_ != nullptr; }
    // Where and when an event was fired: time_ns since the Unix epoch, the
    // CPU, the firing's process and thread (-1: unknown).
    struct Origin {
        uint64_t time_ns = 0;
        uint32_t cpu = 0;
        int64_t pid = -1;
        int64_t tid = -1;
    };
    // Appends one event as fired at origin. The first call creates the
    // file. Returns "" or what went wrong.
    std::string write(const TraceLoggingEvent &event, const Origin &origin);
    // Writes what is pending; "" or what went wrong. Idempotent.
    std::string close();

  private:
    std::string open(int64_t first_filetime);
    std::string flush_buffer();
    std::string write_at(uint64_t offset, const writer::Bytes &bytes);

    std::string path_;
    std::unique_ptr<FILE, int (*)(FILE *)> file_{nullptr, &std::fclose};
    writer::Bytes records_; // the current buffer's records, padded
    int64_t start_filetime_ = 0;
    int64_t last_filetime_ = 0;
    int64_t sequence_ = 0;
    uint64_t events_ = 0;
};

} // namespace dtrace::etw::plugin
