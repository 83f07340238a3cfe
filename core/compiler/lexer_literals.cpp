// lexer_literals.cpp: integer, character and string constants, escape
// sequences, and macro references ($1, $$1, $pid, $$target).
//
// DTrace converts numbers with strtoull(text, 0) and reports its overflow
// (ERANGE) and the first character it stopped at; c_strtoull() reproduces
// that conversion exactly, including its treatment of blanks and signs,
// because macro arguments go through it too.
#include "compiler/lexer.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <string>

namespace dtrace::compiler {

namespace {

constexpr size_t kMaxCharConstantBytes = 8; // a character constant fills at most a uint64_t
constexpr size_t kSuffixChars = 4;          // DTrace keeps 4 characters of a number's suffix
constexpr size_t kMaxIndexDigits = 10;      // digits of INT_MAX
constexpr int kBase8 = 8, kBase10 = 10, kBase16 = 16;

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_octal(char c) {
    return c >= '0' && c <= '7';
}

int hex_value(char c) {
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + kBase10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + kBase10;
    return -1;
}

int digit_value(char c, int base) {
    int v = hex_value(c);
    return v >= 0 && v < base ? v : -1;
}

struct Conversion {
    uint64_t value = 0;
    size_t end = 0; // where the conversion stopped (0 when nothing converted)
    bool overflow = false;
};

// strtoull(s, &end, 0) as C specifies it.
Conversion c_strtoull(std::string_view s) {
    Conversion r;
    size_t p = 0;
    while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p])))
        ++p;
    bool negative = false;
    if (p < s.size() && (s[p] == '+' || s[p] == '-'))
        negative = s[p++] == '-';
    int base = kBase10;
    if (p < s.size() && s[p] == '0') {
        base = kBase8;
        if (p + 2 < s.size() && (s[p + 1] == 'x' || s[p + 1] == 'X') && hex_value(s[p + 2]) >= 0) {
            base = kBase16;
            p += 2;
        }
    }
    const size_t digits_start = p;
    for (; p < s.size(); ++p) {
        int d = digit_value(s[p], base);
        if (d < 0)
            break;
        if (r.value > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base))
            r.overflow = true;
        r.value = r.value * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
    }
    if (p == digits_start)
        return Conversion{};
    r.end = p;
    if (r.overflow)
        r.value = UINT64_MAX;
    else if (negative)
        r.value = 0 - r.value;
    return r;
}

// The length of DTrace's RGX_FP match at `s`:
// ([0-9]+("."?)[0-9]*|"."[0-9]+)((e|E)("+"|-)?[0-9]+)?[fFlL]?
size_t float_match_length(std::string_view s) {
    size_t p = 0;
    auto digits = [&] {
        size_t n = 0;
        while (p < s.size() && is_digit(s[p])) {
            ++p;
            ++n;
        }
        return n;
    };
    if (!s.empty() && s[0] == '.') {
        p = 1;
        if (digits() == 0)
            return 0;
    } else {
        if (digits() == 0)
            return 0;
        if (p < s.size() && s[p] == '.')
            ++p;
        digits();
    }
    if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
        size_t q = p + 1;
        if (q < s.size() && (s[q] == '+' || s[q] == '-'))
            ++q;
        size_t d = q;
        while (d < s.size() && is_digit(s[d]))
            ++d;
        if (d > q)
            p = d;
    }
    if (p < s.size() && (s[p] == 'f' || s[p] == 'F' || s[p] == 'l' || s[p] == 'L'))
        ++p;
    return p;
}

// The n of $n; -1 (never defined) when it does not fit an int.
int macro_index(std::string_view digits) {
    while (digits.size() > 1 && digits[0] == '0')
        digits.remove_prefix(1);
    if (digits.size() > kMaxIndexDigits)
        return -1;
    long long n = std::stoll(std::string(digits));
    return n > INT_MAX ? -1 : static_cast<int>(n);
}

std::string until_nul(std::string s) {
    s.resize(std::min(s.size(), s.find('\0')));
    return s;
}

} // namespace

// RGX_INT: ([0-9]+|0[xX][0-9A-Fa-f]+)[uU]?[lL]?[lL]?
size_t integer_constant_length(std::string_view s) {
    size_t body = 0;
    while (body < s.size() && is_digit(s[body]))
        ++body;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hex_value(s[2]) >= 0) {
        size_t hex = 2;
        while (hex < s.size() && hex_value(s[hex]) >= 0)
            ++hex;
        body = std::max(body, hex);
    }
    size_t end = body;
    if (end < s.size() && (s[end] == 'u' || s[end] == 'U'))
        ++end;
    for (int i = 0; i < 2 && end < s.size() && (s[end] == 'l' || s[end] == 'L'); ++i)
        ++end;
    return end;
}

