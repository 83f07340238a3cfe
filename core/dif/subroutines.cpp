// subroutines.cpp: the subroutine table, and the context helpers every
// implementation shares.
#include "dif/subroutines.h"

#include "dif/subr_impl.h"

#include <array>
#include <cstring>

namespace dtrace::dif {

namespace {

// rand()'s generator: DTrace computes (hrtime * 2416 + 374441) % 1771875;
// we iterate the same linear congruential step from a fixed seed so that a
// replayed trace yields the same numbers.
constexpr uint64_t kRandSeed = 1;

// The network byte order conversions are their own inverses.
constexpr auto ntohs = subr::htons;
constexpr auto ntohl = subr::htonl;
constexpr auto ntohll = subr::htonll;

constexpr std::array kSubroutines{
    SubrInfo{Subr::Strlen, "strlen", 1, 1, subr::strlen},
    SubrInfo{Subr::Strjoin, "strjoin", 2, 2, subr::strjoin},
    SubrInfo{Subr::Substr, "substr", 2, 3, subr::substr},
    SubrInfo{Subr::Index, "index", 2, 3, subr::index},
    SubrInfo{Subr::Rindex, "rindex", 2, 3, subr::rindex},
    SubrInfo{Subr::Strstr, "strstr", 2, 2, subr::strstr},
    SubrInfo{Subr::Strchr, "strchr", 2, 2, subr::strchr},
    SubrInfo{Subr::Strrchr, "strrchr", 2, 2, subr::strrchr},
    SubrInfo{Subr::Strtok, "strtok", 2, 2, subr::strtok},
    SubrInfo{Subr::Lltostr, "lltostr", 1, 2, subr::lltostr},
    SubrInfo{Subr::Strtoll, "strtoll", 1, 2, subr::strtoll},
    SubrInfo{Subr::Toupper, "toupper", 1, 1, subr::toupper},
    SubrInfo{Subr::Tolower, "tolower", 1, 1, subr::tolower},
    SubrInfo{Subr::Basename, "basename", 1, 1, subr::basename},
    SubrInfo{Subr::Dirname, "dirname", 1, 1, subr::dirname},
    SubrInfo{Subr::Cleanpath, "cleanpath", 1, 1, subr::cleanpath},
    SubrInfo{Subr::Copyin, "copyin", 2, 2, subr::copyin},
    SubrInfo{Subr::Copyinstr, "copyinstr", 1, 2, subr::copyinstr},
    SubrInfo{Subr::Copyinto, "copyinto", 3, 3, subr::copyinto},
    SubrInfo{Subr::Alloca, "alloca", 1, 1, subr::allocate},
    SubrInfo{Subr::Bcopy, "bcopy", 3, 3, subr::bcopy},
    SubrInfo{Subr::Htons, "htons", 1, 1, subr::htons},
    SubrInfo{Subr::Htonl, "htonl", 1, 1, subr::htonl},
    SubrInfo{Subr::Htonll, "htonll", 1, 1, subr::htonll},
    SubrInfo{Subr::Ntohs, "ntohs", 1, 1, ntohs},
    SubrInfo{Subr::Ntohl, "ntohl", 1, 1, ntohl},
    SubrInfo{Subr::Ntohll, "ntohll", 1, 1, ntohll},
    SubrInfo{Subr::InetNtop, "inet_ntop", 2, 2, subr::inet_ntop},
    SubrInfo{Subr::InetNtoa, "inet_ntoa", 1, 1, subr::inet_ntoa},
    SubrInfo{Subr::InetNtoa6, "inet_ntoa6", 1, 1, subr::inet_ntoa6},
    SubrInfo{Subr::Rand, "rand", 0, 0, subr::rand},
    SubrInfo{Subr::Speculation, "speculation", 0, 0, subr::speculation},
    SubrInfo{Subr::Progenyof, "progenyof", 1, 1, subr::progenyof},
    SubrInfo{Subr::Json, "json", 2, 2, subr::json},
    SubrInfo{Subr::Wstringof, "wstringof", 1, 1, subr::wstringof},
    SubrInfo{Subr::Stack, "stack", 1, 1, subr::stack},
    SubrInfo{Subr::Ustack, "ustack", 1, 1, subr::ustack},
    SubrInfo{Subr::Usymaddr, "usymaddr", 1, 1, subr::usymaddr},
    SubrInfo{Subr::Copyout, "copyout", 3, 3, subr::write_target},
    SubrInfo{Subr::Copyoutstr, "copyoutstr", 3, 3, subr::write_target},
    SubrInfo{Subr::Memref, "memref", 2, 2, subr::memref},
    SubrInfo{Subr::Memstr, "memstr", 3, 3, subr::memstr},
};
static_assert(kSubroutines.size() == size_t(Subr::Count), "one entry per Subr");

constexpr bool in_subr_order() {
    for (size_t i = 0; i < kSubroutines.size(); i++)
        if (size_t(kSubroutines[i].id) != i)
            return false;
    return true;
}
static_assert(in_subr_order(), "the table is indexed by Subr");

} // namespace

const SubrInfo *subr_info(uint32_t id) {
    return id < kSubroutines.size() ? &kSubroutines[id] : nullptr;
}

std::optional<Subr> subr_by_name(std::string_view name) {
    for (const SubrInfo &s : kSubroutines)
        if (name == s.name)
            return s.id;
    return std::nullopt;
}

SubrState::SubrState() : rand_state(kRandSeed) {}

uint64_t SubrContext::fail(FaultKind kind, uint64_t address) {
    fault_.kind = kind;
    fault_.address = address;
    return 0;
}

std::optional<std::string_view> SubrContext::string(uint64_t address) {
    auto s = memory_.string_at(address, strsize_);
    if (!s)
        fail(FaultKind::BadAddr, address);
    return s;
}

const uint8_t *SubrContext::bytes(uint64_t address, size_t length) {
    const uint8_t *p = memory_.readable(address, length);
    if (!p)
        fail(FaultKind::BadAddr, address);
    return p;
}

uint8_t *SubrContext::scratch(uint64_t length, size_t align) {
    uint8_t *p = memory_.allocate(length, align);
    if (!p)
        fail(FaultKind::NoScratch);
    return p;
}

uint8_t *SubrContext::scratch_target(uint64_t address, size_t length) {
    uint8_t *p = memory_.writable(address, length);
    if (!p)
        fail(FaultKind::BadAddr, address);
    return p;
}

uint64_t SubrContext::result_string(std::string_view s) {
    uint8_t *p = scratch(s.size() + 1, 1);
    if (!p)
        return 0;
    std::memcpy(p, s.data(), s.size());
    p[s.size()] = 0;
    return reinterpret_cast<uint64_t>(p);
}

std::optional<size_t> SubrContext::read_target(uint64_t address, uint8_t *buffer, size_t length, bool allow_short) {
    int64_t n = env_.read_target(address, buffer, length);
    if (n == kTargetNoAccess) {
        fail(FaultKind::UPriv, address);
        return std::nullopt;
    }
    if (n < 0 || (!allow_short && static_cast<size_t>(n) < length) || static_cast<size_t>(n) > length) {
        fail(FaultKind::BadAddr, address + (n > 0 ? static_cast<uint64_t>(n) : 0));
        return std::nullopt;
    }
    return static_cast<size_t>(n);
}

// The VM guarantees strsize >= 1, so there is always room for the NUL.
StringBuilder::StringBuilder(SubrContext &ctx)
    : ctx_(ctx), data_(reinterpret_cast<char *>(ctx.scratch(ctx.strsize(), 1))),
      capacity_(data_ ? ctx.strsize() - 1 : 0) {}

void StringBuilder::push(char c) {
    if (c == '\0')
        capacity_ = size_;
    else if (size_ < capacity_)
        data_[size_++] = c;
}

void StringBuilder::append(std::string_view s) {
    for (char c : s)
        push(c);
}

void StringBuilder::resize(size_t n) {
    if (n < size_)
        size_ = n;
}

uint64_t StringBuilder::finish() {
    if (!data_)
        return 0;
    data_[size_] = 0;
    ctx_.trim(reinterpret_cast<uint8_t *>(data_), size_ + 1);
    return reinterpret_cast<uint64_t>(data_);
}

namespace subr {

// copyout() and copyoutstr() would need a way to write to the traced
// process, which no provider gives: tracing refuses to start with them
// (engine/enable_checks.h), so they never run; if they did, an illegal
// operation.
uint64_t write_target(SubrContext &ctx, Args) {
    return ctx.fail(FaultKind::IllOp);
}

// The speculative buffers belong to the engine (its Environment).
uint64_t speculation(SubrContext &ctx, Args) {
    return ctx.speculation();
}

} // namespace subr

} // namespace dtrace::dif
