// escape.cpp: C escapes for %S and %C (see escape.h).
#include "consumer/escape.h"

#include <array>
#include <utility>

namespace dtrace::consumer {

namespace {

constexpr std::array<std::pair<char, char>, 10> kNamedEscapes = {{
    {'\0', '0'},
    {'\a', 'a'},
    {'\b', 'b'},
    {'\f', 'f'},
    {'\n', 'n'},
    {'\r', 'r'},
    {'\t', 't'},
    {'\v', 'v'},
    {'"', '"'},
    {'\\', '\\'},
}};

constexpr char kFirstPlain = '!';
constexpr char kLastPlain = '~';
constexpr unsigned kOctalDigitBits = 3;
constexpr unsigned kOctalDigitMask = 7;
constexpr unsigned kTopOctalDigitMask = 3;

} // namespace

std::string escape_chars(std::string_view record) {
    std::string out;
    for (const char c : record) {
        bool named = false;
        for (const auto &[raw, letter] : kNamedEscapes) {
            if (c == raw) {
                out += '\\';
                out += letter;
                named = true;
                break;
            }
        }
        if (!named) {
            if (c == ' ' || (c >= kFirstPlain && c <= kLastPlain)) {
                out += c;
            } else {
                const auto u = static_cast<unsigned char>(c);
                out += '\\';
                out += static_cast<char>('0' + ((u >> (2 * kOctalDigitBits)) & kTopOctalDigitMask));
                out += static_cast<char>('0' + ((u >> kOctalDigitBits) & kOctalDigitMask));
                out += static_cast<char>('0' + (u & kOctalDigitMask));
            }
        }
        if (c == '\0')
            break;
    }
    return out;
}

} // namespace dtrace::consumer
