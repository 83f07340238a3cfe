// bytes_format.cpp: strings and hex dumps of raw records (see bytes_format.h).
#include "consumer/bytes_format.h"

#include "consumer/cformat.h"

namespace dtrace::consumer {

namespace {

constexpr int kMargin = 5; // spaces before each dump row
constexpr size_t kBytesPerRow = 16;
constexpr std::string_view kHexDigits = "0123456789abcdef";
constexpr char kFirstPrintable = ' ';
constexpr char kLastPrintable = '~';

// isprint() or isspace() in the C locale, plus the two control characters a
// terminal still shows (backspace and bell).
bool looks_printable(char c) {
    return (c >= kFirstPrintable && c <= kLastPrintable) || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
           c == '\r' || c == '\b' || c == '\a';
}

} // namespace

std::string format_hex_dump(std::string_view record) {
    std::string out = "\n" + std::string(kMargin, ' ') + "      ";
    for (const char digit : kHexDigits) {
        out += "  ";
        out += digit;
    }
    out += "  ";
    out += kHexDigits;
    out += "\n";

    for (size_t row = 0; row < record.size(); row += kBytesPerRow) {
        out += std::string(kMargin, ' ') + c_printf("%5zx:", row);
        size_t j = row;
        for (; j < row + kBytesPerRow && j < record.size(); ++j)
            out += c_printf(" %02x", static_cast<unsigned>(static_cast<unsigned char>(record[j])));
        for (; j % kBytesPerRow != 0; ++j)
            out += "   ";
        out += "  ";
        for (j = row; j < row + kBytesPerRow && j < record.size(); ++j) {
            const char c = record[j];
            out += c < kFirstPrintable || c > kLastPrintable ? '.' : c;
        }
        out += "\n";
    }
    return out;
}

std::string format_string(std::string_view text, int width, bool quiet) {
    if (quiet)
        return std::string(text);
    return c_printf(" %s%*s", width < 0 ? " " : "", width, std::string(text).c_str());
}

std::string format_bytes(std::string_view record, int width, bool quiet, bool force_raw) {
    if (record.empty())
        return {};
    if (!force_raw) {
        size_t i = 0;
        while (i < record.size() && looks_printable(record[i]))
            ++i;
        if (i == record.size()) {
            // All printable and no terminating NUL: still a string.
            return c_printf("  %-*s", width, std::string(record).c_str());
        }
        if (record[i] == '\0' && i > 0 && record.find_first_not_of('\0', i) == std::string_view::npos)
            return format_string(record.substr(0, i), width, quiet);
    }
    return format_hex_dump(record);
}

} // namespace dtrace::consumer
