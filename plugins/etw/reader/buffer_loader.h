// buffer_loader.h: bringing one buffer's valid data into memory.
//
// Only the bytes up to the buffer's Offset are read (a mostly empty 64 KiB
// buffer costs a few hundred bytes). A compressed buffer is read whole (its
// BufferSize is the compressed size) into a scratch array shared by all
// lanes, and decompressed after a copy of its header so that record offsets
// are the same as in an uncompressed buffer. Offset is checked against what
// the buffer can hold before anything is allocated.
#pragma once

#include <cstdint>
#include <string>

#include "reader/buffer_header.h"
#include "reader/byte_buffer.h"
#include "reader/byte_source.h"

namespace dtrace::etw {

class BufferLoader {
  public:
    BufferLoader(ByteSource &source, MemoryBudget &budget) : source_(source), scratch_(budget) {}

    // Fills dest with the buffer's first header.offset bytes (decompressed).
    // Returns "" on success, else what is wrong with the buffer.
    std::string load(uint64_t offset, const BufferHeader &header, ByteBuffer &dest);

  private:
    std::string load_compressed(uint64_t offset, const BufferHeader &header, ByteBuffer &dest);

    ByteSource &source_;
    ByteBuffer scratch_;
};

} // namespace dtrace::etw
