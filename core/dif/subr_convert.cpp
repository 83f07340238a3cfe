// subr_convert.cpp: number <-> string conversions (lltostr, strtoll), the
// network byte-order conversions and rand().
#include "dif/subr_impl.h"

#include <bit>

namespace dtrace::dif::subr {

namespace {

constexpr uint64_t kMinBase = 2;
constexpr uint64_t kMaxBase = 36; // 0-9 then a-z
constexpr uint64_t kDefaultBase = 10;
constexpr uint64_t kDecimal = 10;
constexpr uint64_t kOctal = 8;
constexpr uint64_t kHex = 16;
// 64 binary digits, a sign or "0x", and slack.
constexpr size_t kLltostrBuffer = 72;
// rand()'s linear congruential step (the constants of DTrace's rand()).
constexpr uint64_t kRandMultiplier = 2416;
constexpr uint64_t kRandIncrement = 374441;
constexpr uint64_t kRandModulus = 1771875;

bool valid_base(uint64_t base) {
    return base >= kMinBase && base <= kMaxBase;
}

char digit_char(uint64_t d) {
    return static_cast<char>(d < kDecimal ? '0' + d : 'a' + (d - kDecimal));
}

// The value of an alphanumeric character as a digit, or kMaxBase when it is none.
uint64_t digit_value(char c) {
    if (c >= '0' && c <= '9')
        return static_cast<uint64_t>(c - '0');
    if (c >= 'a' && c <= 'z')
        return static_cast<uint64_t>(c - 'a') + kDecimal;
    if (c >= 'A' && c <= 'Z')
        return static_cast<uint64_t>(c - 'A') + kDecimal;
    return kMaxBase;
}

bool is_hex_digit(char c) {
    return digit_value(c) < kHex;
}

template <typename T> uint64_t to_network(uint64_t v) {
    T x = static_cast<T>(v);
    if constexpr (std::endian::native == std::endian::little) {
        if constexpr (sizeof(T) == sizeof(uint16_t))
            x = __builtin_bswap16(x);
        else if constexpr (sizeof(T) == sizeof(uint32_t))
            x = __builtin_bswap32(x);
        else
            x = __builtin_bswap64(x);
    }
    return x;
}

} // namespace

// lltostr(value [, base]): base 10 is signed; other bases print the value as
// unsigned, octal with a leading 0 and hexadecimal with a leading 0x.
uint64_t lltostr(SubrContext &ctx, Args args) {
    uint64_t base = args.size() > 1 ? args[1] : kDefaultBase;
    if (!valid_base(base))
        return ctx.fail(FaultKind::IllOp);
    const int64_t value = static_cast<int64_t>(args[0]);
    const bool negative = base == kDecimal && value < 0;
    uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);

    char buffer[kLltostrBuffer];
    char *end = buffer + sizeof buffer;
    char *p = end;
    do {
        *--p = digit_char(magnitude % base);
        magnitude /= base;
    } while (magnitude);
    if (base == kHex) {
        *--p = 'x';
        *--p = '0';
    } else if (base == kOctal && value != 0) {
        *--p = '0';
    }
    if (negative)
        *--p = '-';
    return ctx.result_string(std::string_view(p, static_cast<size_t>(end - p)));
}

// strtoll(s [, base]): leading blanks and a sign, then the longest run of
// digits of the base (wrapping on overflow, as DTrace does); "0x" is skipped
// in base 16 when a hexadecimal digit follows.
uint64_t strtoll(SubrContext &ctx, Args args) {
    uint64_t base = args.size() > 1 ? args[1] : kDefaultBase;
    if (!valid_base(base))
        return ctx.fail(FaultKind::IllOp);
    auto text = ctx.string(args[0]);
    if (!text)
        return 0;
    std::string_view s = *text;
    size_t i = 0;
    auto at = [&](size_t k) { return k < s.size() ? s[k] : '\0'; };
    while (at(i) == ' ' || at(i) == '\t')
        i++;
    bool negative = false;
    if (at(i) == '-' || at(i) == '+')
        negative = at(i++) == '-';
    if (base == kHex && at(i) == '0' && (at(i + 1) == 'x' || at(i + 1) == 'X') && is_hex_digit(at(i + 2)))
        i += 2;
    uint64_t value = 0;
    for (; i < s.size() && digit_value(s[i]) < base; i++)
        value = value * base + digit_value(s[i]);
    return negative ? 0 - value : value;
}

uint64_t htons(SubrContext &, Args args) {
    return to_network<uint16_t>(args[0]);
}
uint64_t htonl(SubrContext &, Args args) {
    return to_network<uint32_t>(args[0]);
}
uint64_t htonll(SubrContext &, Args args) {
    return to_network<uint64_t>(args[0]);
}

uint64_t rand(SubrContext &ctx, Args) {
    uint64_t &state = ctx.state().rand_state;
    state = (state * kRandMultiplier + kRandIncrement) % kRandModulus;
    return state;
}

} // namespace dtrace::dif::subr
