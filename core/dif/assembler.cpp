// assembler.cpp: two passes over the text. The first sorts lines into
// sections, reads the tables, the return type and the labels; the second
// encodes the instructions, which may then refer to anything in the text.
#include "dif/assembler.h"

#include "dif/asm_lexer.h"
#include "dif/builtins.h"
#include "dif/opcodes.h"
#include "dif/subroutines.h"
#include "dif/type_text.h"

#include <algorithm>
#include <map>
#include <optional>

namespace dtrace::dif {

namespace {

using namespace assembly;

constexpr std::string_view kCodeHeader = "OFF OPCODE INSTRUCTION";
constexpr std::string_view kVariablesHeader = "NAME ID KND SCP FLAG TYPE";
constexpr std::string_view kIntegersHeader = "IDX INTEGER";
constexpr std::string_view kStringsHeader = "OFF STRING";
constexpr std::string_view kDifoWord = "DIFO";
constexpr std::string_view kReturnsWord = "returns";
constexpr std::string_view kWordDirective = ".word";
constexpr std::string_view kIntegerRef = "DT_INTEGER";
constexpr std::string_view kStringRef = "DT_STRING";
constexpr std::string_view kVariableRef = "DT_VAR";
constexpr std::string_view kSubroutineRef = "DIF_SUBR";
constexpr size_t kListingWordDigits = 16;
constexpr uint64_t kMaxImmediate = UINT32_MAX;

enum class Section { Code, Variables, Integers, Strings };

struct CodeLine {
    int line;
    std::vector<Token> tokens;
};

std::vector<std::string_view> split_words(std::string_view s) {
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            i++;
        if (i > start)
            words.push_back(s.substr(start, i - start));
    }
    return words;
}

std::string join(const std::vector<std::string_view> &words, size_t from) {
    std::string out;
    for (size_t i = from; i < words.size(); i++)
        out.append(i > from ? " " : "").append(words[i]);
    return out;
}

// Text before a comment ('!' or '#' outside a string literal).
std::string_view strip_comment(std::string_view line) {
    bool quoted = false;
    for (size_t i = 0; i < line.size(); i++) {
        char c = line[i];
        if (c == '\\' && quoted)
            i++;
        else if (c == '"')
            quoted = !quoted;
        else if (!quoted && (c == '!' || c == '#'))
            return line.substr(0, i);
    }
    return line;
}

bool is_hex_digit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Drops a listing's "NN: <16 hex digits>" columns.
std::string_view strip_listing_prefix(std::string_view line) {
    size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
        i++;
    size_t digits = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9')
        i++;
    if (i == digits || i >= line.size() || line[i] != ':')
        return line;
    size_t word = ++i;
    while (word < line.size() && line[word] == ' ')
        word++;
    size_t end = word;
    while (end < line.size() && is_hex_digit(line[end]))
        end++;
    if (end - word != kListingWordDigits || (end < line.size() && line[end] != ' ' && line[end] != '\t'))
        return line;
    return line.substr(end);
}

bool matches_header(const std::vector<std::string_view> &words, std::string_view header) {
    return join(words, 0) == header;
}

// Reads the operands of one instruction; the first error sticks.
class Operands {
  public:
    Operands(const std::vector<Token> &tokens, size_t start) : tokens_(tokens), at_(start) {}

    const std::string &error() const { return error_; }
    bool failed() const { return !error_.empty(); }
    void fail(std::string message) {
        if (error_.empty())
            error_ = std::move(message);
    }

    const Token *peek() const { return at_ < tokens_.size() ? &tokens_[at_] : nullptr; }
    bool at_punct(char c) const { return peek() && peek()->kind == Tok::Punct && peek()->text[0] == c; }
    bool done() const { return at_ >= tokens_.size(); }

    void punct(char c) {
        if (at_punct(c))
            at_++;
        else
            fail(std::string("expected '") + c + "'");
    }
    void comma() { punct(','); }
    void end() {
        if (!done() && !failed())
            fail("unexpected '" + tokens_[at_].text + "'");
    }

    uint8_t reg() {
        const Token *t = peek();
        if (!t || t->kind != Tok::Register) {
            fail("expected a register");
            return 0;
        }
        at_++;
        return static_cast<uint8_t>(t->reg);
    }

    std::optional<std::string> word() {
        const Token *t = peek();
        if (!t || t->kind != Tok::Word)
            return std::nullopt;
        at_++;
        return t->text;
    }

