// parser_decl.cpp: declarations and the definitions D allows at the outer
// level of a program:
//   declaration := specifiers [ declarator { , declarator } ] ;
//   inline      := inline specifiers declarator = assignment ;
//   translator  := translator type-name < type-name name > { { member = assignment ; } } ;
//   provider    := provider name { { probe name ( params ) [ : ( params ) ] ; } } ;
// and C's declarators, named or abstract:
//   declarator  := { * { qualifier } } ( name | ( declarator ) ) { [ array ] | ( params ) }
//   array       := empty | constant-expression | parameter types (D's associative arrays)
// A declarator's steps are listed from the name outwards (ast.h): the
// nested declarator's, then the array and function suffixes, then the
// pointers from the innermost.
#include "compiler/parser_impl.h"

#include <cctype>
#include <type_traits>
#include <utility>

namespace dtrace::compiler {

namespace {

// DTRACE_PROVNAMELEN and DTRACE_NAMELEN: names must be shorter.
constexpr size_t kProviderNameLimit = 64;
constexpr size_t kProbeNameLimit = 64;

template <typename T> TopLevel make_item(TopLevel::Kind kind, std::unique_ptr<T> node) {
    TopLevel item;
    item.kind = kind;
    if constexpr (std::is_same_v<T, Declaration>)
        item.declaration = std::move(node);
    else if constexpr (std::is_same_v<T, Translator>)
        item.translator = std::move(node);
    else
        item.provider = std::move(node);
    return item;
}

// DTrace's strhyphenate(): "__" in a probe name stands for "-".
std::string hyphenate(const std::string &name) {
    std::string out;
    for (size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '_' && i + 1 < name.size() && name[i + 1] == '_') {
            out += '-';
            ++i;
        } else {
            out += name[i];
        }
    }
    return out;
}

} // namespace

void Parser::parse_declaration(ProgramAst &prog) {
    ScopeGuard scope(*this);
    auto decl = std::make_unique<Declaration>();
    decl->line = cur().line;
    decl->specifiers = parse_specifiers(SpecContext::Declaration);
    if (at(Tok::Semi)) {
        const Token semi = take();
        if (const std::optional<Token> &name = scopes_.back().spec_name) {
            Declarator d;
            d.name = name->value;
            d.line = name->line;
            decl->declarators.push_back(std::move(d));
            decl->initializers.push_back(nullptr);
        } else if (decl->specifiers.type.kind != TypeSpecifier::Kind::Struct &&
                   decl->specifiers.type.kind != TypeSpecifier::Kind::Union &&
                   decl->specifiers.type.kind != TypeSpecifier::Kind::Enum) {
            fail(Tag::D_DECL_USELESS, semi.line, "useless declaration");
        }
    } else {
        for (;;) {
            Declarator d = parse_declarator(DeclaratorKind::Named);
            // What dt_node_decl() checks once the declarator is complete.
            if (d.name.find('`') != std::string::npos)
                fail(Tag::D_DECL_SCOPE, cur().line,
                     "D scoping operator may not be used in a declaration name (" + d.name + ")");
            if (decl->specifiers.storage == StorageClass::Typedef)
                typedefs_.insert(d.name);
            decl->declarators.push_back(std::move(d));
            decl->initializers.push_back(nullptr);
            if (!at(Tok::Comma))
                break;
            take();
        }
        expect(Tok::Semi);
    }
    lexer_.set_mode(LexMode::Program);
    append(prog, make_item(TopLevel::Kind::Declaration, std::move(decl)));
}

void Parser::parse_inline(ProgramAst &prog) {
    auto decl = std::make_unique<Declaration>();
    decl->line = take().line;
    ScopeGuard scope(*this);
    decl->specifiers = parse_specifiers(SpecContext::Declaration);
    decl->declarators.push_back(parse_declarator(DeclaratorKind::Named));
    if (!at(Tok::Assign))
        syntax_error();
    {
        ScopeGuard value_scope(*this);
        take();
        decl->initializers.push_back(parse_assignment());
    }
    const Token semi = expect(Tok::Semi);
    if (decl->specifiers.storage != StorageClass::None)
        fail(Tag::D_DECL_BADCLASS, semi.line, "specified storage class not appropriate for inline declaration");
    decl->specifiers.storage = StorageClass::Inline;
    lexer_.set_mode(LexMode::Program);
    append(prog, make_item(TopLevel::Kind::Declaration, std::move(decl)));
}

void Parser::parse_translator(ProgramAst &prog) {
    auto xlator = std::make_unique<Translator>();
    xlator->line = take().line;
    xlator->output_type = parse_type_name();
    expect(Tok::Lt);
    xlator->input_type = parse_type_name();
    if (!at(Tok::Ident))
        syntax_error();
    xlator->input_name = take().value;
    expect(Tok::Gt);
    expect(Tok::LBrace);
    while (!at(Tok::RBrace)) {
        if (!at(Tok::Ident))
            syntax_error();
        std::string member = take().value;
        expect(Tok::Assign);
        ExprPtr value = parse_assignment();
        expect(Tok::Semi);
        xlator->members.emplace_back(std::move(member), std::move(value));
    }
    take();
    expect(Tok::Semi);
    lexer_.set_mode(LexMode::Program);
    append(prog, make_item(TopLevel::Kind::Translator, std::move(xlator)));
}

