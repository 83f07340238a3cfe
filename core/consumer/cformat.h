// cformat.h: printf(3C) into a std::string.
//
// DTrace builds a printf(3C) format for each conversion at run time ("%-8lld")
// and lets libc do the padding, rounding and digit work; doing the same here
// is the surest way to print the same bytes. The formats are always built by
// this library from parsed pieces, never taken from the user unchecked.
#pragma once

#include <charconv>
#include <cstdio>
#include <string>

namespace dtrace::consumer {

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
#endif

// The text printf(3C) produces for `format` and `args` (embedded NULs kept,
// as %c of 0 produces one). Empty if libc refuses the conversion.
template <typename... Args> std::string c_printf(const std::string &format, Args... args) {
    // Most results are short: one call into a stack buffer, a second only when it is too small.
    char small[128];
    const int n = std::snprintf(small, sizeof small, format.c_str(), args...);
    if (n <= 0)
        return {};
    if (static_cast<size_t>(n) < sizeof small)
        return std::string(small, static_cast<size_t>(n));
    std::string out(static_cast<size_t>(n) + 1, '\0');
    std::snprintf(out.data(), out.size(), format.c_str(), args...);
    out.resize(static_cast<size_t>(n));
    return out;
}

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

// Appends what printf(3C)'s "%*lld" (or "%*llu", "%*d") prints for `value`
// and a `width` >= 0: the decimal digits right-aligned in `width` columns.
// For the columns printed a million times over (aggregation rows), where
// parsing a format each time would cost more than the digits.
template <typename Integer> void append_decimal(std::string &out, Integer value, int width) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    const auto n = static_cast<int>(end - digits);
    if (n < width)
        out.append(static_cast<size_t>(width - n), ' ');
    out.append(digits, static_cast<size_t>(n));
}

} // namespace dtrace::consumer
