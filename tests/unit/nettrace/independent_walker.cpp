// independent_walker.cpp: a second, minimal nettrace walker (see independent_walker.h).
#include "independent_walker.h"

#include <cstring>
#include <string>

namespace dtrace::etw::nettrace::test {

namespace {

struct Walk {
    std::span<const uint8_t> s;
    size_t at = 0;
    bool bad = false;

    uint64_t le(size_t n) {
        if (bad || at + n > s.size()) {
            bad = true;
            return 0;
        }
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) {
            v |= uint64_t{s[at + i]} << (8 * i);
        }
        at += n;
        return v;
    }
    uint64_t leb() {
        uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            const uint64_t b = le(1);
            v |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0 || bad) {
                return v;
            }
        }
        bad = true;
        return 0;
    }
};

// Counts rows with a non-zero metadata id in an event block's bytes.
bool count_rows(std::span<const uint8_t> block, bool v6, WalkCounts &counts, bool metadata_block) {
    Walk w{block};
    const uint64_t header_size = w.le(2);
    const uint64_t flags = w.le(2);
    w.at = header_size; // the header size includes its own field
    uint64_t payload_size = 0;
    uint64_t metadata_id = 0;
    while (!w.bad && w.at < block.size()) {
        if (flags & 1) {
            const uint64_t f = w.le(1);
            if (f & 1) {
                metadata_id = w.leb();
            }
            if (f & 2) {
                w.leb();
                w.leb();
                w.leb();
            }
            if (f & 4) {
                w.leb();
            }
            if (f & 8) {
                w.leb();
            }
            w.leb(); // timestamp delta
            if (v6) {
                if (f & 16) {
                    w.leb();
                }
            } else {
                w.at += (f & 16 ? 16 : 0) + (f & 32 ? 16 : 0);
            }
            if (f & 128) {
                payload_size = w.leb();
            }
            w.at += payload_size;
        } else {
            const uint64_t size = w.le(4);
            const size_t start = w.at;
            metadata_id = w.le(4) & 0x7FFFFFFF;
            w.at = start + size;
            if (!v6) {
                w.at = (w.at + 3) & ~size_t{3};
            }
        }
        if (w.at > block.size()) {
            return false;
        }
        if (metadata_block) {
            ++counts.metadata_rows;
        } else if (metadata_id != 0) {
            ++counts.events;
        }
    }
    return !w.bad;
}

std::optional<WalkCounts> walk_v4(Walk &w) {
    WalkCounts counts;
    for (;;) {
        const uint64_t tag = w.le(1);
        if (w.bad) {
            return std::nullopt;
        }
        if (tag == 1) {
            return counts;
        }
        // 05 05 01 version minversion namelen name 06
        w.at += 2 + 8;
        const uint64_t name_length = w.le(4);
        if (w.bad || w.at + name_length > w.s.size()) {
            return std::nullopt;
        }
        const std::string type(reinterpret_cast<const char *>(w.s.data() + w.at), name_length);
        w.at += name_length + 1;
        if (type == "Trace") {
            w.at += 48;
        } else {
            const uint64_t size = w.le(4);
            w.at = (w.at + 3) & ~size_t{3};
            if (w.bad || w.at + size > w.s.size()) {
                return std::nullopt;
            }
            std::span<const uint8_t> block = w.s.subspan(w.at, size);
            if (type == "EventBlock") {
                ++counts.event_blocks;
                if (!count_rows(block, false, counts, false)) {
                    return std::nullopt;
                }
            } else if (type == "MetadataBlock") {
                if (!count_rows(block, false, counts, true)) {
                    return std::nullopt;
                }
            } else if (type == "StackBlock") {
                ++counts.stack_blocks;
            } else if (type == "SPBlock") {
                ++counts.sequence_points;
            }
            w.at += size;
        }
        if (w.le(1) != 6) {
            return std::nullopt;
        }
    }
}

std::optional<WalkCounts> walk_v6(Walk &w) {
    WalkCounts counts;
    for (;;) {
        const uint64_t header = w.le(4);
        const uint64_t kind = header >> 24;
        const uint64_t size = header & 0xFFFFFF;
        if (w.bad || w.at + size > w.s.size()) {
            return std::nullopt;
        }
        if (kind == 0) {
            return counts;
        }
        std::span<const uint8_t> block = w.s.subspan(w.at, size);
        if (kind == 2) {
            ++counts.event_blocks;
            if (!count_rows(block, true, counts, false)) {
                return std::nullopt;
            }
        } else if (kind == 3) {
            Walk m{block};
            m.at = 2 + m.le(2);
            while (!m.bad && m.at < block.size()) {
                m.at += m.le(2);
                ++counts.metadata_rows;
            }
        } else if (kind == 4) {
            ++counts.sequence_points;
        } else if (kind == 5) {
            ++counts.stack_blocks;
        }
        w.at += size;
    }
}

} // namespace

std::optional<WalkCounts> walk_nettrace(std::span<const uint8_t> stream) {
    Walk w{stream};
    if (stream.size() < 12 || std::memcmp(stream.data(), "Nettrace", 8) != 0) {
        return std::nullopt;
    }
    w.at = 8;
    const uint64_t word = w.le(4);
    if (word == 20) {
        w.at += 20;
        return walk_v4(w);
    }
    w.at += 8; // major, minor
    return walk_v6(w);
}

} // namespace dtrace::etw::nettrace::test
