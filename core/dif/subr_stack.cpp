// subr_stack.cpp: the records of stack(), ustack() and the user-address
// actions. The code generator calls these with the frame count as a
// constant; each returns the address of a fresh scratch record that the
// action records by reference:
//   stack(n)       n program counters of the kernel stack, zero-padded;
//   ustack(n)      the pid, then n program counters of the user stack;
//   usymaddr(a)    the pid, then a (usym, ufunc, umod, uaddr).
// As in DTrace, only numbers are recorded: the consumer names them.
#include "dif/subr_impl.h"

#include <algorithm>
#include <cstring>

namespace dtrace::dif::subr {

namespace {

constexpr size_t kWord = sizeof(uint64_t);

// A scratch record of `words` 64-bit words: `head` (if any) then the first
// pcs, the rest zero.
uint64_t record_words(SubrContext &ctx, uint64_t words, std::span<const uint64_t> head, std::span<const uint64_t> pcs) {
    if (words == 0)
        return ctx.fail(FaultKind::IllOp);
    auto *p = reinterpret_cast<uint64_t *>(ctx.scratch(words * kWord, kWord));
    if (!p)
        return 0;
    std::memset(p, 0, words * kWord);
    std::copy(head.begin(), head.end(), p);
    const size_t room = words - head.size();
    std::copy_n(pcs.begin(), std::min(room, pcs.size()), p + head.size());
    return reinterpret_cast<uint64_t>(p);
}

} // namespace

uint64_t stack(SubrContext &ctx, Args args) {
    return record_words(ctx, args[0], {}, ctx.stack_pcs(false));
}

uint64_t ustack(SubrContext &ctx, Args args) {
    const uint64_t pid[] = {ctx.pid()};
    return record_words(ctx, args[0] + 1, pid, ctx.stack_pcs(true));
}

uint64_t usymaddr(SubrContext &ctx, Args args) {
    const uint64_t record[] = {ctx.pid(), args[0]};
    return record_words(ctx, 2, record, {});
}

} // namespace dtrace::dif::subr
