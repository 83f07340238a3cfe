// printf_parse.cpp: parsing a format string into pieces (see printf_format.h).
//
// The grammar is DTrace's, quirks included: a '0' before any digit is the
// zero-pad flag and cancels an earlier '-' (and vice versa), ".0" means "no
// precision", '?' is the width of a pointer, length modifiers become part of
// the conversion's name ("lld", "hx") and are looked up in the table, so
// anything the table lacks ("%hhd", "%zd") is undefined.
#include "consumer/printf_format.h"

#include <cctype>
#include <limits>

namespace dtrace::consumer {

namespace {

constexpr int kPointerWidth = 16;   // '?': the width of a 64-bit pointer in hex
constexpr size_t kMaxModifiers = 6; // DTrace keeps at most this many h/l/L/w characters
constexpr int kDecimalBase = 10;

compiler::Diagnostic syntax_error(std::string message) {
    compiler::Diagnostic d;
    d.tag = compiler::Tag::D_SYNTAX;
    d.message = std::move(message);
    return d;
}

std::string numbered(size_t conversion, std::string_view what) {
    return "format conversion #" + std::to_string(conversion) + " " + std::string(what);
}

} // namespace

Result<Format, compiler::Diagnostic> parse_format(std::string_view text) {
    // DTrace formats are C strings: nothing after a NUL exists.
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
        text = text.substr(0, nul);

    Format format;
    format.source = std::string(text);
    size_t q = 0;
    for (size_t p = text.find('%', q); p != std::string_view::npos; p = text.find('%', q)) {
        Conversion conv;
        conv.prefix = std::string(text.substr(q, p - q));
        format.pieces.push_back(conv);
        Conversion &c = format.pieces.back();
        const size_t number = format.pieces.size();

        std::string name;
        int digits = 0;
        bool dot = false;
        for (;;) {
            ++p;
            const char ch = p < text.size() ? text[p] : '\0';
            if (std::isdigit(static_cast<unsigned char>(ch))) {
                if (!dot && digits == 0 && ch == '0') {
                    c.flags = (c.flags | kFlagZeroPad) & ~kFlagLeft;
                    continue;
                }
                long long n = 0;
                while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) {
                    if (n <= std::numeric_limits<int>::max())
                        n = n * kDecimalBase + (text[p] - '0');
                    ++p;
                }
                --p;
                const int value =
                    n > std::numeric_limits<int>::max() ? std::numeric_limits<int>::max() : static_cast<int>(n);
                (dot ? c.precision : c.width) = value;
                ++digits;
                continue;
            }
            switch (ch) {
            case '#':
                c.flags |= kFlagAlt;
                continue;
            case '*': {
                const uint32_t which = dot ? kFlagDynPrec : kFlagDynWidth;
                if (c.flags & which) {
                    // DTrace names "precision" here whichever '*' repeats.
                    return syntax_error(numbered(number, "has more than one '*' specified for the output precision"));
                }
                c.flags |= which;
                continue;
            }
            case '+':
                c.flags |= kFlagPlus;
                continue;
            case '-':
                c.flags = (c.flags | kFlagLeft) & ~kFlagZeroPad;
                continue;
            case '.':
                if (dot)
                    return syntax_error(numbered(number, "has more than one '.' specified"));
                dot = true;
                digits = 0;
                continue;
            case '?':
                c.width = kPointerWidth;
                continue;
            case '@':
                c.flags |= kFlagAggValue;
                continue;
            case '\'':
                c.flags |= kFlagGroup;
                continue;
            case ' ':
                c.flags |= kFlagSpace;
                continue;
            case '$':
                return syntax_error(numbered(number, "uses unsupported positional format (%n$)"));
            case '%':
                if (text[p - 1] != '%')
                    return syntax_error(numbered(number, "cannot be combined with other format flags: %%"));
                break;
            case '\0':
                return syntax_error(numbered(number, "name expected before end of format string"));
            case 'h':
            case 'l':
            case 'L':
            case 'w':
                if (name.size() < kMaxModifiers)
                    name += ch;
                continue;
            default:
                break;
            }
            name += ch;
            break;
        }

        c.info = find_conversion(name);
        if (c.info == nullptr)
            return syntax_error(numbered(number, "is undefined: %" + name));
        q = p + 1;
    }

    if (q < text.size() || text.empty()) {
        Conversion tail;
        tail.prefix = std::string(text.substr(q));
        format.pieces.push_back(std::move(tail));
    }
    return format;
}

} // namespace dtrace::consumer
