// block_stream.h: a nettrace stream cut into its blocks.
//
// Two framings exist (etw-formats.md 4.1, 4.2):
//   V4/V5 ("Nettrace", then FastSerialization): objects, each a type header
//     (name and version) and a payload; the Trace object is fixed-size, the
//     blocks (EventBlock, MetadataBlock, StackBlock, SPBlock) are an i32 size,
//     padding to a 4-byte stream offset, and that many bytes; the stream ends
//     with a NullReference tag.
//   V6 ("Nettrace", u32 0, u32 major, u32 minor): blocks with a u32 header,
//     24 bits of size and 8 of kind; the stream ends with an EndOfStream block.
// BlockStream hides the difference: next() returns each block's kind, its
// stream offset and its bytes. The bytes are owned by the Block, so that the
// reader can keep the blocks whose events wait to be sorted.
//
// Damage in the framing (an unknown tag, an object type this reader does not
// know, a block larger than max_block_size, a stream that ends inside a block)
// cannot be stepped over: next() says so with a message naming the offset,
// and the stream ends there. What came before stays valid.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nettrace/stream_input.h"
#include "reader/result.h"

namespace dtrace::etw::nettrace {

enum class BlockKind : uint8_t {
    Trace,
    Event,
    Metadata,
    Stack,
    SequencePoint,
    Thread,       // V6
    RemoveThread, // V6
    LabelList,    // V6
    Other,        // a V6 kind this reader does not know: skipped, as the format says
};

// A block's bytes: resize() leaves new bytes uninitialized, since the stream
// overwrites them at once (zeroing them first cost as much as copying them).
template <typename T> struct UninitializedAllocator : std::allocator<T> {
    template <typename U> struct rebind { using other = UninitializedAllocator<U>; };
    template <typename U> void construct(U *at) noexcept { ::new (static_cast<void *>(at)) U; }
    template <typename U, typename... Args> void construct(U *at, Args &&...args) {
        ::new (static_cast<void *>(at)) U(std::forward<Args>(args)...);
    }
};
using BlockBytes = std::vector<uint8_t, UninitializedAllocator<uint8_t>>;

struct Block {
    BlockKind kind = BlockKind::Other;
    uint64_t offset = 0; // stream offset of the first byte of bytes
    BlockBytes bytes;    // a recycled vector keeps its capacity: no allocation
};

class BlockStream {
  public:
    static constexpr uint64_t kDefaultMaxBlockSize = uint64_t{1} << 28;

    // Reads the stream header. Fails (naming name) when the stream is not a
    // NetTrace stream or is of a major version this reader does not know.
    static Result<BlockStream> open(std::unique_ptr<StreamInput> input, const std::string &name,
                                    uint64_t max_block_size = kDefaultMaxBlockSize);

    // 4 for V4/V5 streams (their Trace object is version 4 either way), 6 for V6.
    uint32_t format_version() const { return format_version_; }

    enum class Step { Block, End, Damaged };
    // The next block; End after the stream's end mark; Damaged (with
    // damage() saying what and where) when the rest cannot be read.
    Step next(Block &out);
    const std::string &damage() const { return damage_; }
    uint64_t offset() const { return offset_; }

  private:
    BlockStream(std::unique_ptr<StreamInput> input, std::string name, uint64_t max_block_size);
    // Exactly n bytes into out; false at the stream's end.
    bool read_exact(uint8_t *out, size_t n);
    bool read_u8(uint8_t &v);
    bool read_u32(uint32_t &v);
    Step damaged(uint64_t at, const std::string &what);
    Step next_object(Block &out);
    Step next_v6_block(Block &out);
    // The i32 size, padding and bytes of a V4/V5 block object.
    Step read_sized_block(Block &out, const std::string &type);

    std::unique_ptr<StreamInput> input_;
    std::string name_;
    uint64_t max_block_size_;
    uint32_t format_version_ = 0;
    uint64_t offset_ = 0; // stream offset of the next unread byte
    std::vector<uint8_t> buffer_;
    size_t buffer_at_ = 0;
    size_t buffer_end_ = 0;
    std::string damage_;
    bool ended_ = false;
};

} // namespace dtrace::etw::nettrace
