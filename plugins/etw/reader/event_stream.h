// event_stream.h: events of another trace format, replayed as ETW events.
//
// The etw plugin replays whatever EtlReader delivers. A reader of another
// format (EventPipe's nettrace, plugins/etw/nettrace) implements this
// interface, delivering the same normalized Event (EVENT_HEADER kind, the
// provider's GUID, the event's descriptor, payload and extended items) with
// a logfile header and clock in ETL terms, and EtlReader::adopt() wraps it:
// the plugin's probes, catalog and dispatch then read both formats alike.
#pragma once

#include <cstddef>
#include <string>

#include "reader/event.h"
#include "reader/logfile_header.h"
#include "reader/reader_stats.h"
#include "reader/trace_clock.h"

namespace dtrace::etw {

class EventStream {
  public:
    virtual ~EventStream() = default;
    // The next event in timestamp order; false at the end. The event's spans
    // stay valid until the next call.
    virtual bool next(Event &out) = 0;
    virtual const LogfileHeader &logfile() const = 0;
    virtual const TraceClock &clock() const = 0;
    virtual const ReaderStats &stats() const = 0;
    virtual const std::string &name() const = 0;
    // The trace files it reads (merged_stream.h reads several).
    virtual size_t file_count() const { return 1; }
};

} // namespace dtrace::etw
