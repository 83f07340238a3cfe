// parser_specs.cpp: declaration specifiers (storage classes, type keywords,
// qualifiers, type names, struct/union/enum specifiers), with the checks
// DTrace makes as it reads them (dt_decl.c): one storage class, one named
// type, long at most twice, short/signed/unsigned once, and which
// attributes may go with which type.
//
// The declaration scope (DeclScope) records when a specifier has named the
// type, because from then on the lexer reads identifiers as the declared
// name even if they name types (`typedef int foo_t; struct s { foo_t foo_t; };`).
#include "compiler/parser_impl.h"

#include <utility>

namespace dtrace::compiler {

namespace {

StorageClass storage_class(Tok kind) {
    switch (kind) {
    case Tok::KwAuto:
        return StorageClass::Auto;
    case Tok::KwRegister:
        return StorageClass::Register;
    case Tok::KwStatic:
        return StorageClass::Static;
    case Tok::KwExtern:
        return StorageClass::Extern;
    case Tok::KwTypedef:
        return StorageClass::Typedef;
    case Tok::KwSelf:
        return StorageClass::Self;
    case Tok::KwThis:
        return StorageClass::This;
    default:
        return StorageClass::None;
    }
}

// `name` or `mod`name.
void set_type_name(TypeSpecifier &ts, const std::string &spelled) {
    const size_t mark = spelled.rfind('`');
    if (mark == std::string::npos) {
        ts.name = spelled;
    } else {
        ts.module = spelled.substr(0, mark);
        ts.name = spelled.substr(mark + 1);
    }
}

} // namespace

// The tokens that can begin a type name (a cast, sizeof, xlate, a declaration).
bool starts_type_name(Tok kind) {
    switch (kind) {
    case Tok::KwVoid:
    case Tok::KwChar:
    case Tok::KwShort:
    case Tok::KwInt:
    case Tok::KwLong:
    case Tok::KwFloat:
    case Tok::KwDouble:
    case Tok::KwSigned:
    case Tok::KwUnsigned:
    case Tok::KwUserland:
    case Tok::KwString:
    case Tok::TypeName:
    case Tok::KwStruct:
    case Tok::KwUnion:
    case Tok::KwEnum:
    case Tok::KwConst:
    case Tok::KwRestrict:
    case Tok::KwVolatile:
        return true;
    default:
        return false;
    }
}

bool Parser::starts_specifier(Tok kind, SpecContext context, bool first) const {
    switch (kind) {
    case Tok::KwAuto:
    case Tok::KwRegister:
    case Tok::KwStatic:
    case Tok::KwExtern:
    case Tok::KwTypedef:
        return context != SpecContext::TypeName;
    case Tok::KwSelf:
    case Tok::KwThis:
        return context == SpecContext::Declaration || (context == SpecContext::Parameter && !first);
    default:
        return starts_type_name(kind);
    }
}

DeclSpecifiers Parser::parse_specifiers(SpecContext context) {
    DeclSpecifiers out;
    SpecState state;
    bool first = true;
    out.type.line = cur().line;
    while (starts_specifier(cur().kind, context, first)) {
        first = false;
        const Tok kind = cur().kind;
        switch (kind) {
        case Tok::KwStruct:
        case Tok::KwUnion:
            out.type = parse_struct_or_union(state);
            continue;
        case Tok::KwEnum:
            out.type = parse_enum(state);
            continue;
        default:
            break;
        }
        const Token t = take();
        switch (kind) {
        case Tok::KwVoid:
        case Tok::KwChar:
        case Tok::KwInt:
        case Tok::KwFloat:
        case Tok::KwDouble:
            out.type.words.push_back(t.text);
            spec_named(state,
                       kind == Tok::KwFloat || kind == Tok::KwDouble ? SpecState::Kind::Float
                                                                     : SpecState::Kind::Integer,
                       t.text, t.line);
            break;
        case Tok::KwShort:
        case Tok::KwLong:
        case Tok::KwSigned:
        case Tok::KwUnsigned:
            out.type.words.push_back(t.text);
            spec_attribute(state, kind, t.line);
            break;
        case Tok::KwUserland:
            out.is_userland = true;
            spec_attribute(state, kind, t.line);
            break;
        case Tok::KwConst:
        case Tok::KwVolatile:
        case Tok::KwRestrict:
            out.is_const = out.is_const || kind == Tok::KwConst;
            out.is_volatile = out.is_volatile || kind == Tok::KwVolatile;
            out.is_restrict = out.is_restrict || kind == Tok::KwRestrict;
            spec_attribute(state, kind, t.line);
            break;
        case Tok::KwString:
        case Tok::TypeName: {
            const std::string name = kind == Tok::KwString ? t.text : t.value;
            // A type name after the type has been named is the declared
            // name, except in a typedef (dt_decl_spec).
            if (!state.name.empty()) {
                if (out.storage == StorageClass::Typedef)
                    fail(Tag::D_DECL_IDRED, t.line, "identifier redeclared: " + name);
                if (scopes_.back().spec_name)
                    fail(Tag::D_DECL_IDENT, t.line, "old-style declaration or incorrect type specified");
                scopes_.back().spec_name = t;
                scopes_.back().spec_name->value = name;
                break;
            }
            spec_named(state, SpecState::Kind::Typedef, name, t.line);
            out.type.kind = TypeSpecifier::Kind::TypedefName;
            set_type_name(out.type, name);
            break;
        }
        default: // storage classes
            if (out.storage != StorageClass::None)
                fail(Tag::D_DECL_CLASS, t.line, "only one storage class allowed in a declaration");
            out.storage = storage_class(kind);
            break;
        }
    }
    if (first)
        syntax_error();
    return out;
}

void Parser::spec_named(SpecState &state, SpecState::Kind kind, const std::string &name, int line) {
    if (state.started && (!state.name.empty() || state.kind != SpecState::Kind::Unknown))
        fail(Tag::D_DECL_COMBO, line, "invalid type combination");
    state.started = true;
    state.kind = kind;
    state.name = name;
    scopes_.back().has_type = !name.empty();
    spec_check(state, line);
}

void Parser::spec_attribute(SpecState &state, Tok keyword, int line) {
    const bool first = !state.started;
    state.started = true;
    if (!first) {
        if (keyword == Tok::KwLong && state.is_long_long)
            fail(Tag::D_DECL_COMBO, line, "the attribute 'long' may only be used at most twice in a declaration");
        if (keyword == Tok::KwShort && state.is_short)
            fail(Tag::D_DECL_COMBO, line, "the attribute 'short' may only be used at most once in a declaration");
        if (keyword == Tok::KwSigned && state.is_signed)
            fail(Tag::D_DECL_COMBO, line, "the attribute 'signed' may only be used at most once in a declaration");
        if (keyword == Tok::KwUnsigned && state.is_unsigned)
            fail(Tag::D_DECL_COMBO, line, "the attribute 'unsigned' may only be used at most once in a declaration");
    }
    switch (keyword) {
    case Tok::KwLong:
        if (state.is_long) {
            state.is_long = false;
            state.is_long_long = true;
        } else {
            state.is_long = true;
        }
        break;
    case Tok::KwShort:
        state.is_short = true;
        break;
    case Tok::KwSigned:
        state.is_signed = true;
        break;
    case Tok::KwUnsigned:
        state.is_unsigned = true;
        break;
    default: // qualifiers and userland
        break;
    }
    if (!first)
        spec_check(state, line);
}

void Parser::spec_check(const SpecState &state, int line) const {
    using Kind = SpecState::Kind;
    if (state.kind == Kind::Unknown)
        return;
    const bool any_long = state.is_long || state.is_long_long;
    if (state.name == "char" && (state.is_short || any_long))
        fail(Tag::D_DECL_CHARATTR, line, "invalid type declaration: short and long may not be used with char type");
    if (state.name == "void" && (state.is_short || any_long || state.is_signed || state.is_unsigned))
        fail(Tag::D_DECL_VOIDATTR, line, "invalid type declaration: attributes may not be used with void type");
    if (state.kind != Kind::Integer && (state.is_signed || state.is_unsigned))
        fail(Tag::D_DECL_SIGNINT, line,
             "invalid type declaration: signed and unsigned may only be used with integer type");
    if (state.kind != Kind::Integer && state.kind != Kind::Float && any_long)
        fail(Tag::D_DECL_LONGINT, line,
             "invalid type declaration: long and long long may only be used with integer or floating-point type");
}

// struct|union [tag] [{ members }]. The type is named when the '{' is
// read, or, for a reference, once the token after the tag has been seen.
TypeSpecifier Parser::parse_struct_or_union(SpecState &state) {
    DepthGuard depth(*this);
    const Token kw = take();
    TypeSpecifier ts;
    ts.kind = kw.kind == Tok::KwStruct ? TypeSpecifier::Kind::Struct : TypeSpecifier::Kind::Union;
    ts.line = kw.line;
    const SpecState::Kind kind = kw.kind == Tok::KwStruct ? SpecState::Kind::Struct : SpecState::Kind::Union;
    std::string tag;
    if (at(Tok::Ident) || at(Tok::TypeName)) {
        tag = take().value;
        set_type_name(ts, tag);
    }
    if (!at(Tok::LBrace)) {
        if (tag.empty())
            syntax_error();
        spec_named(state, kind, tag, cur().line);
        return ts;
    }
    spec_named(state, kind, tag, take().line);
    ScopeGuard scope(*this);
    ts.has_body = true;
    do {
        parse_member_declaration(ts);
    } while (!at(Tok::RBrace));
    take();
    return ts;
}

// A member: specifiers and qualifiers, then declarators, each with an
// optional bit-field width (a width alone declares an unnamed field).
void Parser::parse_member_declaration(TypeSpecifier &sou) {
    ScopeGuard scope(*this);
    auto decl = std::make_unique<Declaration>();
    decl->line = cur().line;
    decl->specifiers = parse_specifiers(SpecContext::TypeName);
    for (;;) {
        Declarator d;
        if (at(Tok::Colon)) {
            d.line = take().line;
            if (const std::optional<Token> &name = scopes_.back().spec_name) {
                d.name = name->value;
                d.line = name->line;
            }
            d.bitfield_width = parse_constant_expression();
        } else {
            d = parse_declarator(DeclaratorKind::Named);
            if (at(Tok::Colon)) {
                take();
                d.bitfield_width = parse_constant_expression();
            }
        }
        if (d.name.find('`') != std::string::npos)
            fail(Tag::D_DECL_SCOPE, cur().line, "D scoping operator may not be used in a member name (" + d.name + ")");
        decl->declarators.push_back(std::move(d));
        decl->initializers.push_back(nullptr);
        if (!at(Tok::Comma))
            break;
        take();
    }
    expect(Tok::Semi);
    sou.members.push_back(std::move(decl));
}

// enum [tag] [{ name [= value], ... }]
TypeSpecifier Parser::parse_enum(SpecState &state) {
    const Token kw = take();
    TypeSpecifier ts;
    ts.kind = TypeSpecifier::Kind::Enum;
    ts.line = kw.line;
    std::string tag;
    if (at(Tok::Ident) || at(Tok::TypeName)) {
        tag = take().value;
        set_type_name(ts, tag);
    }
    if (!at(Tok::LBrace)) {
        if (tag.empty())
            syntax_error();
        spec_named(state, SpecState::Kind::Enum, tag, cur().line);
        return ts;
    }
    spec_named(state, SpecState::Kind::Enum, tag, take().line);
    ScopeGuard scope(*this);
    ts.has_body = true;
    for (;;) {
        if (!at(Tok::Ident))
            syntax_error();
        std::string name = take().value;
        ExprPtr value;
        if (at(Tok::Assign)) {
            take();
            value = parse_assignment();
        }
        ts.enumerators.emplace_back(std::move(name), std::move(value));
        if (!at(Tok::Comma))
            break;
        take();
    }
    expect(Tok::RBrace);
    return ts;
}

} // namespace dtrace::compiler
