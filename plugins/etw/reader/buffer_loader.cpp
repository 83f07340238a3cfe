// buffer_loader.cpp: reading and decompressing buffers (see buffer_loader.h).
#include "reader/buffer_loader.h"

#include <cstring>

#include "reader/problem_log.h"
#include "reader/xpress.h"

namespace dtrace::etw {

namespace {
std::string out_of_memory(uint64_t size) {
    return "the reader's buffer memory limit does not allow another " + std::to_string(size) + " bytes";
}
} // namespace

std::string BufferLoader::load(uint64_t offset, const BufferHeader &header, ByteBuffer &dest) {
    if (header.offset < buffer_layout::kSize) {
        return "Offset " + hex_offset(header.offset) + " is smaller than a buffer header";
    }
    if (header.compressed()) {
        return load_compressed(offset, header, dest);
    }
    if (header.offset > header.buffer_size) {
        return "Offset " + hex_offset(header.offset) + " is beyond BufferSize " + hex_offset(header.buffer_size);
    }
    if (!dest.reserve(header.offset)) {
        return out_of_memory(header.offset);
    }
    if (!source_.read_at(offset, dest.first(header.offset))) {
        return "cannot read the buffer";
    }
    return {};
}

std::string BufferLoader::load_compressed(uint64_t offset, const BufferHeader &header, ByteBuffer &dest) {
    if (header.offset > kMaxBufferSize) {
        return "decompressed size (Offset " + hex_offset(header.offset) + ") is larger than the 16 MiB ETW allows";
    }
    if (!dest.reserve(header.offset)) {
        return out_of_memory(header.offset);
    }
    if (!scratch_.reserve(header.buffer_size)) {
        return out_of_memory(header.buffer_size);
    }
    if (!source_.read_at(offset, scratch_.first(header.buffer_size))) {
        return "cannot read the buffer";
    }
    std::memcpy(dest.data(), scratch_.data(), buffer_layout::kSize);
    auto input = scratch_.first(header.buffer_size).subspan(buffer_layout::kSize);
    auto output = dest.first(header.offset).subspan(buffer_layout::kSize);
    XpressResult result = xpress_decompress(input, output);
    if (result.status != XpressStatus::Ok) {
        return "XPRESS data damaged at compressed byte " + hex_offset(buffer_layout::kSize + result.input_position) +
               ": " + std::string(describe(result.status));
    }
    return {};
}

} // namespace dtrace::etw
