// stream_input.h: the bytes of a nettrace stream, read front to back.
//
// A nettrace stream is read once, in order: from a file (or the .nettrace
// member of a .nettrace.zip, extracted to a temporary file), or from the
// socket of a live .NET process, where the bytes arrive as the runtime
// writes them. The reader only ever asks for the next n bytes, so one
// interface serves both; the offset it keeps is what damage reports name.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "reader/byte_source.h"

namespace dtrace::etw::nettrace {

class StreamInput {
  public:
    virtual ~StreamInput() = default;
    // Reads into out what the stream has now: at least one byte, fewer than
    // asked when no more has arrived yet (a socket), 0 only at its end (or
    // on an I/O error).
    virtual size_t read(std::span<uint8_t> out) = 0;
};

// Reads a random-access source from its start.
std::unique_ptr<StreamInput> input_from_source(std::unique_ptr<ByteSource> source);
// Reads a descriptor (a socket or a pipe) until end of file; owns it.
std::unique_ptr<StreamInput> input_from_fd(int fd);

} // namespace dtrace::etw::nettrace
