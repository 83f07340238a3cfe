// nettrace_reader.h: EventPipe .nettrace streams as a sequence of ETW-shaped events.
//
//     auto opened = NetTraceReader::open("trace.nettrace");   // or .nettrace.zip
//     if (!opened) { report(opened.error()); }
//     NetTraceReader &reader = *opened.value();
//     Event event;
//     while (reader.next(event)) { ... }   // timestamp order
//     reader.stats();                      // counts, damage found
//
// Reads NetTrace V4, V5 and V6 (block_stream.h) front to back, once, so the
// same reader serves files and the live stream of a .NET process
// (open_input). Each event becomes an Event of kind EventHeader: the
// provider's GUID (provider_guid.h), the metadata row's id, version,
// level, opcode and keywords, the thread and processor, the trace's process
// (V6: the thread's), the payload, and extended items that name the
// provider, describe the event (metadata_items.h) and carry its stack.
//
// Events are sorted by timestamp between sequence points, as the format
// allows (the writer sorts per thread only; region_order.h merges the
// runs): the reader keeps the blocks of
// one region between sequence points, at most max_pending_bytes of them
// (past that it sorts and delivers what it has; later events that are
// earlier are counted in stats().out_of_order_events). Memory is bounded
// by that and the largest block, whatever the stream's length.
//
// Damage does not stop the reader: a damaged block is reported with the
// file and offset (stats().problems) and counted in corrupt_buffers, the
// events before the damage are delivered; damage in the framing ends the
// stream there, and what was read stays valid.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "nettrace/stream_input.h"
#include "nettrace/trace_info.h"
#include "reader/event_stream.h"
#include "reader/result.h"

namespace dtrace::etw::nettrace {

struct NetTraceOptions {
    uint64_t max_block_size = uint64_t{1} << 28;
    // Bytes of blocks held for sorting before the reader delivers anyway.
    uint64_t max_pending_bytes = uint64_t{1} << 28;
    // Largest .nettrace the reader extracts from an archive.
    uint64_t max_extracted_size = UINT64_MAX;
};

// True if the file starts with the "Nettrace" magic, or is a ZIP archive
// holding a *.nettrace member (and so is for this reader, not the ETL one).
bool is_nettrace_file(ByteSource &source);

class NetTraceReader final : public EventStream {
  public:
    // A file (.nettrace or .nettrace.zip).
    static Result<std::unique_ptr<NetTraceReader>> open(const std::string &path, const NetTraceOptions &options = {});
    static Result<std::unique_ptr<NetTraceReader>>
    open_source(std::unique_ptr<ByteSource> source, const std::string &name, const NetTraceOptions &options = {});
    // A stream read as it arrives (a live session's socket). Reads up to
    // and including the Trace block.
    static Result<std::unique_ptr<NetTraceReader>>
    open_input(std::unique_ptr<StreamInput> input, const std::string &name, const NetTraceOptions &options = {});
    ~NetTraceReader() override;

    bool next(Event &out) override;
    const LogfileHeader &logfile() const override;
    const TraceClock &clock() const override;
    const ReaderStats &stats() const override;
    const std::string &name() const override;

    // 4 (V4 and V5 streams) or 6.
    uint32_t format_version() const;
    const TraceInfo &trace() const;

  private:
    struct Impl;
    explicit NetTraceReader(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace dtrace::etw::nettrace