// A provider definition, with the name checks of dt_node_probe() and
// dt_node_provider() (made once each definition's ';' has been read).
void Parser::parse_provider(ProgramAst &prog) {
    auto provider = std::make_unique<ProviderDef>();
    provider->line = take().line;
    if (!at(Tok::Ident))
        syntax_error();
    provider->name = take().value;
    expect(Tok::LBrace);
    while (!at(Tok::RBrace)) {
        expect(Tok::KwProbe);
        if (!at(Tok::Ident))
            syntax_error();
        ProviderProbe probe;
        const Token name = take();
        probe.name = name.value;
        probe.line = name.line;
        expect(Tok::LParen);
        DeclaratorStep native = parse_function_suffix();
        probe.params = std::move(native.params);
        probe.params_varargs = native.varargs;
        if (at(Tok::Colon)) {
            take();
            probe.has_xlated = true;
            expect(Tok::LParen);
            DeclaratorStep xlated = parse_function_suffix();
            probe.xlated_params = std::move(xlated.params);
            probe.xlated_varargs = xlated.varargs;
        }
        const int semi_line = expect(Tok::Semi).line;
        const std::string shown = hyphenate("::" + probe.name);
        if (shown.find('`') != std::string::npos)
            fail(Tag::D_PROV_BADNAME, semi_line, "probe name may not contain scoping operator: " + shown);
        if (shown.size() - 2 >= kProbeNameLimit)
            fail(Tag::D_PROV_BADNAME, semi_line,
                 "probe name may not exceed " + std::to_string(kProbeNameLimit - 1) + " characters: " + shown);
        probe.shown_name = shown.substr(2);
        provider->probes.push_back(std::move(probe));
    }
    take();
    const int semi_line = expect(Tok::Semi).line;
    const std::string &pname = provider->name;
    if (pname.find('`') != std::string::npos)
        fail(Tag::D_PROV_BADNAME, semi_line, "provider name may not contain scoping operator: " + pname);
    if (pname.size() >= kProviderNameLimit)
        fail(Tag::D_PROV_BADNAME, semi_line,
             "provider name may not exceed " + std::to_string(kProviderNameLimit - 1) + " characters: " + pname);
    if (std::isdigit(static_cast<unsigned char>(pname.back())))
        fail(Tag::D_PROV_BADNAME, semi_line, "provider name may not end with a digit: " + pname);
    lexer_.set_mode(LexMode::Program);
    append(prog, make_item(TopLevel::Kind::Provider, std::move(provider)));
}

// The declared name; a second type name among the specifiers already took
// that role (DTrace's dt_decl_ident).
void Parser::declarator_name(Declarator &d, const Token &name) {
    if (scopes_.back().spec_name)
        fail(Tag::D_DECL_IDENT, name.line, "old-style declaration or incorrect type specified");
    d.name = name.value;
    d.line = name.line;
}

Declarator Parser::parse_declarator(DeclaratorKind kind) {
    DepthGuard depth(*this);
    Declarator d;
    d.line = cur().line;
    std::vector<DeclaratorStep> pointers;
    while (at(Tok::Star)) {
        take();
        DeclaratorStep p;
        p.kind = DeclaratorStep::Kind::Pointer;
        for (;;) {
            if (at(Tok::KwConst))
                p.is_const = true;
            else if (at(Tok::KwVolatile))
                p.is_volatile = true;
            else if (at(Tok::KwRestrict))
                p.is_restrict = true;
            else
                break;
            take();
        }
        pointers.push_back(std::move(p));
    }
    std::vector<DeclaratorStep> steps;
    if (kind != DeclaratorKind::Abstract && at(Tok::Ident)) {
        declarator_name(d, take());
    } else if (at(Tok::LParen)) {
        take();
        // In an abstract declarator '(' may also open a parameter list.
        if (kind == DeclaratorKind::Named || at(Tok::Star) || at(Tok::LParen) || at(Tok::LBracket) ||
            (kind == DeclaratorKind::Either && at(Tok::Ident))) {
            Declarator inner = parse_declarator(kind);
            expect(Tok::RParen);
            if (!inner.name.empty()) {
                d.name = std::move(inner.name);
                d.line = inner.line;
            }
            steps = std::move(inner.steps);
        } else {
            steps.push_back(parse_function_suffix());
        }
    } else if (kind == DeclaratorKind::Named) {
        syntax_error();
    }
    for (;;) {
        if (at(Tok::LBracket)) {
            steps.push_back(parse_array_suffix());
        } else if (at(Tok::LParen)) {
            take();
            steps.push_back(parse_function_suffix());
        } else {
            break;
        }
    }
    for (auto it = pointers.rbegin(); it != pointers.rend(); ++it)
        steps.push_back(std::move(*it));
    d.steps = std::move(steps);
    return d;
}