    std::optional<std::string> string() {
        const Token *t = peek();
        if (!t || t->kind != Tok::String)
            return std::nullopt;
        at_++;
        return t->text;
    }

    // A number, optionally negative.
    uint64_t number() {
        bool negative = at_punct('-');
        if (negative)
            at_++;
        auto w = word();
        auto v = w ? parse_number((negative ? "-" : "") + *w, true) : std::nullopt;
        if (!v) {
            fail("expected a number");
            return 0;
        }
        return *v;
    }

    uint32_t immediate() {
        uint64_t v = number();
        if (v > kMaxImmediate)
            fail("immediate " + std::to_string(v) + " does not fit in 32 bits");
        return static_cast<uint32_t>(v);
    }

    // NAME[n] or NAME(n) after NAME was read.
    uint32_t bracketed(char open, char close) {
        punct(open);
        uint32_t v = immediate();
        punct(close);
        return v;
    }

  private:
    const std::vector<Token> &tokens_;
    size_t at_;
    std::string error_;
};

class Assembler {
  public:
    AsmResult run(std::string_view text) {
        int line = 0;
        for (size_t start = 0; start <= text.size();) {
            size_t nl = text.find('\n', start);
            std::string_view l = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
            scan(++line, l);
            if (nl == std::string_view::npos)
                break;
            start = nl + 1;
        }
        for (const CodeLine &c : code_)
            encode(c);
        std::stable_sort(result_.errors.begin(), result_.errors.end(),
                         [](const AsmError &a, const AsmError &b) { return a.line < b.line; });
        return std::move(result_);
    }

  private:
    void error(int line, std::string message) { result_.errors.push_back({line, std::move(message)}); }
    Difo &difo() { return result_.difo; }

    // ---- pass 1 ----

    void scan(int line, std::string_view raw) {
        std::string_view text = strip_comment(strip_listing_prefix(raw));
        std::vector<std::string_view> words = split_words(text);
        if (words.empty())
            return;
        if (matches_header(words, kCodeHeader)) {
            section_ = Section::Code;
        } else if (matches_header(words, kVariablesHeader)) {
            section_ = Section::Variables;
        } else if (matches_header(words, kIntegersHeader)) {
            section_ = Section::Integers;
        } else if (matches_header(words, kStringsHeader)) {
            section_ = Section::Strings;
        } else if (words[0] == kDifoWord) {
            return_type(line, words);
        } else if (section_ == Section::Variables) {
            variable_row(line, words);
        } else {
            LexResult lex = tokenize(text);
            if (!lex.error.empty())
                error(line, lex.error);
            else if (section_ == Section::Integers)
                integer_row(line, lex.tokens);
            else if (section_ == Section::Strings)
                string_row(line, lex.tokens);
            else
                code_line(line, std::move(lex.tokens));
        }
    }

    void return_type(int line, const std::vector<std::string_view> &words) {
        size_t at = 1;
        while (at < words.size() && words[at] != kReturnsWord)
            at++;
        auto type = parse_type(join(words, at + 1));
        if (at == words.size() || !type)
            error(line, "expected 'DIFO returns <type>'");
        else
            difo().rtype = *type;
    }

    void variable_row(int line, const std::vector<std::string_view> &words) {
        constexpr size_t kFixedColumns = 4; // name, id, kind, scope
        if (words.size() <= kFixedColumns) {
            error(line, "expected 'name id kind scope [flags] type'");
            return;
        }
        Variable v;
        v.name = std::string(words[0]);
        auto id = parse_hex(words[1]);
        if (!id || *id > UINT32_MAX)
            error(line, "bad variable id '" + std::string(words[1]) + "'");
        v.id = static_cast<uint32_t>(id.value_or(0));
        if (words[2] == "arr" || words[2] == "scl")
            v.is_array = words[2] == "arr";
        else
            error(line, "variable kind must be 'scl' or 'arr'");
        if (words[3] == "glb")
            v.scope = Scope::Global;
        else if (words[3] == "tls")
            v.scope = Scope::ThreadLocal;
        else if (words[3] == "loc")
            v.scope = Scope::ClauseLocal;
        else
            error(line, "variable scope must be 'glb', 'tls' or 'loc'");
        size_t type_at = kFixedColumns;
        if (words[type_at] == "r" || words[type_at] == "w" || words[type_at] == "r/w")
            type_at++; // flags are derived from the code, not read
        auto type = parse_type(join(words, type_at));
        if (!type)
            error(line, "bad type '" + join(words, type_at) + "'");
        v.type = type.value_or(TypeDesc{});
        difo().vars.push_back(std::move(v));
    }

