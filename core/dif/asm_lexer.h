// asm_lexer.h: tokens of one line of DIF assembly, shared by the assembler's
// passes. Comments start with '!' (as in DTrace's listings) or '#', outside
// string literals. String literals use C escapes: \\ \" \n \t \r \xHH.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::dif::assembly {

enum class Tok : uint8_t {
    Word,     // identifiers and bare numbers: letters, digits, '_', '.', '/'
    String,   // "..." with escapes decoded
    Register, // %rN
    Punct,    // one of , : [ ] ( ) + -
};

struct Token {
    Tok kind;
    std::string text; // Word: as written; String: decoded; Punct: the character
    unsigned reg = 0; // Register
};

// Tokens of `line`, or an error message.
struct LexResult {
    std::vector<Token> tokens;
    std::string error;
};
LexResult tokenize(std::string_view line);

// A number as written in assembly: decimal, or hexadecimal with 0x; an
// optional leading '-' is two's complement.
std::optional<uint64_t> parse_number(std::string_view text, bool allow_negative);
// Hexadecimal without prefix (variable ids in variable-table rows).
std::optional<uint64_t> parse_hex(std::string_view text);

// The inverse of string-literal decoding, for listings.
std::string quote(std::string_view s);

} // namespace dtrace::dif::assembly
