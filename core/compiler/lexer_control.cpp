// lexer_control.cpp: control lines, DTrace's dt_pragma.c.
//
// A line whose first non-blank character is '#' is a control line (a line
// beginning "#!" is an interpreter line and is skipped). Its words are read
// as integers, strings or bare words up to the newline, and the directive
// runs when the newline has been read:
//   # N ["file" [flags]]         (as cpp writes them) and #line N ["file"]
//   #error words...               stops compilation with the words
//   #ident ...                    ignored
//   #pragma ...                   unknown pragmas are ignored, as C says
//   #pragma D option|attributes|binding|depends_on ...
// The "#pragma D" pragmas that act on the compilation are handed to the
// parser (LexedPragma) once their shape has been checked here.
#include "compiler/lexer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace dtrace::compiler {

namespace {

// Where a directive may be written: after a bare '#', after "#pragma", or
// only after "#pragma D". A directive is usable at its level and below.
enum class Level : uint8_t { Directive, Pragma, DPragma };

struct DirectiveInfo {
    const char *name;
    Level level;
};

constexpr std::array kDirectives = {
    DirectiveInfo{"attributes", Level::DPragma}, DirectiveInfo{"binding", Level::DPragma},
    DirectiveInfo{"depends_on", Level::DPragma}, DirectiveInfo{"error", Level::Directive},
    DirectiveInfo{"ident", Level::Directive},    DirectiveInfo{"line", Level::Directive},
    DirectiveInfo{"option", Level::DPragma},
};

// The file names cpp gives DTrace's main input (read from a /dev/fd file, or
// from cpp's standard input), which DTrace does not show.
constexpr std::string_view kMainInputPrefix = "/dev/fd/";
constexpr std::string_view kStandardInput = "<stdin>";

bool is_control_blank(char c) {
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

bool is_kind(const std::vector<Token> &words, size_t i, Tok kind) {
    return i < words.size() && words[i].kind == kind;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

// DTrace's dtrace_str2attr(): name/data/class, each part optional from the
// right ("Stable", "Stable/Evolving" ...), names in any case.
bool is_attribute_string(std::string_view text) {
    static constexpr std::string_view kStabilities[] = {"Internal", "Private",  "Obsolete", "External",
                                                        "Unstable", "Evolving", "Stable",   "Standard"};
    static constexpr std::string_view kClasses[] = {"Unknown", "CPU", "Platform", "Group", "ISA", "Common"};
    for (int part = 0; !text.empty(); ++part) {
        if (part == 3)
            return true; // DTrace reads three parts and ignores the rest
        const size_t slash = text.find('/');
        const std::string_view word = text.substr(0, slash);
        text = slash == std::string_view::npos ? std::string_view() : text.substr(slash + 1);
        auto matches = [&](std::string_view name) { return equals_ignoring_case(word, name); };
        const bool known = part < 2 ? std::any_of(std::begin(kStabilities), std::end(kStabilities), matches)
                                    : std::any_of(std::begin(kClasses), std::end(kClasses), matches);
        if (!known)
            return false;
    }
    return true;
}

// DTrace's dt_version_str2num(): major[.minor[.micro]], each within its field.
bool is_version_string(std::string_view text) {
    constexpr uint32_t kLimits[] = {0xff, 0xfff, 0xfff}; // DT_VERSION_{MAJ,MIN,MIC}MAX
    uint32_t parts[3] = {0, 0, 0};
    size_t i = 0;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            parts[i] = std::min<uint32_t>(parts[i] * 10 + uint32_t(c - '0'), UINT32_MAX / 16);
        } else if (c != '.' || ++i == 3) {
            return false;
        }
    }
    return parts[0] <= kLimits[0] && parts[1] <= kLimits[1] && parts[2] <= kLimits[2];
}

} // namespace

bool Lexer::at_line_start(size_t pos) const {
    return pos == 0 || src_[pos - 1] == '\n';
}

bool Lexer::skip_control_line() {
    size_t p = pos_;
    while (is_control_blank(at(p)))
        ++p;
    if (at(p) != '#')
        return false;
    if (at(p + 1) == '!') {
        pos_ = src_.find('\n', p);
        if (pos_ == std::string_view::npos)
            pos_ = src_.size();
        return true;
    }
    const int directive_line_number = line_;
    pos_ = p + 1;
    std::vector<Token> words;
    for (;;) {
        while (is_control_blank(at(pos_)))
            ++pos_;
        if (pos_ >= src_.size())
            fail(Tag::D_SYNTAX, line_, "end-of-file encountered before end of control line");
        const size_t start = pos_;
        const char c = src_[pos_];
        if (c == '\n') {
            ++pos_;
            ++line_;
            break;
        }
        if (c == '"') {
            const size_t end = quoted_body_end(start + 1, '"');
            if (end >= src_.size())
                fail(Tag::D_SYNTAX, line_, "end-of-file encountered before end of control line");
            if (src_[end] == '\n') {
                pos_ = end;
                fail(Tag::D_STR_NL, line_, "newline encountered in string literal");
            }
            if (src_[end] != '"') {
                pos_ = start + 1;
                fail(Tag::D_SYNTAX, line_, "syntax error near \"\"\"");
            }
            pos_ = end + 1;
            Token t = make(Tok::StringLit, start, line_);
            t.value = string_value(start + 1, end);
            words.push_back(std::move(t));
            continue;
        }
        size_t end = start;
        while (end < src_.size() && !is_control_blank(src_[end]) && src_[end] != '\n' && src_[end] != '"')
            ++end;
        if (end >= src_.size())
            fail(Tag::D_SYNTAX, line_, "end-of-file encountered before end of control line");
        pos_ = end;
        const std::string_view word = src_.substr(start, end - start);
        if (integer_constant_length(word) == word.size()) {
            words.push_back(integer_token(word, line_));
        } else {
            Token t = make(Tok::Ident, start, line_);
            t.value = t.text;
            words.push_back(std::move(t));
        }
    }
    run_directive(words, directive_line_number);
    return true;
}

