// parser.cpp: parse_program(), the token stream, and the program's outer
// structure: probe clauses with their predicates and statements, and the
// placement of pragmas among the program's items.
//
// Grammar (DTrace's dt_grammar.y):
//   program    := { clause | declaration | inline | translator | provider }
//   clause     := probe { , probe } [ / expression / ] [ { statements } ]
//   statements := { ; | expression ; | if } [ expression ]
//   if         := if ( expression ) stmt-or-block [ else stmt-or-block ]
//   stmt-or-block := ; | expression ; | if | { statements }
#include "compiler/parser_impl.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>

namespace dtrace::compiler {

namespace {

// Bound on nesting (each level of parentheses costs a few levels): it keeps
// the parse's stack, and the depth of the trees later passes walk, small.
constexpr int kMaxDepth = 1000;

// The typedefs DTrace defines in its "D" type container (LP64), and the
// network address ones of the standard library (standard_library.h).
constexpr std::string_view kBuiltinTypedefs[] = {
    "gid_t",        "id_t",      "in_addr_t", "int16_t",       "int32_t",   "int64_t",  "int8_t",
    "intptr_t",     "ipaddr_t",  "pid_t",     "processorid_t", "ptrdiff_t", "size_t",   "ssize_t",
    "u_longlong_t", "uchar_t",   "uid_t",     "uint16_t",      "uint32_t",  "uint64_t", "uint8_t",
    "uint_t",       "uintptr_t", "ulong_t",   "ushort_t",
};
static_assert(std::is_sorted(std::begin(kBuiltinTypedefs), std::end(kBuiltinTypedefs)));

} // namespace

ParseResult parse_program(std::string_view source, const ParseOptions &opts) {
    ParseResult result;
    Parser parser(source, opts);
    try {
        result.program = parser.parse();
    } catch (const FrontEndError &e) {
        result.error = e.diag;
    }
    const std::set<int> &refs = parser.referenced_args();
    result.referenced_macro_args.assign(refs.begin(), refs.end());
    return result;
}

Parser::Parser(std::string_view source, const ParseOptions &opts)
    : opts_(opts),
      lexer_(source, LexerConfig{opts.macro_args, opts.macro_vars, opts.default_args, !opts.from_file, opts.set_option},
             *this) {}

bool Parser::is_type_name(std::string_view name) const {
    if (typedefs_.count(name) != 0 ||
        std::binary_search(std::begin(kBuiltinTypedefs), std::end(kBuiltinTypedefs), name))
        return true;
    return opts_.is_type_name && opts_.is_type_name(name);
}

bool Parser::declaration_has_type() const {
    return !scopes_.empty() && scopes_.back().has_type;
}

void Parser::DepthGuard::deeper() {
    ++levels_;
    if (++p_.depth_ > kMaxDepth)
        p_.nesting_too_deep();
}

void Parser::nesting_too_deep() {
    const Token &t = cur();
    fail(Tag::D_SYNTAX, t.line, "nesting too deep near \"" + t.text + "\"");
}

const Token &Parser::cur() {
    if (!have_cur_) {
        cur_ = lexer_.next();
        have_cur_ = true;
    }
    return cur_;
}

Token Parser::take() {
    cur();
    have_cur_ = false;
    ++consumed_;
    last_line_ = cur_.line;
    return std::move(cur_);
}

Token Parser::expect(Tok kind) {
    if (!at(kind))
        syntax_error();
    return take();
}

void Parser::syntax_error() {
    lexer_.syntax_error(cur());
}

void Parser::fail(Tag tag, int line, std::string message) const {
    lexer_.fail(tag, line, std::move(message));
}

ProgramAst Parser::parse() {
    ProgramAst prog;
    while (!at(Tok::End))
        parse_external_declaration(prog);
    flush_pragmas(prog, std::numeric_limits<size_t>::max());
    prog.file_tag = lexer_.file_tag();
    check_translation_unit(prog, cur().line);
    return prog;
}

// The checks DTrace makes once the whole input is parsed, reported at its
// end: the last macro argument must be referenced (unless -x argref; only
// the last is checked, as DTrace does), and there must be something besides
// pragmas (unless -x empty: DTrace handles pragmas as it reads them).
void Parser::check_translation_unit(const ProgramAst &prog, int end_line) const {
    size_t argc = opts_.macro_args.size();
    if (argc > 1 && !opts_.allow_unreferenced_args && referenced_args().count(int(argc - 1)) == 0)
        fail(Tag::D_MACRO_UNUSED, end_line,
             "extraneous argument '" + opts_.macro_args[argc - 1] + "' ($" + std::to_string(argc - 1) +
                 " is not referenced)");
    bool empty = std::all_of(prog.items.begin(), prog.items.end(),
                             [](const TopLevel &item) { return item.kind == TopLevel::Kind::Pragma; });
    if (empty && !opts_.allow_empty)
        fail(Tag::D_EMPTY, end_line, "empty D program translation unit");
}

void Parser::parse_external_declaration(ProgramAst &prog) {
    switch (cur().kind) {
    case Tok::ProbeSpec:
    case Tok::IntLit:
        parse_clause(prog);
        return;
    case Tok::KwInline:
        parse_inline(prog);
        return;
    case Tok::KwTranslator:
        parse_translator(prog);
        return;
    case Tok::KwProvider:
        parse_provider(prog);
        return;
    default:
        if (!starts_specifier(cur().kind, SpecContext::Declaration, true))
            syntax_error();
        parse_declaration(prog);
        return;
    }
}

// Items are appended when their last token has been taken; pragmas the
// lexer read before that token come first, in the order they were read.
void Parser::append(ProgramAst &prog, TopLevel item) {
    flush_pragmas(prog, consumed_);
    prog.items.push_back(std::move(item));
}

void Parser::flush_pragmas(ProgramAst &prog, size_t before_token) {
    std::vector<LexedPragma> &pending = lexer_.pragmas();
    for (; pragmas_placed_ < pending.size() && pending[pragmas_placed_].tokens_before < before_token;
         ++pragmas_placed_) {
        TopLevel item;
        item.kind = TopLevel::Kind::Pragma;
        item.pragma = std::make_unique<Pragma>(std::move(pending[pragmas_placed_].pragma));
        prog.items.push_back(std::move(item));
    }
}

void Parser::parse_clause(ProgramAst &prog) {
    auto clause = std::make_unique<ProbeClause>();
    clause->line = cur().line;
    for (;;) {
        if (!at(Tok::ProbeSpec) && !at(Tok::IntLit))
            syntax_error();
        clause->probes.push_back(probe_specifier(take()));
        if (!at(Tok::Comma))
            break;
        take();
    }
    lexer_.set_mode(LexMode::Expr);
    if (at(Tok::Slash)) {
        take();
        clause->predicate = parse_expression();
        if (!at(Tok::EndPred))
            syntax_error();
        take();
        if (!at(Tok::LBrace))
            fail(Tag::D_SYNTAX, clause->predicate->line,
                 "expected actions { } following probe description and predicate");
    }
    if (at(Tok::LBrace)) {
        take();
        clause->has_body = true;
        clause->statements = parse_statement_list();
        take(); // the '}' that ended the statements
        lexer_.set_mode(LexMode::Program);
    } else {
        if (opts_.from_file)
            fail(Tag::D_SYNTAX, clause->line, "expected predicate and/or actions following probe description");
        lexer_.set_mode(LexMode::Program);
    }
    TopLevel item;
    item.kind = TopLevel::Kind::Clause;
    item.clause = std::move(clause);
    append(prog, std::move(item));
}

StmtPtr Parser::make_stmt(Stmt::Kind kind, int line) {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->line = line;
    return s;
}

// Statements up to the closing '}' (left for the caller). The last
// statement may omit its ';'. Statement lines are DTrace's: that of the
// ';' (or '}') that ends them.
std::vector<StmtPtr> Parser::parse_statement_list() {
    std::vector<StmtPtr> out;
    while (!at(Tok::RBrace)) {
        if (at(Tok::Semi)) {
            out.push_back(make_stmt(Stmt::Kind::Empty, take().line));
            continue;
        }
        if (at(Tok::KwIf)) {
            out.push_back(parse_if());
            continue;
        }
        ExprPtr e = parse_expression();
        if (!at(Tok::Semi) && !at(Tok::RBrace))
            syntax_error();
        StmtPtr s = make_stmt(Stmt::Kind::Expr, cur().line);
        s->expr = std::move(e);
        out.push_back(std::move(s));
        if (at(Tok::Semi))
            take();
    }
    return out;
}

StmtPtr Parser::parse_statement_or_block() {
    if (at(Tok::LBrace)) {
        StmtPtr block = make_stmt(Stmt::Kind::Block, take().line);
        block->body = parse_statement_list();
        take(); // '}'
        return block;
    }
    if (at(Tok::Semi))
        return make_stmt(Stmt::Kind::Empty, take().line);
    if (at(Tok::KwIf))
        return parse_if();
    ExprPtr e = parse_expression();
    StmtPtr s = make_stmt(Stmt::Kind::Expr, expect(Tok::Semi).line);
    s->expr = std::move(e);
    return s;
}

StmtPtr Parser::parse_if() {
    DepthGuard depth(*this);
    take(); // if
    expect(Tok::LParen);
    ExprPtr cond = parse_expression();
    expect(Tok::RParen);
    StmtPtr s = make_stmt(Stmt::Kind::If, 0);
    s->expr = std::move(cond);
    s->body.push_back(parse_statement_or_block());
    if (at(Tok::KwElse)) {
        take();
        s->body.push_back(parse_statement_or_block());
        s->line = last_line_;
    } else {
        s->line = cur().line;
    }
    return s;
}

} // namespace dtrace::compiler