std::string decode_escapes(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t p = 0; p < s.size(); ++p) {
        const char c = s[p];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++p >= s.size())
            break; // a trailing backslash escapes nothing
        const char e = s[p];
        switch (e) {
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7': {
            unsigned v = static_cast<unsigned>(e - '0');
            for (int i = 0; i < 2 && p + 1 < s.size() && is_octal(s[p + 1]); ++i)
                v = v * kBase8 + static_cast<unsigned>(s[++p] - '0');
            out += static_cast<char>(v);
            break;
        }
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'v':
            out += '\v';
            break;
        case 'x': {
            unsigned v = 0;
            while (p + 1 < s.size() && hex_value(s[p + 1]) >= 0)
                v = v * kBase16 + static_cast<unsigned>(hex_value(s[++p]));
            out += static_cast<char>(v);
            break;
        }
        case '"':
        case '\\':
            out += e;
            break;
        default:
            out += '\\';
            out += e;
            break;
        }
    }
    return out;
}

bool is_ident_or_integer(std::string_view s) {
    if (s.empty())
        return false;
    Conversion c = c_strtoull(s);
    if (!c.overflow && c.end == s.size())
        return true;
    for (char ch : s) {
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '`')
            return false;
    }
    return true;
}

// A number in a clause (integers; floating-point constants are refused) or
// at the outer level (probe ids: integers only).
Token Lexer::scan_number(size_t start, int line, bool allow_float) {
    const std::string_view rest = src_.substr(start);
    const size_t int_len = integer_constant_length(rest);
    if (allow_float && float_match_length(rest) > int_len) {
        pos_ = start + float_match_length(rest);
        fail(Tag::D_SYNTAX, line_, "floating-point constants are not permitted");
    }
    pos_ = start + int_len;
    return integer_token(rest.substr(0, int_len), line);
}

// DTrace's RGX_INT action: convert, then refuse overflow and digits the
// base does not have ("08").
Token Lexer::integer_token(std::string_view text, int line) {
    Conversion c = c_strtoull(text);
    if (c.overflow)
        fail(Tag::D_INT_OFLOW, line_, "constant " + std::string(text) + " results in integer overflow");
    const std::string_view rest = text.substr(c.end);
    if (!rest.empty() && rest[0] != 'u' && rest[0] != 'U' && rest[0] != 'l' && rest[0] != 'L')
        fail(Tag::D_INT_DIGIT, line_,
             "constant " + std::string(text) + " contains invalid digit " + std::string(1, rest[0]));
    Token t;
    t.kind = Tok::IntLit;
    t.line = line;
    t.text = std::string(text);
    t.int_value = c.value;
    t.int_suffix = std::string(rest);
    t.int_decimal = text[0] != '0';
    return t;
}

// The end of a quoted body as DTrace's RGX_STR / RGX_CHR match it: any
// characters but the quote and newline, a backslash escaping anything but a
// newline. Returns the position of the closing quote, of a newline, of a
// backslash-newline, or the end of input.
size_t Lexer::quoted_body_end(size_t pos, char quote) const {
    while (pos < src_.size()) {
        const char c = src_[pos];
        if (c == quote || c == '\n')
            return pos;
        if (c == '\\') {
            if (pos + 1 >= src_.size() || src_[pos + 1] == '\n')
                return pos;
            pos += 2;
            continue;
        }
        ++pos;
    }
    return pos;
}

Token Lexer::scan_string(size_t start, int line) {
    const size_t end = quoted_body_end(start + 1, '"');
    if (at(end) == '\n') {
        pos_ = end;
        fail(Tag::D_STR_NL, line_, "newline encountered in string literal");
    }
    if (at(end) != '"') {
        pos_ = start + 1;
        fail(Tag::D_SYNTAX, line_, "syntax error near \"\"\"");
    }
    pos_ = end + 1;
    Token t = make(Tok::StringLit, start, line);
    t.value = string_value(start + 1, end);
    return t;
}

// A string constant's value: its body decoded, ending at a decoded \0 as
// DTrace's C strings do.
std::string Lexer::string_value(size_t body_start, size_t body_end) const {
    return until_nul(decode_escapes(src_.substr(body_start, body_end - body_start)));
}

