// subr_string.cpp: D's string subroutines — strlen, strjoin, substr, index,
// rindex, strstr, strchr, strrchr, strtok, toupper, tolower — with the
// semantics of illumos DTrace, including its Perl-like position rules.
#include "common/utf8.h"
#include "dif/subr_impl.h"

#include <bitset>

namespace dtrace::dif::subr {

namespace {

constexpr int64_t kNotFound = -1;
constexpr size_t kByteValues = 256;

uint64_t address_of(std::string_view s, size_t offset) {
    return reinterpret_cast<uint64_t>(s.data() + offset);
}

// Does `s` hold `sub` at `at`? (DTrace's strncmp(s + at, sub, strlen(sub)) == 0.)
bool matches_at(std::string_view s, size_t at, std::string_view sub) {
    return s.substr(at).starts_with(sub);
}

enum class Search { Strstr, Index, Rindex };

// strstr(), index() and rindex() share DTrace's search, including its
// treatment of empty strings and of the optional start position.
uint64_t search(SubrContext &ctx, Args args, Search kind) {
    auto s = ctx.string(args[0]);
    if (!s)
        return 0;
    auto sub = ctx.string(args[1]);
    if (!sub)
        return 0;
    const int64_t len = static_cast<int64_t>(s->size());
    const uint64_t not_found = kind == Search::Strstr ? 0 : static_cast<uint64_t>(kNotFound);
    if (len == 0 && sub->empty())
        return kind == Search::Strstr ? address_of(*s, 0) : 0;

    int64_t start = kind == Search::Rindex ? len : 0;
    if (kind != Search::Strstr && args.size() == 3) {
        int64_t pos = static_cast<int64_t>(args[2]);
        if (kind == Search::Rindex) {
            if (pos < 0)
                return sub->empty() ? 0 : not_found;
            start = pos > len ? len : pos;
        } else {
            if (pos < 0)
                pos = 0;
            if (pos >= len)
                return sub->empty() ? static_cast<uint64_t>(len) : not_found;
            start = pos;
        }
    }
    if (kind == Search::Rindex) {
        for (int64_t i = start; i >= 0; i--)
            if (matches_at(*s, static_cast<size_t>(i), *sub))
                return static_cast<uint64_t>(i);
        return not_found;
    }
    for (int64_t i = start; i < len; i++)
        if (matches_at(*s, static_cast<size_t>(i), *sub))
            return kind == Search::Strstr ? address_of(*s, static_cast<size_t>(i)) : static_cast<uint64_t>(i);
    return not_found;
}

// strchr() and strrchr(): the terminating NUL is part of the search, so
// strchr(s, 0) finds the end of s.
uint64_t find_char(SubrContext &ctx, Args args, bool last) {
    auto s = ctx.string(args[0]);
    if (!s)
        return 0;
    const char target = static_cast<char>(args[1]);
    const size_t end = s->size() < ctx.strsize() ? s->size() + 1 : s->size();
    uint64_t found = 0;
    for (size_t i = 0; i < end; i++) {
        char c = i < s->size() ? (*s)[i] : '\0';
        if (c == target) {
            found = address_of(*s, i);
            if (!last)
                break;
        }
    }
    return found;
}

uint64_t convert_case(SubrContext &ctx, Args args, bool upper) {
    auto s = ctx.string(args[0]);
    if (!s)
        return 0;
    StringBuilder out(ctx);
    for (char c : *s) {
        if (upper && c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
        else if (!upper && c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        out.push(c);
    }
    return out.finish();
}

} // namespace

uint64_t strlen(SubrContext &ctx, Args args) {
    auto s = ctx.string(args[0]);
    return s ? s->size() : 0;
}

// As in illumos, a result longer than strsize is an error ("out of scratch
// space"), not a truncation.
uint64_t strjoin(SubrContext &ctx, Args args) {
    auto a = ctx.string(args[0]);
    if (!a)
        return 0;
    auto b = ctx.string(args[1]);
    if (!b)
        return 0;
    if (a->size() + b->size() >= ctx.strsize())
        return ctx.fail(FaultKind::NoScratch);
    StringBuilder out(ctx);
    out.append(*a);
    out.append(*b);
    return out.finish();
}

// substr(s, index [, length]): a negative index counts from the end; a
// negative length leaves that many characters off the end; a range starting
// before the string is clipped to it.
uint64_t substr(SubrContext &ctx, Args args) {
    auto s = ctx.string(args[0]);
    if (!s)
        return 0;
    // 128-bit arithmetic: the D program chooses both operands freely.
    using Wide = __int128;
    const Wide len = static_cast<Wide>(s->size());
    const Wide size = ctx.strsize();
    Wide index = static_cast<int64_t>(args[1]);
    Wide remaining = args.size() > 2 ? Wide(static_cast<int64_t>(args[2])) : size;
    if (index < 0) {
        index += len;
        if (index < 0 && index + remaining > 0) {
            remaining += index;
            index = 0;
        }
    }
    if (index >= len || index < 0)
        remaining = 0;
    else if (remaining < 0)
        remaining += len - index;
    else if (index + remaining > size)
        remaining = size - index;

    StringBuilder out(ctx);
    for (Wide i = 0; i < remaining && index + i < len; i++)
        out.push((*s)[static_cast<size_t>(index + i)]);
    return out.finish();
}

uint64_t index(SubrContext &ctx, Args args) {
    return search(ctx, args, Search::Index);
}
uint64_t rindex(SubrContext &ctx, Args args) {
    return search(ctx, args, Search::Rindex);
}
uint64_t strstr(SubrContext &ctx, Args args) {
    return search(ctx, args, Search::Strstr);
}
uint64_t strchr(SubrContext &ctx, Args args) {
    return find_char(ctx, args, false);
}
uint64_t strrchr(SubrContext &ctx, Args args) {
    return find_char(ctx, args, true);
}
uint64_t toupper(SubrContext &ctx, Args args) {
    return convert_case(ctx, args, true);
}
uint64_t tolower(SubrContext &ctx, Args args) {
    return convert_case(ctx, args, false);
}

// wstringof(p): the UTF-16 (little-endian) string at p as a D string in
// UTF-8, as the Windows ports offer for ETW's wide strings. Reading stops at
// a NUL code unit or when the result would exceed strsize; a lone surrogate
// becomes U+FFFD.
uint64_t wstringof(SubrContext &ctx, Args args) {
    constexpr uint32_t kReplacement = 0xFFFD;
    constexpr uint16_t kHighFirst = 0xD800, kLowFirst = 0xDC00, kLowLast = 0xDFFF;
    constexpr uint32_t kSurrogateBits = 10, kSupplementaryBase = 0x10000;
    auto unit_at = [&](uint64_t address, uint16_t &unit) {
        const uint8_t *p = ctx.bytes(address, sizeof unit);
        if (p != nullptr)
            unit = static_cast<uint16_t>(p[0] | (p[1] << 8));
        return p != nullptr;
    };
    std::string text;
    const size_t limit = ctx.strsize() - 1;
    uint64_t address = args[0];
    for (uint16_t unit = 0; text.size() < limit; address += sizeof unit) {
        if (!unit_at(address, unit))
            return 0; // the fault is set
        if (unit == 0)
            break;
        uint32_t cp = unit;
        if (unit >= kHighFirst && unit < kLowFirst) {
            uint16_t low = 0;
            if (unit_at(address + sizeof unit, low) && low >= kLowFirst && low <= kLowLast) {
                cp = kSupplementaryBase + ((uint32_t(unit - kHighFirst) << kSurrogateBits) | uint32_t(low - kLowFirst));
                address += sizeof unit;
            } else {
                if (ctx.failed())
                    return 0;
                cp = kReplacement;
            }
        } else if (unit >= kLowFirst && unit <= kLowLast) {
            cp = kReplacement;
        }
        std::string encoded;
        common::append_utf8(encoded, cp);
        if (text.size() + encoded.size() > limit)
            break; // a character is never cut in half
        text += encoded;
    }
    return ctx.result_string(text);
}

// strtok(s, delimiters): s == NULL continues the string of the previous call
// in this firing. Returns NULL once no token is left. As DTrace, which then
// reads its saved pointer, NULL, a continuation with nothing to continue (a
// new firing, or after the last token) faults at address 0.
uint64_t strtok(SubrContext &ctx, Args args) {
    auto delimiters = ctx.string(args[1]);
    if (!delimiters)
        return 0;
    SubrState &st = ctx.state();
    if (args[0] != 0) {
        auto s = ctx.string(args[0]);
        if (!s)
            return 0;
        st.strtok_text.assign(*s);
        st.strtok_offset = 0;
        st.strtok_active = true;
    } else if (!st.strtok_active) {
        return ctx.fail(FaultKind::BadAddr, 0);
    }
    std::bitset<kByteValues> is_delimiter;
    for (char c : *delimiters)
        is_delimiter.set(static_cast<uint8_t>(c));
    auto delimiter_at = [&](size_t i) { return is_delimiter.test(static_cast<uint8_t>(st.strtok_text[i])); };

    const std::string &text = st.strtok_text;
    size_t i = st.strtok_offset;
    while (i < text.size() && delimiter_at(i))
        i++;
    if (i == text.size()) {
        st.strtok_active = false;
        return 0;
    }
    StringBuilder out(ctx);
    for (; i < text.size() && !delimiter_at(i); i++)
        out.push(text[i]);
    st.strtok_offset = i;
    return out.finish();
}

} // namespace dtrace::dif::subr
