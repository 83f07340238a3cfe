// stack_attach.h: StackWalk stacks attached to the events they belong to.
//
// A kernel session that walks stacks logs each stack as a StackWalk/Stack
// event right after the event it belongs to, on the same CPU, naming that
// event by its raw timestamp and thread (stack_walk.h). To hand the stack to
// the event's own firing (stack(), ustack(), stackdepth ...), a kernel event
// waits until the next record of its CPU says whether its stack follows: a
// Stack naming it is attached to it; anything else lets it go without one.
// (Of its file, in a session of several: merged_stream.h.) Events keep their order: whatever comes while an event waits
// is queued behind it. An event stops waiting, too, once a record more than kWindowNs later arrives or the queue holds
// kMaxQueued events, so memory stays bounded whatever the trace. A stack that names no waiting event fires
// diag:::missed-stack, as in the Dtrace-ETW port. Traces without StackWalk
// events queue nothing: attaching starts from the first event when the file
// is known to walk stacks (the init pass saw a StackWalk event, or, for a
// script that did not need that pass, its first events hold one), else at
// the first StackWalk event (its own event has fired without it then, and it
// fires diag:::missed-stack).
//
// With stack caching, the records that follow an event name it the same way
// but hold stack keys (StackKeyKernel, then StackKeyUser) instead of frames:
// each is resolved to its frames (stack_keys.h) and attached, the kernel
// frames first; after a StackKeyKernel the event waits on for the
// StackKeyUser that may follow it.
#pragma once

#include <cstdint>
#include <vector>

#include "reader/event.h"
#include "stack_keys.h"
#include "stack_walk.h"

namespace dtrace::etw::plugin::kernel {

class StackAttach {
  public:
    // A kernel logs a stack within microseconds of its event.
    static constexpr int64_t kWindowNs = 1000000;
    static constexpr size_t kMaxQueued = 4096;

    // With enabled false (no StackWalk event seen yet) events pass straight
    // through until the first StackWalk event. keys resolves stack keys
    // (nullptr: their events stay without those stacks).
    explicit StackAttach(bool enabled, StackKeys *keys = nullptr) : enabled_(enabled), keys_(keys) {}

    // Hands events on, in the order they came, to fire(const Event &, const
    // WalkedStack *stack, bool stack_attached): stack is the event's stack
    // (nullptr: none); stack_attached is true for a StackWalk event whose
    // stack was handed to its event.
    template <typename Fire> void offer(const Event &event, Fire &&fire);
    // Fires the events still queued (at the end of the trace).
    template <typename Fire> void finish(Fire &&fire);

  private:
    struct Queued {
        Event event;
        std::vector<uint8_t> record; // the event's bytes, which event's spans point into
        WalkedStack stack;
        bool has_stack = false;
        bool waiting = false;        // for the next record of its CPU
        bool stack_attached = false; // a StackWalk event whose stack went to its event
    };

    static bool kernel_family(const Event &event);
    // Settles what the CPU's waiting event is waiting for; true when event
    // is a stack (or a stack key) handed to it.
    bool settle(const Event &event);
    // A StackKeyKernel/User event naming the waiting event: its frames
    // join the waiting event's stack. False when it names another event.
    bool attach_key(Queued &waiting, const StackKeyReference &reference);
    Queued &push(const Event &event);
    template <typename Fire> void pop(Fire &fire);
    // offer() once the trace has shown a stack. Not inlined: every event of
    // a trace without stacks takes offer()'s short way, kept short so.
    template <typename Fire> [[gnu::noinline]] void offer_in_order(const Event &event, Fire &fire);
    bool releasable(const Queued &q, int64_t now_ns) const;

    bool enabled_;
    StackKeys *keys_;
    uint64_t position_ = 0;    // the events offered before the current one
    std::vector<Queued> ring_; // the queue, kMaxQueued slots reused in turn
    size_t head_ = 0;
    size_t size_ = 0;
    std::vector<Queued *> waiting_; // by CPU: its event waiting for a stack, if any
    WalkedStack incoming_;
};

template <typename Fire> void StackAttach::pop(Fire &fire) {
    Queued &q = ring_[head_];
    head_ = (head_ + 1) % kMaxQueued;
    --size_;
    if (q.waiting) {
        q.waiting = false;
        waiting_[q.event.cpu] = nullptr;
    }
    fire(q.event, q.has_stack ? &q.stack : nullptr, q.stack_attached);
}

template <typename Fire> void StackAttach::offer(const Event &event, Fire &&fire) {
    ++position_;
    if (!enabled_ && !is_stack_record(event)) {
        fire(event, nullptr, false);
        return;
    }
    enabled_ = true; // the trace walks stacks: from now on events wait for theirs
    offer_in_order(event, fire);
}

template <typename Fire> void StackAttach::offer_in_order(const Event &event, Fire &fire) {
    const bool attached = settle(event);
    while (size_ != 0 && (releasable(ring_[head_], event.time_ns) || size_ == kMaxQueued)) {
        pop(fire);
    }
    const bool waits = kernel_family(event) && !is_stack_record(event);
    if (size_ == 0 && !waits) {
        fire(event, nullptr, attached);
        return;
    }
    Queued &q = push(event);
    q.stack_attached = attached;
    if (waits) {
        q.waiting = true;
        waiting_[event.cpu] = &q;
    }
}

template <typename Fire> void StackAttach::finish(Fire &&fire) {
    while (size_ != 0) {
        pop(fire);
    }
}

} // namespace dtrace::etw::plugin::kernel
