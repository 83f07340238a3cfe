// buffer_chain.h: finding the buffers of a file without an index.
//
// Buffers form a chain: the next one starts BufferSize bytes after this one.
// Each CPU lane walks the chain from its own position, looking for its
// CPU's buffers, so the same headers are read by several lanes; a small
// direct-mapped cache of decoded headers makes that cost about one read per
// buffer, because the lanes advance through the file together (they follow
// one clock). Memory stays fixed whatever the file size.
//
// A header whose size field is impossible breaks the chain. When all buffers
// of the file have the logger's nominal size (files that are not compressed
// relogs) the walk resynchronises one nominal size later; otherwise the
// file ends there. A buffer running past the end of the file (truncation)
// ends it too. BufferSize 0 is the normal end of a preallocated file.
//
// scan_chain() walks the whole chain once at open: it reports the damaged
// links and plans one lane per CPU: the header buffer (the file's first) if
// the CPU owns it, then its data buffers from the one with the lowest
// sequence number (not the first in the file when a circular log has
// wrapped) round to the one before it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "reader/buffer_header.h"
#include "reader/byte_source.h"
#include "reader/problem_log.h"

namespace dtrace::etw {

inline constexpr uint64_t kNoOffset = UINT64_MAX;

struct ChainLink {
    enum class Kind : uint8_t {
        Buffer,  // a usable header
        Damaged, // an impossible or truncated header; next says where to go on, if anywhere
        End,     // the end of the file (or BufferSize 0)
    };
    Kind kind = Kind::End;
    BufferHeader header;
    uint64_t next = kNoOffset;
    const char *damage = nullptr; // what is wrong, for Damaged
};

class BufferChain {
  public:
    explicit BufferChain(ByteSource &source) : source_(source) {}

    // Resynchronise after damage by steps of nominal_size (0: never).
    void set_resync_size(uint32_t nominal_size);
    ChainLink link_at(uint64_t offset);

  private:
    ChainLink read_link(uint64_t offset);

    static constexpr unsigned kCacheBits = 11;
    static constexpr size_t kCacheSlots = size_t{1} << kCacheBits;
    struct Slot {
        uint64_t offset = kNoOffset;
        ChainLink link;
    };
    ByteSource &source_;
    uint32_t resync_size_ = 0;
    std::array<Slot, kCacheSlots> cache_{};
};

struct LanePlan {
    uint16_t cpu = 0;
    uint64_t header = kNoOffset; // the header buffer, if this CPU's
    // Data buffers (kNoOffset: none).
    uint64_t first = kNoOffset; // first in the file
    uint64_t last = kNoOffset;  // last in the file
    uint64_t start = kNoOffset; // lowest sequence number
    int64_t start_sequence = 0;
};

// One walk over the whole chain; damaged links are reported to log.
std::vector<LanePlan> scan_chain(BufferChain &chain, ProblemLog &log);

} // namespace dtrace::etw