// A character constant: its decoded bytes, first byte most significant.
Token Lexer::scan_char(size_t start, int line) {
    const size_t end = quoted_body_end(start + 1, '\'');
    if (at(end) == '\n') {
        pos_ = end;
        fail(Tag::D_CHR_NL, line_, "newline encountered in character constant");
    }
    if (at(end) != '\'') {
        pos_ = start + 1;
        fail(Tag::D_SYNTAX, line_, "syntax error near \"'\"");
    }
    pos_ = end + 1;
    if (end == start + 1)
        fail(Tag::D_CHR_NULL, line_, "empty character constant");
    const std::string bytes = decode_escapes(src_.substr(start + 1, end - start - 1));
    if (bytes.size() > kMaxCharConstantBytes)
        fail(Tag::D_CHR_OFLOW, line_, "character constant is too long");
    Token t;
    t.kind = Tok::IntLit;
    t.line = line;
    t.is_char_constant = true;
    for (char b : bytes)
        t.int_value = (t.int_value << CHAR_BIT) | static_cast<unsigned char>(b);
    // DTrace decodes the constant in place and drops the closing quote, so
    // that is what its messages show.
    t.text = "'" + until_nul(bytes);
    t.value = std::string(src_.substr(start, end + 1 - start));
    return t;
}

// $n, $$n, $name, $$name.
Token Lexer::scan_macro(size_t start, int line) {
    const bool as_string = at(start + 1) == '$';
    const size_t name_start = start + (as_string ? 2 : 1);
    size_t end = name_start;
    if (is_digit(at(name_start))) {
        while (is_digit(at(end)))
            ++end;
        pos_ = end;
        const std::string_view text = src_.substr(start, end - start);
        return macro_argument(text, macro_index(src_.substr(name_start, end - name_start)), as_string, line);
    }
    const char c = at(name_start);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '`') {
        while (std::isalnum(static_cast<unsigned char>(at(end))) || at(end) == '_' || at(end) == '`')
            ++end;
        pos_ = end;
        return macro_variable(src_.substr(start, end - start), src_.substr(name_start, end - name_start), as_string,
                              line);
    }
    pos_ = start + 1;
    fail(Tag::D_SYNTAX, line_, "syntax error near \"$\"");
}

// A macro argument stands for one token: $$n for a string; $n for an
// integer if its text is one, an identifier if it is one, and otherwise a
// string (optionally quoted).
Token Lexer::macro_argument(std::string_view text, int index, bool as_string, int line) {
    const int argc = static_cast<int>(config_.macro_args.size());
    if (index < 0 || (index >= argc && !config_.default_args))
        fail(Tag::D_MACRO_UNDEF, line_, "macro argument " + std::string(text) + " is not defined");
    std::string v = as_string ? "" : "0";
    if (index < argc) {
        v = config_.macro_args[static_cast<size_t>(index)];
        referenced_args_.insert(index);
    }
    Token t;
    t.line = line;
    t.text = std::string(text);
    if (as_string || !is_ident_or_integer(v)) {
        if (!as_string && v.size() >= 2 && v.front() == '"' && v.back() == '"')
            v = v.substr(1, v.size() - 2);
        t.kind = Tok::StringLit;
        t.value = until_nul(decode_escapes(v));
        return t;
    }
    if (is_digit(v[0]) || v[0] == '-' || v[0] == '+') {
        std::string_view number = v;
        if (!is_digit(v[0])) {
            t.int_sign = v[0];
            number.remove_prefix(1);
        }
        Conversion c = c_strtoull(number);
        if (c.overflow)
            fail(Tag::D_MACRO_OFLOW, line_,
                 "macro argument " + std::string(text) + " constant " + std::string(number) +
                     " results in integer overflow");
        t.kind = Tok::IntLit;
        t.int_value = c.value;
        t.int_suffix = std::string(number.substr(c.end, kSuffixChars));
        t.int_decimal = number.empty() || number[0] != '0';
        return t;
    }
    return classify_identifier(v, std::string(text), line);
}

// A macro variable ($pid, $target...) is an integer, or with $$ its decimal
// string. DTrace keeps their values as 32-bit ids.
Token Lexer::macro_variable(std::string_view text, std::string_view name, bool as_string, int line) {
    auto it = config_.macro_vars.find(std::string(name));
    if (it == config_.macro_vars.end())
        fail(Tag::D_MACRO_UNDEF, line_, "macro variable " + std::string(text) + " is not defined");
    const auto id = static_cast<uint32_t>(std::strtoll(it->second.c_str(), nullptr, kBase10));
    Token t;
    t.line = line;
    t.text = std::string(text);
    if (as_string) {
        t.kind = Tok::StringLit;
        t.value = std::to_string(id);
    } else {
        t.kind = Tok::IntLit;
        t.int_value = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(id)));
    }
    return t;
}

} // namespace dtrace::compiler
