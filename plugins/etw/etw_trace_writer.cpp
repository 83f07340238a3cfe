// etw_trace_writer.cpp: writing etw_trace()'s ETL file (see etw_trace_writer.h).
#include "etw_trace_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "reader/buffer_header.h"
#include "reader/extended_items.h"
#include "reader/le_bytes.h"
#include "reader/trace_clock.h"
#include "reader/utf16.h"
#include "writer/buffer_encoder.h"
#include "writer/record_encoder.h"

namespace dtrace::etw::plugin {

namespace {

constexpr uint32_t kBufferSize = 0x10000;
constexpr uint8_t kTraceLoggingChannel = 11;
constexpr size_t kMaxRecordSize = 0xFFFF; // a record's size is 16 bits
constexpr char16_t kLoggerName[] = u"dtrace etw_trace";

int64_t to_filetime(uint64_t unix_ns) {
    return static_cast<int64_t>(unix_ns / kNanosPerFiletimeTick) + kFiletimeUnixEpoch;
}

std::string system_error(const std::string &what, const std::string &path) {
    return "cannot " + what + " " + path + ": " + std::strerror(errno);
}

// The header buffer: the logfile header record, with what is known so far.
writer::Bytes header_buffer(const std::string &path, int64_t start, int64_t end, uint32_t buffers) {
    writer::LogfileSpec logfile;
    logfile.buffer_size = kBufferSize;
    logfile.number_of_processors = 1;
    logfile.clock_type = clock_type::kSystemTime;
    logfile.start_time = start;
    logfile.header_timestamp = start;
    logfile.end_time = end;
    logfile.buffers_written = buffers;
    logfile.logger_name = kLoggerName;
    logfile.log_file_name = utf8_to_utf16(path);
    logfile.tid = 0;
    logfile.pid = 0;
    writer::Bytes record = writer::encode(logfile);
    record.resize(align8(record.size()), 0);
    writer::BufferFields fields;
    fields.flags = buffer_flag::kFlushMarker | buffer_flag::kProcessorIndex;
    fields.type = buffer_type::kHeader;
    return writer::plain_buffer(record, kBufferSize, fields);
}

} // namespace

std::string EtwTraceWriter::write_at(uint64_t offset, const writer::Bytes &bytes) {
    if (std::fseek(file_.get(), static_cast<long>(offset), SEEK_SET) != 0 ||
        std::fwrite(bytes.data(), 1, bytes.size(), file_.get()) != bytes.size()) {
        return system_error("write", path_);
    }
    return "";
}

std::string EtwTraceWriter::open(int64_t first_filetime) {
    file_.reset(std::fopen(path_.c_str(), "wb"));
    if (!file_) {
        return system_error("create", path_);
    }
    start_filetime_ = last_filetime_ = first_filetime;
    sequence_ = 1;
    return write_at(0, header_buffer(path_, start_filetime_, start_filetime_, 1));
}

std::string EtwTraceWriter::write(const TraceLoggingEvent &event, const Origin &origin) {
    const int64_t filetime = to_filetime(origin.time_ns);
    if (!file_) {
        if (std::string failed = open(filetime); !failed.empty()) {
            return failed;
        }
    }
    writer::EventHeaderSpec spec;
    spec.provider = event.guid;
    spec.channel = kTraceLoggingChannel;
    spec.level = event.level;
    spec.keyword = event.keyword;
    spec.timestamp = filetime;
    // An unknown id (-1) is written as ETW's 0xFFFFFFFF.
    spec.pid = static_cast<uint32_t>(origin.pid);
    spec.tid = static_cast<uint32_t>(origin.tid);
    spec.items = {{ext_type::kProvTraits, provider_traits_item(event.provider)},
                  {ext_type::kEventSchemaTl, tracelogging_schema_item(event)}};
    spec.payload = event.payload;
    writer::Bytes record = writer::encode(spec);
    const size_t size = record.size();
    if (size > kMaxRecordSize || buffer_layout::kSize + align8(size) > kBufferSize) {
        return "the event takes " + std::to_string(size) + " bytes; an ETW event holds at most 64 KB";
    }
    if (buffer_layout::kSize + records_.size() + align8(size) > kBufferSize) {
        if (std::string failed = flush_buffer(); !failed.empty()) {
            return failed;
        }
    }
    writer::append(records_, record);
    records_.resize(align8(records_.size()), 0);
    last_filetime_ = std::max(last_filetime_, filetime);
    // origin.cpu is not kept: one lane, the file keeps the order the events were recorded in.
    ++events_;
    return "";
}

std::string EtwTraceWriter::flush_buffer() {
    writer::BufferFields fields;
    fields.sequence = sequence_;
    fields.timestamp = last_filetime_;
    const uint64_t offset = static_cast<uint64_t>(sequence_) * kBufferSize;
    ++sequence_;
    std::string failed = write_at(offset, writer::plain_buffer(records_, kBufferSize, fields));
    records_.clear();
    return failed;
}

std::string EtwTraceWriter::close() {
    if (!file_) {
        return "";
    }
    std::string failed = records_.empty() ? "" : flush_buffer();
    if (failed.empty()) {
        failed = write_at(0, header_buffer(path_, start_filetime_, last_filetime_, static_cast<uint32_t>(sequence_)));
    }
    if (std::fclose(file_.release()) != 0 && failed.empty()) {
        failed = system_error("write", path_);
    }
    return failed;
}

} // namespace dtrace::etw::plugin
