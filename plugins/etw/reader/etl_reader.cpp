// etl_reader.cpp: opening a trace and merging its CPU lanes (see etl_reader.h).
#include "reader/etl_reader.h"

#include <limits>
#include <optional>

#include "reader/buffer_chain.h"
#include "reader/buffer_loader.h"
#include "reader/cpu_lane.h"
#include "reader/kernel_groups.h"
#include "reader/lane_merge.h"
#include "reader/problem_log.h"
#include "reader/record_cursor.h"
#include "reader/zip_archive.h"

namespace dtrace::etw {

namespace {
constexpr uint32_t kNoLane = std::numeric_limits<uint32_t>::max();
constexpr uint16_t kLogfileHeaderHook = 0x0000; // EventTrace group, type 0 (Info)

bool is_kernel_kind(RecordKind kind) {
    return kind == RecordKind::System || kind == RecordKind::CompactSystem || kind == RecordKind::PerfInfo;
}
} // namespace

struct EtlReader::Impl {
    Impl(std::unique_ptr<ByteSource> src, std::string file_name, const ReaderOptions &options)
        : source(std::move(src)), name(std::move(file_name)), log(name, stats), budget(options.max_buffer_memory),
          chain(*source), loader(*source, budget), ctx{chain, loader, log, stats, clock, sizeof(uint64_t)} {}

    std::optional<Error> read_logfile_header();
    void start_lanes();
    bool next(Event &out);
    // Moves the merge's top lane to its next record.
    void step(uint32_t top_lane);

