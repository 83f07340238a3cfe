// event_context.h: the firing context of a live session's runtime event.
//
// What the etw plugin's replay gives the same event (event_dispatch.cpp), so
// a script prints the same live as over the file the session streams: the
// event's time (ns since the epoch, from the stream's clock) as timestamp
// and walltimestamp, its processor, process and thread (-1 when unknown),
// and the event's memory (event_memory.h) as what copyin() reads. execname
// is "" and ppid -1, as over a .nettrace file, which names no process.
#pragma once

#include <dtrace/provider.h>

#include "event_memory.h"
#include "reader/event.h"

namespace dtrace::dnet::live {

class EventContext {
  public:
    explicit EventContext(etw::plugin::EventMemory &memory) {
        ctx_.struct_size = sizeof ctx_;
        ctx_.uid = -1;
        ctx_.gid = -1;
        ctx_.ppid = -1;
        ctx_.execname = "";
        ctx_.read_memory = &etw::plugin::EventMemory::read;
        ctx_.reader_state = &memory;
    }

    dtrace_event_ctx &set(const etw::Event &event) {
        ctx_.cpu = event.cpu;
        ctx_.timestamp = static_cast<uint64_t>(event.time_ns);
        ctx_.walltimestamp = ctx_.timestamp;
        ctx_.pid = known_or_minus_one(event.pid);
        ctx_.tid = known_or_minus_one(event.tid);
        ctx_.payload = event.payload.data();
        ctx_.payload_size = event.payload.size();
        return ctx_;
    }

  private:
    static int64_t known_or_minus_one(uint32_t id) { return id == etw::kUnknownId ? -1 : static_cast<int64_t>(id); }
    dtrace_event_ctx ctx_{};
};

} // namespace dtrace::dnet::live
