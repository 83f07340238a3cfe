// ring_reader.cpp: parsing a ring's records with every bound checked.
#include "ring_reader.h"

#include <algorithm>
#include <cstring>

#include "fpid_shm.h"

namespace dtrace::fpid {

uint64_t read_records(std::span<const uint8_t> ring, uint64_t tail, uint64_t head, uint32_t nhooks, int32_t tid,
                      std::vector<Hit> &out) {
    const uint64_t ring_bytes = ring.size();
    // Records are whole words: a position that is not is a scribble, read no further.
    const uint64_t next_word = (head + 7) & ~uint64_t{7};
    if (ring_bytes == 0 || head < tail || head - tail > ring_bytes || ((tail | head) & 7) != 0)
        return next_word;
    uint64_t at = tail;
    while (at < head) {
        const uint64_t position = at % ring_bytes;
        fpid_record record;
        if (ring_bytes - position < sizeof record)
            break;
        std::memcpy(&record, ring.data() + position, sizeof record);
        if (record.kind == FPID_RECORD_PAD) {
            at += ring_bytes - position;
            continue;
        }
        const uint32_t size = fpid_record_size(record.flags, record.nframes);
        if (size > ring_bytes - position || size > head - at)
            break;
        at += size;
        if (record.hook >= nhooks || (record.kind != FPID_RECORD_ENTRY && record.kind != FPID_RECORD_RETURN))
            continue; // not one of ours: skipped, not fired
        const uint64_t *part = reinterpret_cast<const uint64_t *>(ring.data() + position + sizeof record);
        Hit hit{record.hook, record.kind == FPID_RECORD_RETURN, 0, 0, tid, nullptr, nullptr, 0};
        if (record.flags & FPID_HOOK_TIME)
            hit.tsc = *part++;
        if (record.flags & FPID_HOOK_VTIME)
            hit.cpu_time = *part++;
        if (record.flags & FPID_HOOK_ARGS) {
            hit.args = part;
            part += FPID_MAX_ARGS;
        }
        hit.frames = part;
        hit.nframes = std::min<uint32_t>(record.nframes, FPID_MAX_FRAMES);
        out.push_back(hit);
    }
    return at < head ? head : at;
}

} // namespace dtrace::fpid