    std::unique_ptr<ByteSource> source;
    std::string name;
    ReaderStats stats;
    ProblemLog log;
    MemoryBudget budget;
    BufferChain chain;
    BufferLoader loader;
    LogfileHeader header;
    TraceClock clock;
    std::vector<CpuLane> lanes;
    LaneMerge merge{0};
    LaneContext ctx;
    uint32_t pending = kNoLane; // the lane whose record next() delivered last
    int64_t last_timestamp = std::numeric_limits<int64_t>::min();
};

std::optional<Error> EtlReader::Impl::read_logfile_header() {
    ChainLink link = chain.link_at(0);
    if (link.kind != ChainLink::Kind::Buffer) {
        return Error{log.at_buffer(0) + (link.damage ? link.damage : "no buffer")};
    }
    ByteBuffer first(budget);
    std::string problem = loader.load(0, link.header, first);
    if (!problem.empty()) {
        return Error{log.at_buffer(0) + problem};
    }
    RecordCursor cursor;
    cursor.reset(first.first(link.header.offset));
    RecordHead head;
    uint64_t skipped = 0;
    RecordFault fault = RecordFault::None;
    Event event;
    if (cursor.next(head, 0, skipped, fault) != RecordCursor::Step::Record || head.shape->kind != RecordKind::System ||
        cursor.parse(head, 0, event) != RecordFault::None || event.hook_id != kLogfileHeaderHook) {
        return Error{log.at_buffer(0) + "the first record is not the trace's logfile header (not an ETL file?)"};
    }
    Result<LogfileHeader> parsed = parse_logfile_header(event.payload, event.pointer_size);
    if (!parsed) {
        return Error{log.at_buffer(0) + parsed.error()};
    }
    header = std::move(parsed.value());
    header.header_timestamp = event.timestamp;
    Result<TraceClock> made = TraceClock::from_header(header);
    if (!made) {
        return Error{log.at_buffer(0) + made.error()};
    }
    clock = made.value();
    ctx.default_pointer_size = header.pointer_size == sizeof(uint32_t) ? sizeof(uint32_t) : sizeof(uint64_t);
    return std::nullopt;
}

void EtlReader::Impl::start_lanes() {
    bool fixed_size = (header.log_file_mode & log_file_mode::kCompressed) == 0;
    chain.set_resync_size(fixed_size ? header.buffer_size : 0);
    for (const LanePlan &plan : scan_chain(chain, log)) {
        lanes.emplace_back(plan, budget);
    }
    merge = LaneMerge(lanes.size());
    for (uint32_t i = 0; i < lanes.size(); ++i) {
        if (lanes[i].advance(ctx)) {
            merge.set(i, lanes[i].head_timestamp(), lanes[i].cpu());
        }
    }
    merge.start();
}

// Inline in EtlReader::next_in_file(): this is the per-event loop.
inline bool EtlReader::Impl::next(Event &out) {
    if (pending != kNoLane) {
        // The lane that delivered last is still on top: its buffer had to stay
        // loaded while the caller used the event's spans.
        step(pending);
        pending = kNoLane;
    }
    while (!merge.empty()) {
        uint32_t lane = merge.top();
        if (lanes[lane].take(ctx, out)) {
            pending = lane;
            ++stats.records[static_cast<size_t>(out.kind)];
            ++stats.events;
            stats.out_of_order_events += out.timestamp < last_timestamp ? 1 : 0;
            last_timestamp = out.timestamp;
            // Kernel records never carry the RT_LostEvent class GUID.
            if (!is_kernel_kind(out.kind)) {
                stats.lost_event_records += out.provider == kLostEventGuid ? 1 : 0;
            }
            return true;
        }
        step(lane);
    }
    return false;
}

inline void EtlReader::Impl::step(uint32_t top_lane) {
    CpuLane &lane = lanes[top_lane];
    if (lane.advance(ctx)) {
        merge.top_changed(lane.head_timestamp());
    } else {
        merge.pop();
    }
}

Result<EtlReader> EtlReader::open(const std::string &path, const ReaderOptions &options) {
    Result<std::unique_ptr<ByteSource>> source = open_file_source(path);
    if (!source) {
        return Error{source.error()};
    }
    return open_source(std::move(source.value()), path, options);
}

Result<EtlReader> EtlReader::open_source(std::unique_ptr<ByteSource> source, const std::string &name,
                                         const ReaderOptions &options) {
    std::string display_name;
    Result<std::unique_ptr<ByteSource>> input =
        open_maybe_archived(std::move(source), name, ".etl", options.max_extracted_size, display_name);
    if (!input) {
        return Error{input.error()};
    }
    source = std::move(input.value());
    auto impl = std::make_unique<Impl>(std::move(source), display_name, options);
    if (std::optional<Error> failed = impl->read_logfile_header()) {
        return *failed;
    }
    impl->start_lanes();
    return EtlReader(std::move(impl));
}

EtlReader::EtlReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
EtlReader::EtlReader(std::unique_ptr<EventStream> stream) : stream_(std::move(stream)) {}
EtlReader EtlReader::adopt(std::unique_ptr<EventStream> stream) {
    return EtlReader(std::move(stream));
}
EtlReader::EtlReader(EtlReader &&) noexcept = default;
EtlReader &EtlReader::operator=(EtlReader &&) noexcept = default;
EtlReader::~EtlReader() = default;

bool EtlReader::next_in_file(Event &out) {
    return impl_->next(out);
}
const LogfileHeader &EtlReader::logfile() const {
    return stream_ ? stream_->logfile() : impl_->header;
}
const TraceClock &EtlReader::clock() const {
    return stream_ ? stream_->clock() : impl_->clock;
}
const ReaderStats &EtlReader::stats() const {
    return stream_ ? stream_->stats() : impl_->stats;
}
const std::string &EtlReader::name() const {
    return stream_ ? stream_->name() : impl_->name;
}

size_t EtlReader::file_count() const {
    return stream_ ? stream_->file_count() : 1;
}

std::vector<uint16_t> EtlReader::cpus() const {
    std::vector<uint16_t> result;
    if (stream_) {
        return result;
    }
    for (const CpuLane &lane : impl_->lanes) {
        result.push_back(lane.cpu());
    }
    return result;
}

} // namespace dtrace::etw
