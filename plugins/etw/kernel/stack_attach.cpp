// stack_attach.cpp: the queue of events waiting for their stacks.
#include "kernel/stack_attach.h"

namespace dtrace::etw::plugin::kernel {

namespace {

// Re-points a span of the original record into the copy.
std::span<const uint8_t> rebase(std::span<const uint8_t> part, const Event &original,
                                const std::vector<uint8_t> &copy) {
    const uint8_t *begin = original.record.data();
    if (part.empty() || part.data() < begin || part.data() + part.size() > begin + original.record.size()) {
        return {}; // empty, or not inside the record (the reader keeps every part there)
    }
    return std::span<const uint8_t>(copy).subspan(static_cast<size_t>(part.data() - begin), part.size());
}

} // namespace

bool StackAttach::kernel_family(const Event &event) {
    return event.kind == RecordKind::System || event.kind == RecordKind::CompactSystem ||
           event.kind == RecordKind::PerfInfo;
}

bool StackAttach::settle(const Event &event) {
    if (event.cpu >= waiting_.size()) {
        waiting_.resize(static_cast<size_t>(event.cpu) + 1, nullptr);
    }
    Queued *waiting = waiting_[event.cpu];
    // Another file's records (a multi-file session) say nothing of this one's stacks.
    if (waiting == nullptr || waiting->event.source != event.source) {
        return false;
    }
    waiting->waiting = false;
    waiting_[event.cpu] = nullptr;
    if (std::optional<StackKeyReference> reference = stack_key_reference(event)) {
        return attach_key(*waiting, *reference);
    }
    if (!is_stack_walk(event) || !decode_stack_walk(event, incoming_) ||
        incoming_.event_timestamp != waiting->event.timestamp ||
        (waiting->event.tid != kUnknownId && waiting->event.tid != incoming_.tid)) {
        return false;
    }
    std::swap(waiting->stack, incoming_);
    waiting->has_stack = true;
    return true;
}

bool StackAttach::attach_key(Queued &waiting, const StackKeyReference &reference) {
    if (reference.event_timestamp != waiting.event.timestamp ||
        (waiting.event.tid != kUnknownId && waiting.event.tid != reference.tid)) {
        return false;
    }
    WalkedStack &stack = waiting.stack;
    if (!waiting.has_stack) {
        stack = WalkedStack{.event_timestamp = reference.event_timestamp, .pid = reference.pid, .tid = reference.tid};
        waiting.has_stack = true;
    }
    // position_ counts this reference too: its index is one less.
    const std::vector<uint64_t> *frames = keys_ ? keys_->resolve(reference.key, position_ - 1) : nullptr;
    if (frames != nullptr) {
        if (reference.user) {
            stack.frames.insert(stack.frames.end(), frames->begin(), frames->end());
        } else {
            stack.frames.insert(stack.frames.begin() + static_cast<ptrdiff_t>(stack.kernel_depth), frames->begin(),
                                frames->end());
            stack.kernel_depth += frames->size();
        }
    }
    if (!reference.user) { // its user half may follow
        waiting.waiting = true;
        waiting_[waiting.event.cpu] = &waiting;
    }
    return true;
}

bool StackAttach::releasable(const Queued &q, int64_t now_ns) const {
    return !q.waiting || now_ns - q.event.time_ns > kWindowNs;
}

StackAttach::Queued &StackAttach::push(const Event &event) {
    if (ring_.empty()) {
        ring_.resize(kMaxQueued);
    }
    Queued &q = ring_[(head_ + size_) % kMaxQueued];
    ++size_;
    q.record.assign(event.record.begin(), event.record.end());
    q.event = event;
    q.event.record = q.record;
    q.event.payload = rebase(event.payload, event, q.record);
    q.event.extended = rebase(event.extended, event, q.record);
    q.event.pmc_counters = rebase(event.pmc_counters, event, q.record);
    q.has_stack = false;
    q.waiting = false;
    q.stack_attached = false;
    return q;
}

} // namespace dtrace::etw::plugin::kernel
