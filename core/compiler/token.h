// token.h: the tokens of the D language, as the lexer hands them to the parser.
//
// One enumerator per keyword and per operator, like DTrace's DT_KEY_* and
// DT_TOK_* codes, so that the parser can mirror DTrace's grammar rule for
// rule. Every token keeps the text DTrace would show for it in a
// "syntax error near "X"" message (its yytext), which is not always the
// source spelling (see `text`).
#pragma once

#include <cstdint>
#include <string>

namespace dtrace::compiler {

enum class Tok : uint8_t {
    End,       // end of input
    Ident,     // identifier (possibly `mod`scoped); value = the name
    TypeName,  // identifier that names a type here (DTrace's DT_TOK_TNAME); value = the name
    IntLit,    // integer constant, character constant or integer macro argument
    StringLit, // value = the decoded string
    Agg,       // @name or @; value = the name without '@' ("_" for the bare @)
    ProbeSpec, // a probe description at the program's outer level; value = as written

    // Keywords. DTrace reserves C's keywords and its own; those its grammar
    // never uses (break, case, for, while...) are syntax errors wherever written.
    KwAuto,
    KwBreak,
    KwCase,
    KwChar,
    KwConst,
    KwContinue,
    KwCounter,
    KwDefault,
    KwDo,
    KwDouble,
    KwElse,
    KwEnum,
    KwExtern,
    KwFloat,
    KwFor,
    KwGoto,
    KwIf,
    KwImport,
    KwInline,
    KwInt,
    KwLong,
    KwOffsetof,
    KwProbe,
    KwProvider,
    KwRegister,
    KwRestrict,
    KwReturn,
    KwSelf,
    KwShort,
    KwSigned,
    KwSizeof,
    KwStatic,
    KwString,
    KwStringof,
    KwStruct,
    KwSwitch,
    KwThis,
    KwTranslator,
    KwTypedef,
    KwUnion,
    KwUnsigned,
    KwUserland,
    KwVoid,
    KwVolatile,
    KwWhile,
    KwXlate,

    // Punctuators and operators.
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Semi,
    Comma,
    Ellipsis,
    Question,
    Colon,
    Dot,
    Arrow,
    Assign,
    AddAssign,
    SubAssign,
    MulAssign,
    DivAssign,
    ModAssign,
    AndAssign,
    XorAssign,
    OrAssign,
    ShlAssign,
    ShrAssign,
    LogOr,
    LogXor,
    LogAnd,
    BitOr,
    BitXor,
    BitAnd,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Shl,
    Shr,
    Plus,
    Minus,
    Star,
    Slash,   // division (or, at the outer level, the start of a predicate)
    EndPred, // a '/' followed by end of input, ';', '{' or '/': it closes a predicate
    Percent,
    Tilde,
    Bang,
    PlusPlus,
    MinusMinus,
};

struct Token {
    Tok kind = Tok::End;
    int line = 0;
    // What DTrace shows for the token in "syntax error near" messages: the
    // source text, except for macro references ("$1", not their value) and
    // character constants (DTrace shows the opening quote and the decoded
    // characters, without the closing quote).
    std::string text;
    std::string value; // Ident, TypeName, StringLit, Agg, ProbeSpec
    // IntLit: the value, the suffix letters as written (u, l, ul, ll, ull in
    // any case), whether it was written in decimal, and the sign a macro
    // argument such as "-5" carried ('+', '-' or 0).
    uint64_t int_value = 0;
    std::string int_suffix;
    bool int_decimal = true;
    char int_sign = 0;
    bool is_char_constant = false;
};

} // namespace dtrace::compiler
