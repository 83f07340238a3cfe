// nettrace_reader.cpp: blocks to sorted events (see nettrace_reader.h).
#include "nettrace/nettrace_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "nettrace/block_stream.h"
#include "nettrace/byte_cursor.h"
#include "nettrace/event_rows.h"
#include "nettrace/metadata_items.h"
#include "nettrace/region_order.h"
#include "nettrace/sequence_gaps.h"
#include "nettrace/stream_tables.h"
#include "reader/extended_items.h"
#include "reader/problem_log.h"
#include "reader/zip_archive.h"

namespace dtrace::etw::nettrace {

namespace {

constexpr uint32_t kV6 = 6;
constexpr uint32_t kSequencePointFlushThreads = 1;
constexpr std::string_view kMemberSuffix = ".nettrace";
// Spare blocks kept for reuse: a region's worth of a runtime's blocks.
constexpr size_t kMaxSpareBlocks = 64;

// An event between its block and its delivery: one cache line, since a
// region's events are read twice (in file order, then in time order) and
// this is most of the memory those passes touch.
struct Pending {
    int64_t timestamp = 0;
    const MetadataEntry *metadata = nullptr;
    const uint8_t *payload = nullptr;
    const uint8_t *stack = nullptr;
    uint32_t payload_size = 0;
    uint32_t stack_size = 0;
    uint32_t pid = kUnknownId;
    uint32_t tid = kUnknownId;
    uint32_t processor = 0;
    uint32_t activity = 0; // index in Impl::activities (0: none)
    uint32_t block = 0;    // index in Impl::block_offsets
    uint32_t row_offset = 0;
};
static_assert(sizeof(Pending) == 64);

std::string_view block_name(BlockKind kind) {
    switch (kind) {
    case BlockKind::Trace:
        return "Trace block";
    case BlockKind::Event:
        return "EventBlock";
    case BlockKind::Metadata:
        return "MetadataBlock";
    case BlockKind::Stack:
        return "StackBlock";
    case BlockKind::SequencePoint:
        return "sequence point block";
    case BlockKind::Thread:
        return "Thread block";
    case BlockKind::RemoveThread:
        return "RemoveThread block";
    case BlockKind::LabelList:
        return "LabelList block";
    case BlockKind::Other:
        break;
    }
    return "block";
}

} // namespace

struct NetTraceReader::Impl {
    Impl(BlockStream s, std::string n, const NetTraceOptions &o)
        : blocks(std::move(s)), name(std::move(n)), options(o), tables(blocks.format_version()) {}

    // Reads blocks up to the Trace block.
    std::optional<Error> read_trace();
    // Inlined into NetTraceReader::next(): once an event.
    [[gnu::always_inline]] bool next(Event &out);
    // Reads blocks until a region is ready to deliver; false at the end.
    bool fill_region();
    void take_block(Block &block);
    // The delivered region's blocks become spare_blocks (up to kMaxSpareBlocks).
    void recycle_region_blocks();
    void take_metadata(const Block &block);
    void take_events(const Block &block);
    void deliver(const Pending &p, Event &out);
    // p.activity for an event of this activity id; most events have none.
    uint32_t activity_of(const Guid &activity) {
        uint64_t words[2];
        std::memcpy(words, &activity, sizeof words);
        return (words[0] | words[1]) == 0 ? 0 : activity_index(activity);
    }
    uint32_t activity_index(const Guid &activity);
    void problem(uint64_t offset, const std::string &what);

    BlockStream blocks;
    std::string name;
    NetTraceOptions options;
    TraceInfo info;
    uint16_t event_flags = 0; // every event's (the trace's pointer size)
    LogfileHeader header;
    TraceClock clock;
    ReaderStats stats;
    StreamTables tables;
    SequenceGaps gaps;
    bool ended = false;
    bool region_ready = false;

