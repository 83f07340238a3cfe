// block_stream.cpp: the two framings of a nettrace stream (see block_stream.h).
#include "nettrace/block_stream.h"

#include <array>
#include <cstring>
#include <string_view>

#include "reader/le_bytes.h"
#include "reader/problem_log.h"

namespace dtrace::etw::nettrace {

namespace {

constexpr std::string_view kMagic = "Nettrace";
constexpr std::string_view kSerializationSignature = "!FastSerialization.1";
// What one read of the input takes for the small reads between blocks
// (tags, sizes, small blocks). Small beside an event block (about 64 KB):
// such a block is read straight into its bytes, past the chunk's few bytes
// of it, instead of copied out of the chunk.
constexpr size_t kReadChunk = 4 * 1024;
constexpr uint32_t kV6Major = 6;

// FastSerialization tags.
constexpr uint8_t kTagNullReference = 1;
constexpr uint8_t kTagBeginPrivateObject = 5;
constexpr uint8_t kTagEndObject = 6;

// The Trace object of V4/V5: SYSTEMTIME, i64 SyncTimeQPC, i64 QPCFrequency,
// i32 PointerSize, ProcessId, NumberOfProcessors, ExpectedCPUSamplingRate.
constexpr size_t kTraceObjectSize = 48;
constexpr int32_t kTraceReaderVersion = 4;
constexpr int32_t kBlockReaderVersion = 2;
constexpr int32_t kMaxTypeNameLength = 64;

// V6 block headers: u32 size (24 bits) | kind << 24.
constexpr uint32_t kV6SizeMask = 0xFFFFFF;
constexpr unsigned kV6KindShift = 24;
constexpr uint8_t kV6EndOfStream = 0;

struct ObjectType {
    std::string_view name;
    BlockKind kind;
    int32_t reader_version;
};
constexpr std::array<ObjectType, 5> kObjectTypes = {{
    {"Trace", BlockKind::Trace, kTraceReaderVersion},
    {"EventBlock", BlockKind::Event, kBlockReaderVersion},
    {"MetadataBlock", BlockKind::Metadata, kBlockReaderVersion},
    {"StackBlock", BlockKind::Stack, kBlockReaderVersion},
    {"SPBlock", BlockKind::SequencePoint, kBlockReaderVersion},
}};

BlockKind v6_kind(uint8_t kind) {
    switch (kind) {
    case 1:
        return BlockKind::Trace;
    case 2:
        return BlockKind::Event;
    case 3:
        return BlockKind::Metadata;
    case 4:
        return BlockKind::SequencePoint;
    case 5:
        return BlockKind::Stack;
    case 6:
        return BlockKind::Thread;
    case 7:
        return BlockKind::RemoveThread;
    case 8:
        return BlockKind::LabelList;
    default:
        return BlockKind::Other;
    }
}

} // namespace

BlockStream::BlockStream(std::unique_ptr<StreamInput> input, std::string name, uint64_t max_block_size)
    : input_(std::move(input)), name_(std::move(name)), max_block_size_(max_block_size), buffer_(kReadChunk) {}

bool BlockStream::read_exact(uint8_t *out, size_t n) {
    while (n > 0) {
        if (buffer_at_ == buffer_end_) {
            if (n >= buffer_.size()) { // a large block: straight into its bytes
                const size_t got = input_->read(std::span(out, n));
                if (got == 0) {
                    return false;
                }
                offset_ += got;
                out += got;
                n -= got;
                continue;
            }
            buffer_at_ = 0;
            buffer_end_ = input_->read(buffer_);
            if (buffer_end_ == 0) {
                return false;
            }
        }
        const size_t take = std::min(n, buffer_end_ - buffer_at_);
        std::memcpy(out, buffer_.data() + buffer_at_, take);
        buffer_at_ += take;
        offset_ += take;
        out += take;
        n -= take;
    }
    return true;
}

bool BlockStream::read_u8(uint8_t &v) {
    return read_exact(&v, 1);
}

bool BlockStream::read_u32(uint32_t &v) {
    std::array<uint8_t, 4> bytes{};
    if (!read_exact(bytes.data(), bytes.size())) {
        return false;
    }
    v = load_u32(bytes.data());
    return true;
}

Result<BlockStream> BlockStream::open(std::unique_ptr<StreamInput> input, const std::string &name,
                                      uint64_t max_block_size) {
    BlockStream stream(std::move(input), name, max_block_size);
    std::array<uint8_t, kMagic.size()> magic{};
    if (!stream.read_exact(magic.data(), magic.size()) ||
        std::memcmp(magic.data(), kMagic.data(), kMagic.size()) != 0) {
        const bool netperf = std::memcmp(magic.data() + 4, kSerializationSignature.data(), 4) == 0;
        return Error{name + (netperf
                                 ? ": a NetPerf stream (.NET Core 2.1, format V1-3), which this reader does not read"
                                 : ": not a NetTrace stream (no \"Nettrace\" magic at offset 0)")};
    }
    uint32_t word = 0;
    if (!stream.read_u32(word)) {
        return Error{name + ": the stream ends inside its header"};
    }
    if (word == kSerializationSignature.size()) {
        std::array<uint8_t, kSerializationSignature.size()> signature{};
        if (!stream.read_exact(signature.data(), signature.size()) ||
            std::memcmp(signature.data(), kSerializationSignature.data(), signature.size()) != 0) {
            return Error{name + ": no \"!FastSerialization.1\" signature after the magic"};
        }
        stream.format_version_ = 4;
        return stream;
    }
    uint32_t major = 0;
    uint32_t minor = 0;
    if (word != 0 || !stream.read_u32(major) || !stream.read_u32(minor)) {
        return Error{name + ": an unknown NetTrace header after the magic"};
    }
    if (major != kV6Major) {
        return Error{name + ": NetTrace version " + std::to_string(major) + "." + std::to_string(minor) +
                     ", which this reader does not read (it reads versions 4 to 6)"};
    }
    stream.format_version_ = kV6Major;
    return stream;
}

BlockStream::Step BlockStream::damaged(uint64_t at, const std::string &what) {
    damage_ = name_ + ": offset " + hex_offset(at) + ": " + what + "; the rest of the stream is skipped";
    ended_ = true;
    return Step::Damaged;
}

BlockStream::Step BlockStream::next(Block &out) {
    if (ended_) {
        return Step::End;
    }
    return format_version_ == kV6Major ? next_v6_block(out) : next_object(out);
}

BlockStream::Step BlockStream::next_object(Block &out) {
    const uint64_t at = offset_;
    uint8_t tag = 0;
    if (!read_u8(tag)) {
        return damaged(at, "the stream ends without its end mark (NullReference tag)");
    }
    if (tag == kTagNullReference) {
        ended_ = true;
        return Step::End;
    }
    if (tag != kTagBeginPrivateObject) {
        return damaged(at, "tag " + std::to_string(tag) + " where an object or the end of the stream was expected");
    }
    uint8_t type_tag = 0;
    uint8_t null_tag = 0;
    std::array<uint8_t, 12> type_header{};
    if (!read_u8(type_tag) || !read_u8(null_tag) || !read_exact(type_header.data(), type_header.size())) {
        return damaged(at, "the stream ends inside an object's type");
    }
    const int32_t version = load_i32(type_header.data());
    const int32_t reader_version = load_i32(type_header.data() + 4);
    const int32_t name_length = load_i32(type_header.data() + 8);
    if (type_tag != kTagBeginPrivateObject || null_tag != kTagNullReference || name_length <= 0 ||
        name_length > kMaxTypeNameLength) {
        return damaged(at, "a malformed object type header");
    }
    std::string type(static_cast<size_t>(name_length), '\0');
    uint8_t end_tag = 0;
    if (!read_exact(reinterpret_cast<uint8_t *>(type.data()), type.size()) || !read_u8(end_tag) ||
        end_tag != kTagEndObject) {
        return damaged(at, "a malformed object type header");
    }
    const ObjectType *known = nullptr;
    for (const ObjectType &t : kObjectTypes) {
        known = t.name == type ? &t : known;
    }
    if (known == nullptr) {
        return damaged(at, "an object of type \"" + type + "\", which this reader does not know");
    }
    if (reader_version > known->reader_version) {
        return damaged(at, type + " version " + std::to_string(version) + " needs a reader of version " +
                               std::to_string(reader_version) + " (this one reads version " +
                               std::to_string(known->reader_version) + ")");
    }
    out.kind = known->kind;
    Step step = Step::Block;
    if (known->kind == BlockKind::Trace) {
        out.offset = offset_;
        out.bytes.resize(kTraceObjectSize);
        if (!read_exact(out.bytes.data(), out.bytes.size())) {
            return damaged(out.offset, "the stream ends inside the Trace object");
        }
    } else {
        step = read_sized_block(out, type);
        if (step != Step::Block) {
            return step;
        }
    }
    const uint64_t end_at = offset_;
    if (!read_u8(end_tag) || end_tag != kTagEndObject) {
        return damaged(end_at, "no end tag after the " + type + " object");
    }
    return Step::Block;
}

BlockStream::Step BlockStream::read_sized_block(Block &out, const std::string &type) {
    const uint64_t at = offset_;
    uint32_t size = 0;
    if (!read_u32(size)) {
        return damaged(at, "the stream ends inside the size of the " + type);
    }
    if (size > max_block_size_) {
        return damaged(at, type + " size of " + std::to_string(size) + " bytes (more than " +
                               std::to_string(max_block_size_) + ")");
    }
    std::array<uint8_t, 3> padding{};
    const size_t pad = static_cast<size_t>((4 - offset_ % 4) % 4);
    if (!read_exact(padding.data(), pad)) {
        return damaged(at, "the stream ends inside the padding of the " + type);
    }
    out.offset = offset_;
    out.bytes.resize(size);
    if (!read_exact(out.bytes.data(), size)) {
        return damaged(out.offset, "the stream ends inside the " + type + " of " + std::to_string(size) +
                                       " bytes that starts here");
    }
    return Step::Block;
}

BlockStream::Step BlockStream::next_v6_block(Block &out) {
    const uint64_t at = offset_;
    uint32_t header = 0;
    if (!read_u32(header)) {
        return damaged(at, "the stream ends without its EndOfStream block");
    }
    const uint8_t kind = static_cast<uint8_t>(header >> kV6KindShift);
    const uint32_t size = header & kV6SizeMask;
    if (kind == kV6EndOfStream) {
        ended_ = true;
        return Step::End;
    }
    if (size > max_block_size_) {
        return damaged(at, "a block of " + std::to_string(size) + " bytes (more than " +
                               std::to_string(max_block_size_) + ")");
    }
    out.kind = v6_kind(kind);
    out.offset = offset_;
    out.bytes.resize(size);
    if (!read_exact(out.bytes.data(), size)) {
        return damaged(out.offset,
                       "the stream ends inside the block of " + std::to_string(size) + " bytes that starts here");
    }
    return Step::Block;
}

} // namespace dtrace::etw::nettrace