// [ ], [ constant-expression ] or D's [ type, ... ] (parameters).
DeclaratorStep Parser::parse_array_suffix() {
    take();
    ScopeGuard scope(*this);
    DeclaratorStep s;
    s.kind = DeclaratorStep::Kind::Array;
    if (at(Tok::Ellipsis) || starts_specifier(cur().kind, SpecContext::Parameter, true)) {
        std::vector<std::unique_ptr<Parameter>> keys;
        parse_parameter_list(keys, s.varargs);
        check_prototype(keys, s.varargs, PrototypeOf::Array, cur().line);
        for (std::unique_ptr<Parameter> &key : keys) {
            auto tn = std::make_unique<TypeName>();
            tn->line = key->specifiers.type.line;
            tn->specifiers = std::move(key->specifiers);
            tn->declarator = std::move(key->declarator);
            s.array_key_types.push_back(std::move(tn));
        }
    } else if (!at(Tok::RBracket)) {
        s.array_size = parse_constant_expression();
    }
    expect(Tok::RBracket);
    return s;
}

// ( [ parameters ] ), the '(' already taken.
DeclaratorStep Parser::parse_function_suffix() {
    ScopeGuard scope(*this);
    DeclaratorStep s;
    s.kind = DeclaratorStep::Kind::Function;
    if (!at(Tok::RParen)) {
        parse_parameter_list(s.params, s.varargs);
        check_prototype(s.params, s.varargs, PrototypeOf::Function, cur().line);
    }
    expect(Tok::RParen);
    return s;
}

namespace {

bool is_void_parameter(const Parameter &p) {
    const TypeSpecifier &t = p.specifiers.type;
    return t.kind == TypeSpecifier::Kind::Builtin && t.words == std::vector<std::string>{"void"} &&
           p.declarator.steps.empty();
}

} // namespace

// A function prototype may end in ..., have void as its sole (unnamed)
// parameter, and leave parameters unnamed; an associative array's key list
// may do none of the first two. Names must be distinct.
void Parser::check_prototype(const std::vector<std::unique_ptr<Parameter>> &params, bool varargs, PrototypeOf of,
                             int end_line) const {
    const bool function = of == PrototypeOf::Function;
    const std::string kind = function ? "function" : "array";
    size_t voids = 0;
    for (size_t i = 0; i < params.size(); i++) {
        const Parameter &p = *params[i];
        const int line = p.specifiers.type.line;
        const std::string &name = p.declarator.name;
        const std::string number = std::to_string(i + 1);
        const bool is_void = is_void_parameter(p);
        voids += is_void;
        if (is_void && !function)
            fail(Tag::D_DECL_PROTO_TYPE, line,
                 kind + " prototype may not use parameter of type void: " + (name.empty() ? "(anonymous)" : name) +
                     ", parameter #" + number);
        if (is_void && !name.empty())
            fail(Tag::D_DECL_PROTO_NAME, line, "void parameter may not have a name: " + name);
        for (size_t j = 0; j < i && !name.empty(); j++)
            if (params[j]->declarator.name == name)
                fail(Tag::D_DECL_PROTO_FORM, line,
                     "parameter is already declared in " + kind + " prototype: " + name + ", parameter #" + number);
    }
    if (varargs && !function)
        fail(Tag::D_DECL_PROTO_VARARGS, end_line, kind + " prototype may not use a variable-length argument list");
    if (voids != 0 && (params.size() > 1 || varargs)) // `void, ...` is two parameters to DTrace
        fail(Tag::D_DECL_PROTO_VOID, end_line, "void must be sole parameter");
}

void Parser::parse_parameter_list(std::vector<std::unique_ptr<Parameter>> &params, bool &varargs) {
    if (at(Tok::Ellipsis)) {
        take();
        varargs = true;
        return;
    }
    for (;;) {
        params.push_back(parse_parameter());
        if (!at(Tok::Comma))
            return;
        take();
        if (at(Tok::Ellipsis)) {
            take();
            varargs = true;
            return;
        }
    }
}

std::unique_ptr<Parameter> Parser::parse_parameter() {
    ScopeGuard scope(*this);
    auto p = std::make_unique<Parameter>();
    p->specifiers = parse_specifiers(SpecContext::Parameter);
    if (at(Tok::Star) || at(Tok::LParen) || at(Tok::LBracket) || at(Tok::Ident))
        p->declarator = parse_declarator(DeclaratorKind::Either);
    if (const std::optional<Token> &name = scopes_.back().spec_name; name && p->declarator.name.empty()) {
        p->declarator.name = name->value;
        p->declarator.line = name->line;
    }
    if (p->specifiers.storage != StorageClass::None && p->specifiers.storage != StorageClass::Register)
        fail(Tag::D_DECL_PARMCLASS, cur().line,
             "inappropriate storage class for function or associative array parameter");
    return p;
}

std::unique_ptr<TypeName> Parser::parse_type_name() {
    ScopeGuard scope(*this);
    auto tn = std::make_unique<TypeName>();
    tn->line = cur().line;
    tn->specifiers = parse_specifiers(SpecContext::TypeName);
    tn->declarator = parse_declarator(DeclaratorKind::Abstract);
    return tn;
}

} // namespace dtrace::compiler
