// subr_memory.cpp: scratch and traced-process memory — alloca(), bcopy(),
// copyin(), copyinstr(), copyinto(), and FreeBSD's memref() and memstr().
//
// Reads of the traced process go through Environment::read_target and fault
// BadAddr (or UPriv when the firing cannot read the process at all); writes
// only ever land in this clause's scratch.
#include "dif/subr_impl.h"

#include <cstring>

namespace dtrace::dif::subr {

namespace {

constexpr size_t kScratchAlignment = 8;
// copyinstr() reads a page at a time so that a string ending just before an
// unmapped page is still read whole.
constexpr uint64_t kPageSize = 4096;
// memstr() refuses (illegal operation) a block larger than FreeBSD's default
// kern.dtrace.memstr_max.
constexpr uint64_t kMemstrMax = 4096;

} // namespace

// Fresh, zeroed scratch (zeroed so that output never depends on what earlier
// clauses left behind).
uint64_t allocate(SubrContext &ctx, Args args) {
    uint8_t *p = ctx.scratch(args[0], kScratchAlignment);
    if (!p)
        return 0;
    std::memset(p, 0, args[0]);
    return reinterpret_cast<uint64_t>(p);
}

// bcopy(src, dest, size): dest must be scratch.
uint64_t bcopy(SubrContext &ctx, Args args) {
    const uint64_t size = args[2];
    uint8_t *dest = ctx.scratch_target(args[1], size);
    if (!dest)
        return 0;
    const uint8_t *src = ctx.bytes(args[0], size);
    if (!src)
        return 0;
    std::memmove(dest, src, size);
    return 0;
}

uint64_t copyin(SubrContext &ctx, Args args) {
    const uint64_t size = args[1];
    uint8_t *dest = ctx.scratch(size, kScratchAlignment);
    if (!dest || !ctx.read_target(args[0], dest, size))
        return 0;
    return reinterpret_cast<uint64_t>(dest);
}

// copyinto(src, size, dest): dest must be scratch.
uint64_t copyinto(SubrContext &ctx, Args args) {
    const uint64_t size = args[1];
    uint8_t *dest = ctx.scratch_target(args[2], size);
    if (dest)
        ctx.read_target(args[0], dest, size);
    return 0;
}

// copyinstr(src [, maxlen]): at most strsize - 1 characters, or maxlen when
// that is fewer.
uint64_t copyinstr(SubrContext &ctx, Args args) {
    uint64_t size = ctx.strsize();
    if (args.size() > 1 && args[1] < size)
        size = args[1] + 1;
    uint8_t *dest = ctx.scratch(size, 1);
    if (!dest)
        return 0;
    const uint64_t src = args[0];
    const size_t limit = size - 1;
    size_t n = 0;
    while (n < limit) {
        uint64_t here = src + n;
        size_t chunk = static_cast<size_t>(kPageSize - here % kPageSize);
        if (chunk > limit - n)
            chunk = limit - n;
        auto got = ctx.read_target(here, dest + n, chunk, true);
        if (!got)
            return 0;
        if (const void *nul = std::memchr(dest + n, 0, *got)) {
            n = static_cast<size_t>(static_cast<const uint8_t *>(nul) - dest);
            break;
        }
        n += *got;
        if (*got < chunk)
            return ctx.fail(FaultKind::BadAddr, src + n);
    }
    dest[n] = 0;
    ctx.trim(dest, n + 1);
    return reinterpret_cast<uint64_t>(dest);
}

// memref(ptr, len): a two-word block in scratch, the address then the length
// (FreeBSD's; its printm() action prints the memory such a block names).
uint64_t memref(SubrContext &ctx, Args args) {
    auto *p = reinterpret_cast<uint64_t *>(ctx.scratch(2 * sizeof(uint64_t), kScratchAlignment));
    if (!p)
        return 0;
    p[0] = args[0];
    p[1] = args[1];
    return reinterpret_cast<uint64_t>(p);
}

// memstr(ptr, sep, len): the first len - 1 bytes at ptr as one string, each
// NUL replaced by sep (FreeBSD's, for NUL-separated blocks such as a
// process's arguments). A length of 0 gives the null string.
uint64_t memstr(SubrContext &ctx, Args args) {
    const uint64_t size = args[2];
    if (size == 0)
        return 0;
    const uint8_t *src = ctx.bytes(args[0], size - 1);
    if (!src)
        return 0;
    if (size > kMemstrMax)
        return ctx.fail(FaultKind::IllOp);
    const char separator = static_cast<char>(args[1]);
    StringBuilder out(ctx);
    for (uint64_t i = 0; i + 1 < size; ++i)
        out.push(src[i] == 0 ? separator : static_cast<char>(src[i]));
    return out.finish();
}

} // namespace dtrace::dif::subr
