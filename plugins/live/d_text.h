// d_text.h: values written into the D libraries the live plugins generate.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace dtrace::live {

// `value` as a D hexadecimal constant.
inline std::string d_hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

// `text` as a D string literal.
inline std::string d_string(std::string_view text) {
    std::string literal = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            literal += '\\';
            literal += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char octal[8];
            std::snprintf(octal, sizeof octal, "\\%03o", c);
            literal += octal;
        } else {
            literal += static_cast<char>(c);
        }
    }
    return literal + "\"";
}

} // namespace dtrace::live