// DTrace's dt_pragma(). The newline has been read, so line_ is the next
// line's; directives found by name report errors at their own line.
void Lexer::run_directive(const std::vector<Token> &words, int directive_line_number) {
    Level level = Level::Directive;
    for (size_t i = 0; i < words.size(); ++i) {
        const Token &w = words[i];
        if (w.kind == Tok::IntLit) {
            directive_line("line", words, i);
            return;
        }
        if (w.kind != Tok::Ident)
            fail(Tag::D_PRAGCTL_INVAL, line_, "invalid control directive");
        if (level == Level::Directive && w.value == "pragma") {
            level = Level::Pragma;
            continue;
        }
        if (level == Level::Pragma && w.value == "D") {
            level = Level::DPragma;
            continue;
        }
        const DirectiveInfo *found = nullptr;
        for (const DirectiveInfo &d : kDirectives) {
            if (d.level <= level && w.value == d.name)
                found = &d;
        }
        line_ = directive_line_number;
        if (found == nullptr) {
            if (level == Level::Directive)
                fail(Tag::D_PRAGCTL_INVAL, line_, "invalid control directive: #" + w.value);
            if (level == Level::DPragma)
                fail(Tag::D_PRAGMA_INVAL, line_, "invalid D pragma: " + w.value);
        } else if (std::string_view(found->name) == "line") {
            directive_line(found->name, words, i + 1);
        } else {
            pragma_directive(found->name, words, i + 1, directive_line_number);
        }
        ++line_;
        return;
    }
}

// #line N ["file" [flags]] and # N ...: the next line is numbered N (for the
// "#line" spelling DTrace numbers it N + 1), and errors name the file.
void Lexer::directive_line(const char *name, const std::vector<Token> &args, size_t first) {
    if (!is_kind(args, first, Tok::IntLit) || (first + 1 < args.size() && args[first + 1].kind != Tok::StringLit) ||
        (first + 2 < args.size() && args[first + 2].kind != Tok::IntLit))
        fail(Tag::D_PRAGMA_MALFORM, line_, std::string("malformed #") + name + " <line> [ [\"file\"] state ]");
    if (first + 1 < args.size()) {
        const std::string &file = args[first + 1].value;
        const bool main_input =
            file.compare(0, kMainInputPrefix.size(), kMainInputPrefix) == 0 || file == kStandardInput;
        file_ = main_input ? std::string() : file;
    }
    line_ = static_cast<int>(std::min<uint64_t>(args[first].int_value, INT_MAX - 1));
}

// DTrace sets a pragma's option as it reads it.
void Lexer::set_pragma_option(const std::string &arg) {
    if (!config_.set_option)
        return;
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    std::optional<std::string> value;
    if (eq != std::string::npos)
        value = arg.substr(eq + 1);
    if (std::optional<std::string> why = config_.set_option(name, value))
        fail(Tag::D_PRAGMA_OPTSET, line_,
             "failed to set option '" + name + "'" + (value ? " to '" + *value + "'" : std::string()) + ": " + *why);
}

void Lexer::pragma_directive(const std::string &name, const std::vector<Token> &args, size_t first, int line) {
    if (name == "ident")
        return;
    if (name == "error") {
        std::string text;
        for (size_t i = first; i < args.size(); ++i) {
            if (args[i].kind != Tok::IntLit)
                text += args[i].value + " ";
        }
        fail(Tag::D_PRAGERR, line_, "#error: " + text);
    }
    if (name == "option") {
        if (!is_kind(args, first, Tok::Ident))
            fail(Tag::D_PRAGMA_MALFORM, line_, "malformed #pragma option <option>=<val>");
        if (first + 1 < args.size())
            fail(Tag::D_PRAGMA_MALFORM, line_, "superfluous arguments specified for #pragma option");
        set_pragma_option(args[first].value);
    } else if (name == "attributes") {
        if (!is_kind(args, first, Tok::Ident) || !is_kind(args, first + 1, Tok::Ident))
            fail(Tag::D_PRAGMA_MALFORM, line_, "malformed #pragma attributes <attributes> <ident>");
        if (!is_attribute_string(args[first].value))
            fail(Tag::D_PRAGMA_INVAL, line_, "invalid attributes specified by #pragma attributes");
    } else if (name == "binding") {
        if (!is_kind(args, first, Tok::StringLit) || !is_kind(args, first + 1, Tok::Ident))
            fail(Tag::D_PRAGMA_MALFORM, line_, "malformed #pragma binding \"version\" <ident>");
        if (!is_version_string(args[first].value))
            fail(Tag::D_PRAGMA_INVAL, line_, "invalid version string specified by #pragma binding");
    } else if (name == "depends_on") {
        if (!is_kind(args, first, Tok::Ident) || !is_kind(args, first + 1, Tok::Ident))
            fail(Tag::D_PRAGMA_MALFORM, line_, "malformed #pragma depends_on <class> <name>");
        const std::string &cls = args[first].value;
        if (cls != "provider" && cls != "module" && cls != "library")
            fail(Tag::D_PRAGMA_INVAL, line_, "invalid class " + cls + " specified by #pragma depends_on");
    }
    LexedPragma p;
    p.pragma.name = name;
    p.pragma.line = line;
    for (size_t i = first; i < args.size(); ++i)
        p.pragma.args.push_back(args[i].kind == Tok::IntLit ? args[i].text : args[i].value);
    p.tokens_before = tokens_returned_;
    pragmas_.push_back(std::move(p));
}

} // namespace dtrace::compiler
