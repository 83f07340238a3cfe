// etl_reader.h: the ETL reader's public API, a pull iterator over a trace.
//
//     auto opened = EtlReader::open("trace.etl");      // or trace.etl.zip
//     if (!opened) { report(opened.error()); }
//     EtlReader &reader = opened.value();
//     Event event;
//     while (reader.next(event)) { ... }             // global timestamp order
//     reader.stats();                                 // counts, damage found
//
// open() reads the logfile header (clock, buffer size, modes) and walks the
// buffer headers once to find the CPUs; next() then merges the CPUs' records
// by timestamp, holding one buffer per CPU: memory is O(CPUs x buffer size)
// plus a fixed header cache, whatever the file size. An archive (.etl.zip,
// recognised by its content) is first extracted to an unlinked temporary
// file. Damage found while reading is skipped, counted and located in
// stats(); only a file without a usable logfile header fails to open.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reader/byte_source.h"
#include "reader/event.h"
#include "reader/event_stream.h"
#include "reader/logfile_header.h"
#include "reader/reader_stats.h"
#include "reader/result.h"
#include "reader/trace_clock.h"

namespace dtrace::etw {

struct ReaderOptions {
    // Bytes of buffer memory (all CPUs' current buffers and the decompression
    // scratch) the reader may hold; a buffer beyond it is skipped as damaged.
    uint64_t max_buffer_memory = uint64_t{1} << 30;
    // Largest .etl the reader extracts from an archive.
    uint64_t max_extracted_size = UINT64_MAX;
};

class EtlReader {
  public:
    static Result<EtlReader> open(const std::string &path, const ReaderOptions &options = {});
    // name is used in messages. The source may be a ZIP archive.
    static Result<EtlReader> open_source(std::unique_ptr<ByteSource> source, const std::string &name,
                                         const ReaderOptions &options = {});
    // A reader over another format's events (event_stream.h).
    static EtlReader adopt(std::unique_ptr<EventStream> stream);

    EtlReader(EtlReader &&) noexcept;
    EtlReader &operator=(EtlReader &&) noexcept;
    ~EtlReader();

    // The next event in timestamp order; false at the end of the trace. The
    // event's spans stay valid until the next call. Inline: an adopted
    // stream's events go straight to it, not through the ETL loop's frame.
    bool next(Event &out) { return stream_ ? stream_->next(out) : next_in_file(out); }

    const LogfileHeader &logfile() const;
    const TraceClock &clock() const;
    const ReaderStats &stats() const;
    // The name used in messages ("a.etl.zip!a.etl" for an archive member).
    const std::string &name() const;
    // The trace files read: 1, or a merged session's (merged_stream.h).
    size_t file_count() const;
    // The CPUs that have buffers in the file, ascending (none for an adopted stream).
    std::vector<uint16_t> cpus() const;

  private:
    struct Impl;
    bool next_in_file(Event &out);
    explicit EtlReader(std::unique_ptr<Impl> impl);
    explicit EtlReader(std::unique_ptr<EventStream> stream);
    std::unique_ptr<Impl> impl_;
    std::unique_ptr<EventStream> stream_; // set instead of impl_ by adopt()
};

} // namespace dtrace::etw
