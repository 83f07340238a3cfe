// byte_source.h: random-access reads of the bytes of a trace.
//
// The reader visits a file's buffers out of file order (one cursor per CPU)
// and must not load the file whole, so it reads through this interface at
// given offsets: positioned reads (pread) on a file descriptor for real files
// and for archive members extracted to an unlinked temporary file, and plain
// memory for tests and the fuzzer. Reads are per buffer, never per event.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "reader/result.h"

namespace dtrace::etw {

class ByteSource {
  public:
    virtual ~ByteSource() = default;
    virtual uint64_t size() const = 0;
    // Fills out from offset; false on a short read or an I/O error.
    virtual bool read_at(uint64_t offset, std::span<uint8_t> out) = 0;
};

// Opens path for reading.
Result<std::unique_ptr<ByteSource>> open_file_source(const std::string &path);

// Takes ownership of an open descriptor (closed with the source).
std::unique_ptr<ByteSource> make_fd_source(int fd, uint64_t size);

// Owns a copy of bytes.
std::unique_ptr<ByteSource> make_memory_source(std::vector<uint8_t> bytes);

} // namespace dtrace::etw
