// merged_stream.h: several trace files replayed as one session.
//
// `dtrace -E kernel.etl -E user.etl` (or an archive holding several .etl
// files, as a Visual Studio diagsession does) replays every file, merged in
// timestamp order, so that the kernel file's processes name the other files'
// events. MergedStream holds one reader per file and delivers the earliest
// head event of all of them (ties: the file given first), marking each
// event with its file's index (Event::source).
//
// One clock serves the session: the clock of the file whose session started
// first. Files recorded on the same machine share its QPC counter, so their
// raw timestamps (and the raw timestamps their payloads name, as StackWalk
// events do) read alike, and their events get their time from that clock.
// A file of another counter (another machine, another clock kind) keeps its
// own times; its raw timestamps are its own. A file's header records (the
// session start) carry the merged clock's session start as raw timestamp,
// so that they fire before the data as a single file's do.
//
// The logfile header is the first file's with the counts (events lost,
// buffers written) summed; the statistics are the sums of the files', each
// problem kept once in the order it was found.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reader/etl_reader.h"
#include "reader/event_stream.h"

namespace dtrace::etw {

class MergedStream final : public EventStream {
  public:
    // At most kMaxFiles readers (Event::source is a byte).
    static constexpr size_t kMaxFiles = 255;
    explicit MergedStream(std::vector<EtlReader> readers);

    bool next(Event &out) override;
    const LogfileHeader &logfile() const override { return header_; }
    const TraceClock &clock() const override { return readers_[primary_].clock(); }
    const ReaderStats &stats() const override { return stats_; }
    // "a.etl + b.etl + ...", the files' own names.
    const std::string &name() const override { return name_; }
    size_t file_count() const override { return readers_.size(); }

  private:
    struct Head {
        Event event;
        bool valid = false;
        bool shares_clock = false; // times from the session's clock (see above)
    };
    // Reads file i's next event into heads_[i].
    void advance(size_t i);
    // Brings stats_ up to the files' own counts (buffers and problems).
    void refresh_stats();

    std::vector<EtlReader> readers_;
    std::vector<Head> heads_;
    size_t primary_ = 0;
    size_t pending_ = SIZE_MAX; // the file whose event next() delivered last
    LogfileHeader header_;
    ReaderStats stats_;
    std::vector<uint64_t> problems_copied_; // by file
    uint64_t buffers_seen_ = 0;             // sum of the files' buffer counts at the last refresh
    uint64_t problems_seen_ = 0;            // likewise, problems
    std::string name_;
};

} // namespace dtrace::etw
