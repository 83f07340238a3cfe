// disk_completions_ahead.h: what a disk I/O is, from its completion, for its start.
//
// The DiskIo Init events (ReadInit, WriteInit, FlushInit) that fire
// io:::start name the IRP and the issuing thread only; the size, offset,
// disk and file come with the completion (Read, Write, FlushBuffers) that
// fires io:::done, later in the trace. DiskCompletionsAhead pairs them by
// IRP: for a start, the first completion of its IRP after it (an IRP is
// used again once completed), read ahead with a KeyedLookAhead
// (keyed_look_ahead.h) that keeps at most kMaxKeptBytes of completions.
#pragma once

#include <cstdint>
#include <optional>

#include "kernel/mof_classes.h"
#include "keyed_look_ahead.h"

namespace dtrace::etw::plugin::kernel {

struct DiskCompletion {
    uint64_t irp_flags = 0;
    uint64_t transfer_size = 0;
    uint64_t byte_offset = 0;
    uint64_t file_object = 0;
    std::optional<uint64_t> disk; // absent from events that do not name it (the Init events)

    // What a DiskIo event's record says (an Init event's: nothing but zeros).
    static DiskCompletion of(const MofRecord &record);
};

class DiskCompletionsAhead {
  public:
    static constexpr size_t kMaxKeptBytes = size_t{16} << 20;

    // open makes the look-ahead reader, when the first start asks.
    explicit DiskCompletionsAhead(ReaderOpener open);

    // The first completion of irp after position; nullptr when none comes.
    const DiskCompletion *resolve(uint64_t irp, uint64_t position) { return ahead_.resolve(irp, position); }

    // Whether a DiskIo event of this opcode completes an I/O.
    static bool completes(uint8_t opcode);

  private:
    KeyedLookAhead<DiskCompletion> ahead_;
};

} // namespace dtrace::etw::plugin::kernel
