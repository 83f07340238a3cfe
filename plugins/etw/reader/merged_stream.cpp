// merged_stream.cpp: the k-way merge of several files' events (see merged_stream.h).
#include "reader/merged_stream.h"

#include <algorithm>

namespace dtrace::etw {

namespace {
// Two files of one counter: their anchors (header timestamp, StartTime)
// agree within this, StartTime having 100 ns steps and being taken near,
// not at, the header's timestamp.
constexpr int64_t kSameCounterToleranceNs = 1000000000;
} // namespace

MergedStream::MergedStream(std::vector<EtlReader> readers)
    : readers_(std::move(readers)), heads_(readers_.size()), problems_copied_(readers_.size(), 0) {
    for (size_t i = 0; i < readers_.size(); ++i) {
        if (readers_[i].clock().start_ns() < readers_[primary_].clock().start_ns()) {
            primary_ = i;
        }
        name_ += (i == 0 ? "" : " + ") + readers_[i].name();
    }
    header_ = readers_[0].logfile();
    header_.events_lost = 0;
    header_.buffers_written = 0;
    for (size_t i = 0; i < readers_.size(); ++i) {
        const LogfileHeader &own = readers_[i].logfile();
        header_.events_lost += own.events_lost;
        header_.buffers_written += own.buffers_written;
        heads_[i].shares_clock =
            i == primary_ || clock().shares_counter_with(readers_[i].clock(), kSameCounterToleranceNs);
        advance(i);
    }
    refresh_stats();
}

void MergedStream::advance(size_t i) {
    Head &head = heads_[i];
    head.valid = readers_[i].next(head.event);
    if (!head.valid) {
        return;
    }
    Event &e = head.event;
    e.source = static_cast<uint8_t>(i);
    if (readers_[i].clock().is_session_start(e.timestamp)) {
        e.timestamp = clock().raw_base();
    } else if (head.shares_clock) {
        e.time_ns = clock().to_unix_ns(e.timestamp);
    }
}

bool MergedStream::next(Event &out) {
    if (pending_ != SIZE_MAX) {
        advance(pending_); // its spans had to stay valid until now
        pending_ = SIZE_MAX;
    }
    size_t earliest = SIZE_MAX;
    for (size_t i = 0; i < heads_.size(); ++i) {
        if (heads_[i].valid && (earliest == SIZE_MAX || heads_[i].event.time_ns < heads_[earliest].event.time_ns)) {
            earliest = i;
        }
    }
    if (earliest == SIZE_MAX) {
        refresh_stats();
        return false;
    }
    out = heads_[earliest].event;
    pending_ = earliest;
    ++stats_.events;
    ++stats_.records[static_cast<size_t>(out.kind)];
    uint64_t buffers = 0, problems = 0;
    for (const EtlReader &reader : readers_) {
        buffers += reader.stats().buffers;
        problems += reader.stats().problem_count;
    }
    if (buffers != buffers_seen_ || problems != problems_seen_) {
        refresh_stats();
    }
    return true;
}

void MergedStream::refresh_stats() {
    ReaderStats sum;
    sum.events = stats_.events;
    sum.records = stats_.records;
    sum.problems = std::move(stats_.problems);
    buffers_seen_ = problems_seen_ = 0;
    for (size_t i = 0; i < readers_.size(); ++i) {
        const ReaderStats &own = readers_[i].stats();
        sum.skipped_records += own.skipped_records;
        sum.buffers += own.buffers;
        sum.compressed_buffers += own.compressed_buffers;
        sum.corrupt_buffers += own.corrupt_buffers;
        sum.events_lost_buffers += own.events_lost_buffers;
        sum.lost_buffers += own.lost_buffers;
        sum.lost_event_records += own.lost_event_records;
        sum.out_of_order_events += own.out_of_order_events;
        sum.problem_count += own.problem_count;
        for (; problems_copied_[i] < own.problems.size(); ++problems_copied_[i]) {
            if (sum.problems.size() < ReaderStats::kMaxProblems) {
                sum.problems.push_back(own.problems[problems_copied_[i]]);
            }
        }
        buffers_seen_ += own.buffers;
        problems_seen_ += own.problem_count;
    }
    stats_ = std::move(sum);
}

} // namespace dtrace::etw
