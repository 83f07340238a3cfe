// asm_lexer.cpp: line tokenizer and literal helpers for the assembler.
#include "dif/asm_lexer.h"

#include <charconv>

namespace dtrace::dif::assembly {

namespace {

constexpr std::string_view kPunctuation = ",:[]()+-";
constexpr std::string_view kCommentStarts = "!#";
constexpr std::string_view kRegisterPrefix = "%r";
constexpr unsigned kMaxRegisterField = 255;
constexpr int kHexBase = 16;
constexpr int kDecimalBase = 10;
constexpr size_t kHexEscapeDigits = 2;
constexpr char kHexDigits[] = "0123456789abcdef";
constexpr unsigned char kFirstPrintable = 0x20;
constexpr unsigned char kDelete = 0x7f;

bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '/';
}

std::optional<uint64_t> parse_unsigned(std::string_view text, int base) {
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

// Decodes the literal starting after the opening quote at line[i]; leaves i
// after the closing quote.
bool read_string(std::string_view line, size_t &i, std::string &out, std::string &error) {
    for (i++; i < line.size(); i++) {
        char c = line[i];
        if (c == '"') {
            i++;
            return true;
        }
        if (c != '\\') {
            out.push_back(c);
            continue;
        }
        if (++i == line.size())
            break;
        switch (line[i]) {
        case 'n':
            out.push_back('\n');
            break;
        case 't':
            out.push_back('\t');
            break;
        case 'r':
            out.push_back('\r');
            break;
        case '\\':
        case '"':
            out.push_back(line[i]);
            break;
        case 'x': {
            auto v = parse_unsigned(line.substr(i + 1, kHexEscapeDigits), kHexBase);
            if (!v || i + kHexEscapeDigits >= line.size()) {
                error = "bad \\x escape in string";
                return false;
            }
            out.push_back(static_cast<char>(*v));
            i += kHexEscapeDigits;
            break;
        }
        default:
            error = std::string("unknown escape \\") + line[i] + " in string";
            return false;
        }
    }
    error = "unterminated string";
    return false;
}

} // namespace

LexResult tokenize(std::string_view line) {
    LexResult r;
    for (size_t i = 0; i < line.size();) {
        char c = line[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (kCommentStarts.find(c) != std::string_view::npos) {
            break;
        } else if (c == '"') {
            Token t{Tok::String, {}};
            if (!read_string(line, i, t.text, r.error))
                return r;
            r.tokens.push_back(std::move(t));
        } else if (line.substr(i).starts_with(kRegisterPrefix)) {
            size_t start = i + kRegisterPrefix.size(), end = start;
            while (end < line.size() && line[end] >= '0' && line[end] <= '9')
                end++;
            auto n = parse_unsigned(line.substr(start, end - start), kDecimalBase);
            if (!n || *n > kMaxRegisterField) {
                r.error = "bad register " + std::string(line.substr(i, end - i));
                return r;
            }
            r.tokens.push_back(Token{Tok::Register, std::string(line.substr(i, end - i)), unsigned(*n)});
            i = end;
        } else if (kPunctuation.find(c) != std::string_view::npos) {
            r.tokens.push_back(Token{Tok::Punct, std::string(1, c)});
            i++;
        } else if (word_char(c)) {
            size_t end = i;
            while (end < line.size() && word_char(line[end]))
                end++;
            r.tokens.push_back(Token{Tok::Word, std::string(line.substr(i, end - i))});
            i = end;
        } else {
            r.error = std::string("unexpected character '") + c + "'";
            return r;
        }
    }
    return r;
}

std::optional<uint64_t> parse_number(std::string_view text, bool allow_negative) {
    bool negative = allow_negative && text.starts_with('-');
    if (negative)
        text.remove_prefix(1);
    std::optional<uint64_t> v;
    if (text.starts_with("0x") || text.starts_with("0X"))
        v = parse_unsigned(text.substr(2), kHexBase);
    else
        v = parse_unsigned(text, kDecimalBase);
    if (v && negative)
        *v = 0 - *v;
    return v;
}

std::optional<uint64_t> parse_hex(std::string_view text) {
    return parse_unsigned(text, kHexBase);
}

std::string quote(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        switch (c) {
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\\':
        case '"':
            out += '\\';
            out += c;
            break;
        default:
            if (u < kFirstPrintable || u >= kDelete) {
                out += "\\x";
                out += kHexDigits[u >> 4];
                out += kHexDigits[u & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += '"';
    return out;
}

} // namespace dtrace::dif::assembly
