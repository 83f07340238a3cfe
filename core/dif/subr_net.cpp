// subr_net.cpp: inet_ntoa(), inet_ntoa6() and inet_ntop(), formatting
// addresses as DTrace does: dotted decimal for IPv4; for IPv6, lower-case
// hexadecimal groups with one run of zero groups written "::" (DTrace also
// compresses a single zero group, unlike RFC 5952), and IPv4-mapped or
// -compatible addresses ending in dotted decimal (inet_ntoa6 then gives just
// the IPv4 part).
#include "dif/subr_impl.h"

#include <array>
#include <charconv>

namespace dtrace::dif::subr {

namespace {

constexpr size_t kIpv4Bytes = 4;
constexpr size_t kIpv6Bytes = 16;
constexpr size_t kIpv4Alignment = 4; // DTrace loads the address as a 32-bit word
// Address families: AF_INET everywhere; AF_INET6 is 26 on illumos (which D
// scripts written for DTrace use) and 10 on Linux. Both are accepted.
constexpr uint64_t kAfInet = 2;
constexpr uint64_t kAfInet6Illumos = 26;
constexpr uint64_t kAfInet6Linux = 10;
// Where the embedded IPv4 address starts in an IPv6 address.
constexpr size_t kV4Offset = 12;
constexpr size_t kV4MappedMarker = 10; // bytes 10 and 11 are 0xff in ::ffff:a.b.c.d
constexpr size_t kGroupBytes = 2;
constexpr int kHexBase = 16;

using Bytes = std::span<const uint8_t>;

void append_decimal(StringBuilder &out, unsigned v) {
    char digits[4];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
    out.append(std::string_view(digits, static_cast<size_t>(end - digits)));
}

void append_dotted_quad(StringBuilder &out, Bytes b) {
    for (size_t i = 0; i < kIpv4Bytes; i++) {
        if (i)
            out.push('.');
        append_decimal(out, b[i]);
    }
}

bool all_zero(Bytes b) {
    for (uint8_t x : b)
        if (x)
            return false;
    return true;
}

// ::ffff:a.b.c.d, or ::a.b.c.d other than :: and ::1.
bool has_embedded_v4(Bytes a) {
    if (all_zero(a.first(kV4MappedMarker)) && a[kV4MappedMarker] == 0xff && a[kV4MappedMarker + 1] == 0xff)
        return true;
    if (!all_zero(a.first(kV4Offset)))
        return false;
    Bytes v4 = a.subspan(kV4Offset);
    bool zero_or_one = v4[0] == 0 && v4[1] == 0 && v4[2] == 0 && v4[3] <= 1;
    return !zero_or_one;
}

// The run of zero bytes DTrace compresses, as [first, first + length) in
// bytes; length 0 when none. DTrace scans the bytes for runs of zeros that
// start on a group boundary and keeps a later run when it is longer in bytes
// than the kept run is in whole groups; this reproduces its choice exactly.
std::pair<int, int> zero_run(Bytes a) {
    const int n = static_cast<int>(kIpv6Bytes);
    int first = -1, length = 1, trying = -1;
    for (int i = 0; i < n; i++) {
        if (a[i] == 0 && trying == -1 && i % 2 == 0) {
            trying = i;
            continue;
        }
        if (trying != -1 && (a[i] != 0 || i == n - 1)) {
            if (i - trying <= length) {
                trying = -1;
                continue;
            }
            first = trying;
            length = i - i % 2 - trying;
            trying = -1;
            if (a[i] == 0 && i == n - 1)
                length += static_cast<int>(kGroupBytes);
        }
    }
    return first == -1 ? std::pair{0, 0} : std::pair{first, length};
}

uint64_t format_v6(SubrContext &ctx, Bytes a, bool only_v4) {
    StringBuilder out(ctx);
    const bool v4 = has_embedded_v4(a);
    if (v4 && only_v4) {
        append_dotted_quad(out, a.subspan(kV4Offset));
        return out.finish();
    }
    const int groups_end = static_cast<int>(v4 ? kV4Offset : kIpv6Bytes); // bytes printed as hex groups
    auto [zero_first, zero_length] = zero_run(a);
    // The run is written "::" only when it ends within the hex groups.
    const bool compress = zero_length > 0 && zero_first + zero_length <= groups_end;
    bool after_gap = false; // just wrote "::"
    for (int i = 0; i < groups_end; i += static_cast<int>(kGroupBytes)) {
        if (compress && i == zero_first) {
            out.append("::");
            after_gap = true;
            i += zero_length - static_cast<int>(kGroupBytes);
            continue;
        }
        if (i > 0 && !after_gap)
            out.push(':');
        after_gap = false;
        char hex[4];
        unsigned group = static_cast<unsigned>(a[i] << 8 | a[i + 1]);
        auto [end, ec] = std::to_chars(hex, hex + sizeof hex, group, kHexBase);
        out.append(std::string_view(hex, static_cast<size_t>(end - hex)));
    }
    if (v4) {
        if (!after_gap)
            out.push(':');
        append_dotted_quad(out, a.subspan(kV4Offset));
    }
    return out.finish();
}

uint64_t ntoa(SubrContext &ctx, uint64_t address) {
    if (address % kIpv4Alignment)
        return ctx.fail(FaultKind::BadAlign, address);
    const uint8_t *b = ctx.bytes(address, kIpv4Bytes);
    if (!b)
        return 0;
    StringBuilder out(ctx);
    append_dotted_quad(out, Bytes(b, kIpv4Bytes));
    return out.finish();
}

uint64_t ntoa6(SubrContext &ctx, uint64_t address, bool only_v4) {
    const uint8_t *b = ctx.bytes(address, kIpv6Bytes);
    return b ? format_v6(ctx, Bytes(b, kIpv6Bytes), only_v4) : 0;
}

} // namespace

uint64_t inet_ntoa(SubrContext &ctx, Args args) {
    return ntoa(ctx, args[0]);
}
uint64_t inet_ntoa6(SubrContext &ctx, Args args) {
    return ntoa6(ctx, args[0], true);
}

uint64_t inet_ntop(SubrContext &ctx, Args args) {
    switch (args[0]) {
    case kAfInet:
        return ntoa(ctx, args[1]);
    case kAfInet6Illumos:
    case kAfInet6Linux:
        return ntoa6(ctx, args[1], false);
    default:
        return ctx.fail(FaultKind::IllOp);
    }
}

} // namespace dtrace::dif::subr