    // The region being read, then delivered.
    std::vector<Pending> pending;
    std::vector<Guid> activities{Guid{}}; // the region's activity ids; [0] none
    std::vector<uint64_t> block_offsets;  // of the region's event blocks
    std::vector<uint8_t> stack_item;      // a STACK_TRACE item being made
    RegionOrder order;
    uint64_t pending_bytes = 0;
    std::vector<BlockBytes> region_blocks; // event blocks of the region
    std::vector<BlockBytes> stack_blocks;  // stack blocks until the next sequence point
    std::vector<BlockBytes> spare_blocks;  // emptied blocks of delivered regions, read into again
    std::vector<uint8_t> scratch;          // items of an event with a stack
    // What scratch holds: the items of this metadata row with this stack
    // (a stack block's bytes, which stay put while the region is delivered).
    // Stacks repeat: an event with the stack of the event before it reuses them.
    const MetadataEntry *scratch_metadata = nullptr;
    const uint8_t *scratch_stack = nullptr;
    uint32_t scratch_stack_size = 0;
    int64_t last_timestamp = std::numeric_limits<int64_t>::min();
};

void NetTraceReader::Impl::problem(uint64_t offset, const std::string &what) {
    ++stats.problem_count;
    if (stats.problems.size() < ReaderStats::kMaxProblems) {
        stats.problems.push_back(Problem{offset, name + ": " + what});
    }
}

std::optional<Error> NetTraceReader::Impl::read_trace() {
    Block block;
    BlockStream::Step step = blocks.next(block);
    if (step != BlockStream::Step::Block) {
        return Error{step == BlockStream::Step::Damaged ? blocks.damage() : name + ": the stream holds no Trace block"};
    }
    if (block.kind != BlockKind::Trace) {
        return Error{name + ": offset " + hex_offset(block.offset) + ": the first block is a " +
                     std::string(block_name(block.kind)) + ", not the Trace block"};
    }
    Result<TraceInfo> parsed = parse_trace_info(block.bytes, blocks.format_version());
    if (!parsed) {
        return Error{name + ": offset " + hex_offset(block.offset) + ": " + parsed.error()};
    }
    info = parsed.value();
    event_flags = static_cast<uint16_t>(event_flag::kExtendedInfo |
                                        (info.pointer_size == 4 ? event_flag::k32BitHeader : event_flag::k64BitHeader));
    header = as_logfile_header(info);
    Result<TraceClock> made = TraceClock::from_header(header);
    if (!made) {
        return Error{name + ": " + made.error()};
    }
    clock = made.value();
    return std::nullopt;
}

void NetTraceReader::Impl::take_metadata(const Block &block) {
    if (blocks.format_version() >= kV6) {
        ByteCursor c(block.bytes);
        c.skip(c.u16()); // a header of its own size, not interpreted
        while (c.ok() && !c.at_end()) {
            const size_t at = c.offset();
            std::span<const uint8_t> row = c.bytes(c.u16());
            Result<EventMetadata> parsed =
                c.ok() ? parse_metadata_v6(row) : Result<EventMetadata>(Error{"a row runs past the block's end"});
            if (!parsed) {
                ++stats.corrupt_buffers;
                problem(block.offset + at, "MetadataBlock at offset " + hex_offset(block.offset) + ": row at offset " +
                                               hex_offset(block.offset + at) + ": " + parsed.error() +
                                               "; the rest of the block is skipped");
                return;
            }
            tables.define(std::move(parsed.value()));
        }
        return;
    }
    EventRows rows(block.bytes, blocks.format_version());
    const EventRow &row = rows.row();
    EventRows::Step step;
    while ((step = rows.next()) == EventRows::Step::Row) {
        Result<EventMetadata> parsed = parse_metadata_v5(row.payload);
        if (!parsed) {
            problem(block.offset + row.offset,
                    "MetadataBlock at offset " + hex_offset(block.offset) + ": metadata event at offset " +
                        hex_offset(block.offset + row.offset) + ": " + parsed.error() + "; its events are skipped");
            continue;
        }
        tables.define(std::move(parsed.value()));
    }
    if (step == EventRows::Step::Damaged) {
        ++stats.corrupt_buffers;
        problem(block.offset + rows.damage_offset(), "MetadataBlock at offset " + hex_offset(block.offset) +
                                                         ": offset " + hex_offset(block.offset + rows.damage_offset()) +
                                                         ": " + rows.damage() + "; the rest of the block is skipped");
    }
}

uint32_t NetTraceReader::Impl::activity_index(const Guid &activity) {
    if (activity != activities.back()) { // an id tends to last for several events
        activities.push_back(activity);
    }
    return static_cast<uint32_t>(activities.size() - 1);
}

void NetTraceReader::Impl::take_events(const Block &block) {
    const bool v6 = blocks.format_version() >= kV6;
    const auto block_index = static_cast<uint32_t>(block_offsets.size());
    block_offsets.push_back(block.offset);
    EventRows rows(block.bytes, blocks.format_version());
    const EventRow &row = rows.row();
    EventRows::Step step;
    while ((step = rows.next()) == EventRows::Step::Row) {
        const MetadataEntry *metadata = tables.metadata(row.metadata_id);
        if (metadata == nullptr) {
            ++stats.skipped_records;
            problem(block.offset + row.offset, "EventBlock at offset " + hex_offset(block.offset) +
                                                   ": event at offset " + hex_offset(block.offset + row.offset) +
                                                   " names metadata " + std::to_string(row.metadata_id) +
                                                   ", which no metadata row defines; the event is skipped");
            continue;
        }
        gaps.note(row.capture_thread, row.sequence);
        order.add(row.timestamp);
        const std::span<const uint8_t> stack =
            row.stack_id != 0 ? tables.stack(row.stack_id) : std::span<const uint8_t>{};
        uint32_t pid = info.process_id;
        auto tid = static_cast<uint32_t>(row.thread);
        uint32_t activity = 0;
        if (v6) {
            const ThreadRow *thread = tables.thread(row.thread);
            pid = thread != nullptr ? thread->pid : info.process_id;
            tid = thread != nullptr ? thread->tid : kUnknownId;
            const LabelRow *labels = row.label_list != 0 ? tables.labels(row.label_list) : nullptr;
            activity = labels != nullptr ? activity_of(labels->activity) : 0;
        } else {
            activity = activity_of(row.activity);
        }
        pending.push_back(Pending{row.timestamp, metadata, row.payload.data(), stack.data(),
                                  static_cast<uint32_t>(row.payload.size()), static_cast<uint32_t>(stack.size()), pid,
                                  tid, row.processor, activity, block_index, row.offset});
    }
    if (step == EventRows::Step::Damaged) {
        ++stats.corrupt_buffers;
        problem(block.offset + rows.damage_offset(), "EventBlock at offset " + hex_offset(block.offset) + ": offset " +
                                                         hex_offset(block.offset + rows.damage_offset()) + ": " +
                                                         rows.damage() + "; the rest of the block is skipped");
    }
    header.events_lost = static_cast<uint32_t>(std::min<uint64_t>(gaps.lost(), UINT32_MAX));
}

void NetTraceReader::Impl::take_block(Block &block) {
    std::optional<std::string> damage;
    switch (block.kind) {
    case BlockKind::Metadata:
        take_metadata(block);
        break;
    case BlockKind::Event:
        take_events(block);
        pending_bytes += block.bytes.size();
        region_blocks.push_back(std::move(block.bytes));
        break;
    case BlockKind::Stack:
        damage = tables.add_stacks(block.bytes);
        stack_blocks.push_back(std::move(block.bytes));
        break;
    case BlockKind::Thread:
        damage = tables.add_threads(block.bytes);
        break;
    case BlockKind::LabelList:
        damage = tables.add_labels(block.bytes);
        break;
    case BlockKind::SequencePoint: {
        ByteCursor c(block.bytes);
        c.u64(); // timestamp
        const uint32_t flags = blocks.format_version() >= kV6 ? c.u32() : 0;
        // Events of this region keep their stacks: the blocks go with the region.
        for (BlockBytes &b : stack_blocks) {
            region_blocks.push_back(std::move(b));
        }
        stack_blocks.clear();
        tables.sequence_point((flags & kSequencePointFlushThreads) != 0);
        region_ready = true;
        break;
    }
    case BlockKind::Trace:
        damage = "a second Trace block (ignored)";
        break;
    case BlockKind::RemoveThread:
    case BlockKind::Other:
        break;
    }
    if (damage) {
        ++stats.corrupt_buffers;
        problem(block.offset,
                std::string(block_name(block.kind)) + " at offset " + hex_offset(block.offset) + ": " + *damage);
    }
}

void NetTraceReader::Impl::recycle_region_blocks() {
    for (BlockBytes &bytes : region_blocks) {
        if (spare_blocks.size() < kMaxSpareBlocks) {
            bytes.clear();
            spare_blocks.push_back(std::move(bytes));
        }
    }
    region_blocks.clear();
}

bool NetTraceReader::Impl::fill_region() {
    region_ready = false;
    Block block;
    while (!region_ready && pending_bytes < options.max_pending_bytes) {
        if (block.bytes.capacity() == 0 && !spare_blocks.empty()) { // the last one was kept
            block.bytes = std::move(spare_blocks.back());
            spare_blocks.pop_back();
        }
        const BlockStream::Step step = blocks.next(block);
        if (step != BlockStream::Step::Block) {
            if (step == BlockStream::Step::Damaged) {
                ++stats.corrupt_buffers;
                problem(blocks.offset(), blocks.damage().substr(name.size() + 2));
            }
            ended = true;
            break;
        }
        take_block(block);
    }
    order.start();
    return !pending.empty();
}

void NetTraceReader::Impl::deliver(const Pending &p, Event &out) {
    const MetadataEntry &m = *p.metadata;
    const EventMetadata &md = m.metadata;
    out.kind = RecordKind::EventHeader;
    out.pointer_size = static_cast<uint8_t>(info.pointer_size);
    out.cpu = static_cast<uint16_t>(p.processor);
    out.flags = event_flags;
    out.provider = m.provider;
    out.activity_id = activities[p.activity];
    out.id = static_cast<uint16_t>(md.event_id);
    out.version = md.version;
    out.level = md.level;
    out.opcode = md.opcode;
    out.keyword = md.keywords;
    out.pid = p.pid;
    out.tid = p.tid;
    out.timestamp = p.timestamp;
    out.time_ns = clock.to_unix_ns(p.timestamp);
    out.payload = {p.payload, p.payload_size};
    out.record = out.payload;
    out.buffer_offset = block_offsets[p.block];
    out.record_offset = p.row_offset;
    if (p.stack_size == 0) {
        out.extended = m.items;
        out.extended_types = m.item_types;
    } else {
        const uint16_t type = info.pointer_size == 4 ? ext_type::kStackTrace32 : ext_type::kStackTrace64;
        if (&m != scratch_metadata || p.stack != scratch_stack || p.stack_size != scratch_stack_size) {
            // ETW's STACK_TRACE item: a u64 match id (0), then the frames.
            scratch.assign(m.items.begin(), m.items.end());
            stack_item.assign(sizeof(uint64_t), 0);
            stack_item.insert(stack_item.end(), p.stack, p.stack + p.stack_size);
            append_item(scratch, type, stack_item);
            link_items(scratch);
            scratch_metadata = &m;
            scratch_stack = p.stack;
            scratch_stack_size = p.stack_size;
        }
        out.extended = scratch;
        out.extended_types = m.item_types | (1u << type);
    }
    ++stats.records[static_cast<size_t>(RecordKind::EventHeader)];
    ++stats.events;
    stats.out_of_order_events += p.timestamp < last_timestamp ? 1 : 0;
    last_timestamp = std::max(last_timestamp, p.timestamp);
}

inline bool NetTraceReader::Impl::next(Event &out) {
    uint32_t index = 0;
    while (!order.next(index)) {
        pending.clear();
        activities.resize(1);
        block_offsets.clear();
        order.clear();
        recycle_region_blocks();
        scratch_metadata = nullptr; // its stack's bytes go with the region
        pending_bytes = 0;
        if (ended) {
            return false;
        }
        fill_region();
    }
    // The next event of this one's run comes soon: its line is fetched while
    // this one is delivered (the runs interleave, which defeats the
    // hardware's guess).
    if (index + 1 < pending.size()) {
        __builtin_prefetch(&pending[index + 1]);
    }
    deliver(pending[index], out);
    return true;
}

bool is_nettrace_file(ByteSource &source) {
    std::array<uint8_t, 8> magic{};
    if (source.size() >= magic.size() && source.read_at(0, magic) && std::memcmp(magic.data(), "Nettrace", 8) == 0) {
        return true;
    }
    if (!looks_like_zip(source)) {
        return false;
    }
    Result<std::vector<ZipMember>> members = read_zip_directory(source, "");
    return members && find_etl_member(members.value()) == nullptr &&
           find_member_with_suffix(members.value(), kMemberSuffix) != nullptr;
}

Result<std::unique_ptr<NetTraceReader>> NetTraceReader::open(const std::string &path, const NetTraceOptions &options) {
    Result<std::unique_ptr<ByteSource>> source = open_file_source(path);
    if (!source) {
        return Error{source.error()};
    }
    return open_source(std::move(source.value()), path, options);
}

Result<std::unique_ptr<NetTraceReader>> NetTraceReader::open_source(std::unique_ptr<ByteSource> source,
                                                                    const std::string &name,
                                                                    const NetTraceOptions &options) {
    std::string display_name;
    Result<std::unique_ptr<ByteSource>> input =
        open_maybe_archived(std::move(source), name, kMemberSuffix, options.max_extracted_size, display_name);
    if (!input) {
        return Error{input.error()};
    }
    source = std::move(input.value());
    return open_input(input_from_source(std::move(source)), display_name, options);
}

Result<std::unique_ptr<NetTraceReader>> NetTraceReader::open_input(std::unique_ptr<StreamInput> input,
                                                                   const std::string &name,
                                                                   const NetTraceOptions &options) {
    Result<BlockStream> stream = BlockStream::open(std::move(input), name, options.max_block_size);
    if (!stream) {
        return Error{stream.error()};
    }
    auto impl = std::make_unique<Impl>(std::move(stream.value()), name, options);
    if (std::optional<Error> failed = impl->read_trace()) {
        return *failed;
    }
    return std::unique_ptr<NetTraceReader>(new NetTraceReader(std::move(impl)));
}

NetTraceReader::NetTraceReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NetTraceReader::~NetTraceReader() = default;

bool NetTraceReader::next(Event &out) {
    return impl_->next(out);
}
const LogfileHeader &NetTraceReader::logfile() const {
    return impl_->header;
}
const TraceClock &NetTraceReader::clock() const {
    return impl_->clock;
}
const ReaderStats &NetTraceReader::stats() const {
    return impl_->stats;
}
const std::string &NetTraceReader::name() const {
    return impl_->name;
}
uint32_t NetTraceReader::format_version() const {
    return impl_->blocks.format_version();
}
const TraceInfo &NetTraceReader::trace() const {
    return impl_->info;
}

} // namespace dtrace::etw::nettrace
