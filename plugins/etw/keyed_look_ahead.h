// keyed_look_ahead.h: what the trace says later about a key, read ahead.
//
// An event often names something (a stack key, a FileObject, an IRP) whose
// description comes in a later event: the key's definition, the FileIo
// event that names the file, the DiskIo completion of the IRP a ReadInit
// starts. KeyedLookAhead answers
// "what does the first event after this one say about key K" with a second
// reader of the session (both readers see the events in the same order, so
// an event's position is its index in that order). It reads on until an
// event after the asking event's position speaks of the key, keeping what
// it passes for the questions to come and forgetting what the replay has
// passed. Memory stays bounded: when what it keeps reaches its
// budget, what the replay has passed goes, and if that is not enough the
// look-ahead stops there. Nothing is read ahead until the first question.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>

#include "reader/etl_reader.h"
#include "reader/result.h"

namespace dtrace::etw::plugin {

// Makes a second reader of the session, from its start.
using ReaderOpener = std::function<Result<EtlReader>()>;

template <typename Value> class KeyedLookAhead {
  public:
    // What one event says about a key, if anything.
    using Extract = std::function<std::optional<std::pair<uint64_t, Value>>(const Event &)>;
    // The bytes a kept value counts for against the budget.
    using Cost = size_t (*)(const Value &);

    KeyedLookAhead(ReaderOpener open, Extract extract, Cost cost, size_t budget)
        : open_(std::move(open)), extract_(std::move(extract)), cost_(cost), budget_(budget) {}

    // What the first event after position that speaks of key says;
    // nullptr when none does.
    const Value *resolve(uint64_t key, uint64_t position) {
        auto it = kept_.find(key);
        if (it != kept_.end()) {
            std::deque<Kept> &values = it->second;
            while (!values.empty() && values.front().position <= position) { // the replay has passed them
                kept_bytes_ -= cost_(values.front().value);
                values.pop_front();
            }
            if (!values.empty()) {
                return &values.front().value;
            }
        }
        return read_ahead(key, position) ? &kept_[key].back().value : nullptr;
    }

  private:
    struct Kept {
        uint64_t position = 0;
        Value value;
    };

    // Reads on until key is spoken of after position; false at the end.
    bool read_ahead(uint64_t key, uint64_t position) {
        if (!ahead_ && !ahead_done_) {
            Result<EtlReader> opened = open_();
            ahead_done_ = !opened;
            if (opened) {
                ahead_.emplace(std::move(opened.value()));
            }
        }
        Event event;
        while (!ahead_done_) {
            if (kept_bytes_ >= budget_ && !forget_before(position)) {
                ahead_done_ = true; // full of values still to come: look no further
                break;
            }
            if (!ahead_->next(event)) {
                ahead_done_ = true;
                break;
            }
            const uint64_t at = ahead_position_++;
            if (at <= position) {
                continue;
            }
            if (std::optional<std::pair<uint64_t, Value>> said = extract_(event)) {
                kept_bytes_ += cost_(said->second);
                kept_[said->first].push_back({at, std::move(said->second)});
                if (said->first == key) {
                    return true;
                }
            }
        }
        return false;
    }

    // Forgets the values before position; false if there was none.
    bool forget_before(uint64_t position) {
        bool forgot = false;
        for (auto it = kept_.begin(); it != kept_.end();) {
            std::deque<Kept> &values = it->second;
            while (!values.empty() && values.front().position < position) {
                kept_bytes_ -= cost_(values.front().value);
                values.pop_front();
                forgot = true;
            }
            it = values.empty() ? kept_.erase(it) : std::next(it);
        }
        return forgot;
    }

    ReaderOpener open_;
    Extract extract_;
    Cost cost_;
    size_t budget_;
    std::optional<EtlReader> ahead_;
    bool ahead_done_ = false;     // at the end, or could not open
    uint64_t ahead_position_ = 0; // events the look-ahead reader has read
    std::unordered_map<uint64_t, std::deque<Kept>> kept_;
    size_t kept_bytes_ = 0;
};

} // namespace dtrace::etw::plugin