    void integer_row(int line, const std::vector<Token> &tokens) {
        Operands in(tokens, 0);
        uint64_t index = in.number();
        uint64_t value = in.number();
        in.end();
        if (!in.failed() && index != difo().inttab.size())
            in.fail("integer table entries must be numbered 0, 1, 2 ...");
        if (in.failed())
            error(line, in.error());
        else
            difo().inttab.push_back(value);
    }

    void string_row(int line, const std::vector<Token> &tokens) {
        Operands in(tokens, 0);
        uint64_t offset = in.number();
        auto s = in.string();
        if (!s)
            in.fail("expected a string literal");
        in.end();
        if (!in.failed() && offset != difo().strtab.size())
            in.fail("string table offsets must follow the strings' sizes");
        if (!in.failed() && s->find('\0') != std::string::npos)
            in.fail("string contains a NUL");
        if (in.failed()) {
            error(line, in.error());
            return;
        }
        difo().strtab.append(*s).push_back('\0');
    }

    void code_line(int line, std::vector<Token> tokens) {
        size_t start = 0;
        if (tokens.size() >= 2 && tokens[0].kind == Tok::Word && tokens[1].kind == Tok::Punct &&
            tokens[1].text == ":") {
            const std::string &label = tokens[0].text;
            if (label[0] >= '0' && label[0] <= '9')
                error(line, "label '" + label + "' must not start with a digit");
            else if (!labels_.emplace(label, static_cast<uint32_t>(code_.size())).second)
                error(line, "label '" + label + "' defined twice");
            start = 2;
        }
        if (start < tokens.size())
            code_.push_back({line, std::vector<Token>(tokens.begin() + static_cast<long>(start), tokens.end())});
    }

    // ---- pass 2 ----

    void encode(const CodeLine &c) {
        Operands in(c.tokens, 1);
        const std::string &mnemonic = c.tokens[0].text;
        uint64_t word = 0;
        if (mnemonic == kWordDirective) {
            word = in.number();
        } else if (const OpInfo *info = op_by_mnemonic(mnemonic)) {
            word = encode_instruction(in, *info);
        } else {
            in.fail("unknown mnemonic '" + mnemonic + "'");
        }
        in.end();
        if (in.failed())
            error(c.line, in.error());
        difo().code.push_back(word);
    }

    uint64_t encode_instruction(Operands &in, const OpInfo &info) {
        Instr i{info.op, 0, 0, 0, 0};
        switch (info.format) {
        case Format::None:
            break;
        case Format::Binary:
        case Format::Copy:
            i.rd = in.reg(), in.comma(), i.r1 = in.reg(), in.comma(), i.r2 = in.reg();
            break;
        case Format::Unary:
            i.rd = in.reg(), in.comma(), i.r1 = in.reg();
            break;
        case Format::Setx:
            i.rd = in.reg(), in.comma(), i.imm = integer_operand(in);
            break;
        case Format::Sets:
            i.rd = in.reg(), in.comma(), i.imm = string_operand(in);
            break;
        case Format::Extend:
            i.rd = in.reg(), in.comma(), i.r1 = in.reg(), in.comma(), i.imm = in.immediate();
            break;
        case Format::Branch:
            i.imm = target(in);
            break;
        case Format::CondBranch:
            i.r1 = in.reg(), in.comma(), i.imm = target(in);
            break;
        case Format::Ret:
        case Format::PushString:
            i.r1 = in.reg();
            break;
        case Format::Load:
            i.rd = in.reg(), in.comma(), memory_operand(in, i.r1, i.imm);
            break;
        case Format::Store:
            memory_operand(in, i.rd, i.imm), in.comma(), i.r1 = in.reg();
            break;
        case Format::LoadVar:
            i.rd = in.reg(), in.comma(), i.imm = variable_operand(in, *info.var);
            break;
        case Format::StoreVar:
            i.imm = variable_operand(in, *info.var), in.comma(), i.r1 = in.reg();
            break;
        case Format::LoadArray:
            i.rd = in.reg(), in.comma(), i.imm = variable_operand(in, *info.var);
            if (in.at_punct(','))
                in.comma(), i.r1 = in.reg();
            break;
        case Format::PushValue:
            i.r1 = in.reg(), in.comma(), i.imm = in.immediate();
            break;
        case Format::PushRef:
            i.r1 = in.reg(), in.comma(), i.r2 = in.reg();
            break;
        case Format::Call:
            i.rd = in.reg(), in.comma(), i.imm = subroutine_operand(in);
            break;
        }
        return dif::encode(i);
    }

    uint32_t integer_operand(Operands &in) {
        const Token *t = in.peek();
        if (t && t->kind == Tok::Word && t->text == kIntegerRef) {
            in.word();
            return in.bracketed('[', ']');
        }
        uint64_t v = in.number();
        auto &tab = difo().inttab;
        for (size_t k = 0; k < tab.size(); k++)
            if (tab[k] == v)
                return static_cast<uint32_t>(k);
        tab.push_back(v);
        return static_cast<uint32_t>(tab.size() - 1);
    }

    uint32_t string_operand(Operands &in) {
        const Token *t = in.peek();
        if (t && t->kind == Tok::Word && t->text == kStringRef) {
            in.word();
            return in.bracketed('[', ']');
        }
        auto s = in.string();
        if (!s) {
            in.fail("expected a string literal or DT_STRING[offset]");
            return 0;
        }
        if (s->find('\0') != std::string::npos) {
            in.fail("string contains a NUL");
            return 0;
        }
        std::string &tab = difo().strtab;
        for (size_t off = 0; off < tab.size();) {
            size_t nul = tab.find('\0', off);
            if (nul == std::string::npos)
                break;
            if (std::string_view(tab).substr(off, nul - off) == *s)
                return static_cast<uint32_t>(off);
            off = nul + 1;
        }
        uint32_t off = static_cast<uint32_t>(tab.size());
        tab.append(*s).push_back('\0');
        return off;
    }

    uint32_t target(Operands &in) {
        const Token *t = in.peek();
        if (t && t->kind == Tok::Word && !(t->text[0] >= '0' && t->text[0] <= '9')) {
            auto it = labels_.find(t->text);
            in.word();
            if (it == labels_.end()) {
                in.fail("undefined label '" + t->text + "'");
                return 0;
            }
            return it->second;
        }
        return in.immediate();
    }

    // [%rN], [%rN+disp] or [%rN-disp]; the displacement is a signed 32-bit number.
    void memory_operand(Operands &in, uint8_t &base, uint32_t &disp) {
        in.punct('[');
        base = in.reg();
        int64_t d = 0;
        if (in.at_punct('+') || in.at_punct('-')) {
            bool minus = in.at_punct('-');
            in.punct(minus ? '-' : '+');
            d = static_cast<int64_t>(in.number());
            if (minus)
                d = -d;
        }
        in.punct(']');
        if (d < INT32_MIN || d > INT32_MAX)
            in.fail("displacement does not fit in 32 bits");
        disp = static_cast<uint32_t>(static_cast<int32_t>(d));
    }

    uint32_t variable_operand(Operands &in, const VarAccess &access) {
        auto name = in.word();
        if (!name) {
            in.fail("expected a variable");
            return 0;
        }
        if (*name == kVariableRef)
            return in.bracketed('(', ')');
        if (access.scope == Scope::Global)
            if (auto b = builtin_by_name(*name))
                return static_cast<uint32_t>(*b);
        for (const Variable &v : difo().vars)
            if (v.scope == access.scope && v.name == *name)
                return v.id;
        in.fail("undeclared variable '" + *name + "'");
        return 0;
    }

    uint32_t subroutine_operand(Operands &in) {
        auto name = in.word();
        if (!name) {
            in.fail("expected a subroutine");
            return 0;
        }
        if (*name == kSubroutineRef)
            return in.bracketed('(', ')');
        if (auto s = subr_by_name(*name))
            return static_cast<uint32_t>(*s);
        in.fail("unknown subroutine '" + *name + "'");
        return 0;
    }

    AsmResult result_;
    Section section_ = Section::Code;
    std::vector<CodeLine> code_;
    std::map<std::string, uint32_t, std::less<>> labels_;
};

} // namespace

std::string AsmError::to_string() const {
    return "line " + std::to_string(line) + ": " + message;
}

AsmResult assemble(std::string_view text) {
    return Assembler().run(text);
}

} // namespace dtrace::dif
