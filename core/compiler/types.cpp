// types.cpp: the type table and the type predicates DTrace's parser uses.
//
// The intrinsic and typedef tables mirror the LP64 "C" and "D" containers
// DTrace builds when it opens (int is 32 bits, long and pointers 64).
#include "compiler/types.h"

#include <algorithm>
#include <sstream>

namespace dtrace::compiler {

namespace {

constexpr uint64_t kPointerSize = 8;
constexpr uint64_t kRegisterBytes = 8; // DIF registers are 64-bit
constexpr unsigned kRegisterBits = 64;

struct IntrinsicSpec {
    const char *name;
    TypeKind kind;
    uint64_t size;
    bool is_signed;
    bool is_char;
};

// The intrinsic types of an LP64 target, in the order DTrace creates them
// (the order breaks ties between types of equal rank, e.g. long vs long long).
constexpr IntrinsicSpec kIntrinsics[] = {
    {"char", TypeKind::Integer, 1, true, true},
    {"short", TypeKind::Integer, 2, true, false},
    {"int", TypeKind::Integer, 4, true, false},
    {"long", TypeKind::Integer, 8, true, false},
    {"long long", TypeKind::Integer, 8, true, false},
    {"signed char", TypeKind::Integer, 1, true, true},
    {"unsigned char", TypeKind::Integer, 1, false, true},
    {"unsigned short", TypeKind::Integer, 2, false, false},
    {"unsigned int", TypeKind::Integer, 4, false, false},
    {"unsigned long", TypeKind::Integer, 8, false, false},
    {"unsigned long long", TypeKind::Integer, 8, false, false},
    {"_Bool", TypeKind::Integer, 1, false, false},
    {"float", TypeKind::Float, 4, true, false},
    {"double", TypeKind::Float, 8, true, false},
    {"long double", TypeKind::Float, 16, true, false},
};

struct TypedefSpec {
    const char *target;
    const char *name;
};

// <sys/types.h> names D programs may use without any header (LP64), plus the
// id types the builtin variables are declared with.
constexpr TypedefSpec kTypedefs[] = {
    {"char", "int8_t"},
    {"short", "int16_t"},
    {"int", "int32_t"},
    {"long", "int64_t"},
    {"long", "intptr_t"},
    {"long", "ssize_t"},
    {"unsigned char", "uint8_t"},
    {"unsigned short", "uint16_t"},
    {"unsigned int", "uint32_t"},
    {"unsigned long", "uint64_t"},
    {"unsigned char", "uchar_t"},
    {"unsigned short", "ushort_t"},
    {"unsigned int", "uint_t"},
    {"unsigned long", "ulong_t"},
    {"unsigned long long", "u_longlong_t"},
    {"long", "ptrdiff_t"},
    {"unsigned long", "uintptr_t"},
    {"unsigned long", "size_t"},
    {"int", "id_t"},
    {"int", "pid_t"},
    {"unsigned int", "uid_t"},
    {"unsigned int", "gid_t"},
    {"int", "processorid_t"},
    {"_Bool", "bool"},
    {"unsigned int", "in_addr_t"},
    {"unsigned int", "ipaddr_t"},
    // D's own: what stack() and ustack(), sym() and usym() and their kin return.
    {"unsigned long", "stack"},
    {"unsigned long", "_symaddr"},
    {"unsigned long", "_usymaddr"},
};

std::vector<std::string> split_words(std::string_view s) {
    std::vector<std::string> words;
    std::string cur;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\n') {
            if (!cur.empty())
                words.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        words.push_back(std::move(cur));
    return words;
}

bool is_qualifier_word(const std::string &w) {
    return w == "const" || w == "volatile" || w == "restrict";
}

TypeKind qualifier_kind(const std::string &w) {
    if (w == "const")
        return TypeKind::Const;
    if (w == "volatile")
        return TypeKind::Volatile;
    return TypeKind::Restrict;
}

} // namespace

const Type *resolve(const Type *t) {
    while (t && (t->kind == TypeKind::Typedef || t->kind == TypeKind::Const || t->kind == TypeKind::Volatile ||
                 t->kind == TypeKind::Restrict))
        t = t->ref;
    return t;
}

bool is_void(const Type *t) {
    return resolve(t)->kind == TypeKind::Void;
}
bool is_dynamic(const Type *t) {
    return resolve(t)->kind == TypeKind::Dynamic;
}
bool is_string(const Type *t) {
    return resolve(t)->kind == TypeKind::String;
}

bool is_integer(const Type *t) {
    auto k = resolve(t)->kind;
    return k == TypeKind::Integer || k == TypeKind::Enum;
}

bool is_arith(const Type *t) {
    return is_integer(t);
}

bool is_scalar(const Type *t) {
    return is_integer(t) || resolve(t)->kind == TypeKind::Pointer;
}

bool is_float(const Type *t) {
    return resolve(t)->kind == TypeKind::Float;
}

bool in_register(const Type *t) {
    return is_scalar(t) || (is_float(t) && resolve(t)->size <= kRegisterBits / kBitsPerByte);
}

bool is_pointer(const Type *t) {
    auto k = resolve(t)->kind;
    return k == TypeKind::Pointer || k == TypeKind::Array;
}

bool is_strcompat(const Type *t) {
    const Type *r = resolve(t);
    if (r->kind == TypeKind::String)
        return true;
    if (r->kind == TypeKind::Pointer || r->kind == TypeKind::Array) {
        const Type *e = resolve(r->ref);
        return e->kind == TypeKind::Integer && e->is_char;
    }
    return false;
}

bool is_signed(const Type *t) {
    const Type *r = resolve(t);
    return r->kind == TypeKind::Enum || (r->kind == TypeKind::Integer && r->is_signed);
}

bool is_vfptr(const Type *t) {
    const Type *r = resolve(t);
    if (r->kind != TypeKind::Pointer)
        return false;
    auto k = resolve(r->ref)->kind;
    return k == TypeKind::Void || k == TypeKind::Function;
}

uint64_t scalar_size(const Type *t) {
    const Type *r = resolve(t);
    if (r->kind == TypeKind::Enum)
        return 4;
    if (r->kind == TypeKind::Pointer)
        return kPointerSize;
    return r->size;
}

uint64_t zero_extend(uint64_t value, unsigned bits) {
    return bits >= kRegisterBits ? value : value & ((uint64_t(1) << bits) - 1);
}

uint64_t sign_extend(uint64_t value, unsigned bits) {
    if (bits >= kRegisterBits)
        return value;
    unsigned shift = kRegisterBits - bits;
    return uint64_t(int64_t(value << shift) >> shift);
}

RegisterCast register_cast(const Type *from, const Type *to) {
    RegisterCast c;
    if (!is_scalar(from) || !is_scalar(to))
        return c;
    uint64_t fsize = scalar_size(from), tsize = scalar_size(to);
    bool fs = is_signed(from), ts = is_signed(to);
    if (fsize == tsize && fs == ts)
        return c;
    if (tsize > fsize) {
        if (fs) {
            c.sign_from_bits = unsigned(fsize * kBitsPerByte);
            if (!ts && tsize < kRegisterBytes)
                c.zero_from_bits = unsigned(tsize * kBitsPerByte);
        }
    } else if (tsize < kRegisterBytes) {
        (ts ? c.sign_from_bits : c.zero_from_bits) = unsigned(tsize * kBitsPerByte);
    }
    return c;
}

uint64_t apply_cast(const RegisterCast &cast, uint64_t value) {
    if (cast.sign_from_bits)
        value = sign_extend(value, cast.sign_from_bits);
    if (cast.zero_from_bits)
        value = zero_extend(value, cast.zero_from_bits);
    return value;
}

bool types_compatible(const Type *a, const Type *b) {
    a = resolve(a);
    b = resolve(b);
    if (a == b)
        return true;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TypeKind::Integer:
    case TypeKind::Float:
        return a->size == b->size && a->is_signed == b->is_signed && a->is_char == b->is_char;
    case TypeKind::Void:
    case TypeKind::String:
    case TypeKind::Dynamic:
        return true;
    case TypeKind::Pointer:
        return types_compatible(a->ref, b->ref);
    case TypeKind::Array:
        return a->count == b->count && types_compatible(a->ref, b->ref);
    case TypeKind::Struct:
    case TypeKind::Union:
    case TypeKind::Enum:
        return !a->name.empty() && a->name == b->name && a->size == b->size;
    default:
        return false;
    }
}

const Type *usual_conversion(const Type *l, const Type *r, const Type *int_type) {
    const Type *lb = resolve(l), *rb = resolve(r);
    if (lb->kind == TypeKind::Enum) {
        l = int_type;
        lb = int_type;
    }
    if (rb->kind == TypeKind::Enum) {
        r = int_type;
        rb = int_type;
    }
    auto rank = [](const Type *t) { return t->size * 8 + (t->is_signed ? 0 : 1); };
    uint64_t lrank = rank(lb), rrank = rank(rb);
    if (lrank == rrank)
        return lb->serial < rb->serial ? r : l;
    return lrank > rrank ? l : r;
}

std::string canonical_intrinsic_name(const std::vector<std::string> &keywords) {
    int n_signed = 0, n_unsigned = 0, n_char = 0, n_short = 0, n_int = 0, n_long = 0, n_other = 0;
    std::string other;
    for (const auto &w : keywords) {
        if (w == "signed")
            n_signed++;
        else if (w == "unsigned")
            n_unsigned++;
        else if (w == "char")
            n_char++;
        else if (w == "short")
            n_short++;
        else if (w == "int")
            n_int++;
        else if (w == "long")
            n_long++;
        else {
            n_other++;
            other = w;
        }
    }
    if (n_signed + n_unsigned > 1 || n_char > 1 || n_short > 1 || n_int > 1 || n_long > 2 || n_other > 1)
        return "";
    if (n_other == 1) {
        bool plain = n_signed + n_unsigned + n_char + n_short + n_int == 0;
        if (other == "void" && plain && n_long == 0)
            return "void";
        if (other == "_Bool" && plain && n_long == 0)
            return "_Bool";
        if (other == "float" && plain && n_long == 0)
            return "float";
        if (other == "double" && plain && n_long <= 1)
            return n_long ? "long double" : "double";
        return "";
    }
    std::string prefix = n_unsigned ? "unsigned " : "";
    if (n_char) {
        if (n_short || n_int || n_long)
            return "";
        return n_unsigned ? "unsigned char" : n_signed ? "signed char" : "char";
    }
    if (n_short) {
        if (n_long)
            return "";
        return prefix + "short";
    }
    if (n_long == 2)
        return prefix + "long long";
    if (n_long == 1)
        return prefix + "long";
    if (n_int || n_signed || n_unsigned)
        return prefix + "int";
    return "";
}

TypeTable::TypeTable(uint32_t strsize) : strsize_(strsize) {
    void_ = make(TypeKind::Void);
    names_["void"] = void_;
    add_intrinsics();
    add_typedefs();
    int_ = names_.at("int");
    Type *s = make(TypeKind::String);
    s->name = "string";
    s->size = strsize;
    string_ = s;
    names_["string"] = s;
    Type *d = make(TypeKind::Dynamic);
    dynamic_ = d;
    builtin_count_ = storage_.size();
}

bool TypeTable::is_declared_typedef(const std::string &name) const {
    const Type *t = find_named(name);
    return t && t->serial > builtin_count_;
}

void TypeTable::set_strsize(uint32_t strsize) {
    strsize_ = strsize;
    string_->size = strsize;
}

Type *TypeTable::make(TypeKind kind) {
    Type &t = storage_.emplace_back();
    t.kind = kind;
    t.serial = uint32_t(storage_.size());
    return &t;
}

void TypeTable::add_intrinsics() {
    for (const auto &spec : kIntrinsics) {
        Type *t = make(spec.kind);
        t->name = spec.name;
        t->size = spec.size;
        t->is_signed = spec.is_signed;
        t->is_char = spec.is_char;
        names_[spec.name] = t;
    }
}

void TypeTable::add_typedefs() {
    for (const auto &spec : kTypedefs)
        add_typedef(spec.name, names_.at(spec.target));
}

const Type *TypeTable::named(const char *name) const {
    return names_.at(name);
}

namespace {

const char *tag_prefix(TypeKind kind) {
    return kind == TypeKind::Struct ? "struct " : kind == TypeKind::Union ? "union " : "enum ";
}

} // namespace

bool TypeTable::ask_resolver(const std::string &spelling) const {
    return resolver_ && resolver_asked_.insert(spelling).second && resolver_(spelling);
}

const Type *TypeTable::find_named(const std::string &name) const {
    auto it = names_.find(name);
    if (it == names_.end() && ask_resolver(name))
        it = names_.find(name);
    return it == names_.end() ? nullptr : it->second;
}

Type *TypeTable::find_tagged(TypeKind kind, const std::string &tag) const {
    auto it = tags_.find(tag_prefix(kind) + tag);
    if (it == tags_.end() && ask_resolver(tag_prefix(kind) + tag))
        it = tags_.find(tag_prefix(kind) + tag);
    return it == tags_.end() ? nullptr : it->second;
}

bool TypeTable::complete(const Type *t) const {
    if (!t->complete && !t->name.empty() &&
        (t->kind == TypeKind::Struct || t->kind == TypeKind::Union || t->kind == TypeKind::Enum))
        ask_resolver(tag_prefix(t->kind) + t->name);
    return t->complete;
}

Type *TypeTable::declare_tag(TypeKind kind, const std::string &tag) {
    if (auto it = tags_.find(tag_prefix(kind) + tag); it != tags_.end())
        return it->second;
    Type *t = make(kind);
    t->name = tag;
    t->complete = false;
    tags_[tag_prefix(kind) + tag] = t;
    return t;
}

Type *TypeTable::tagged(TypeKind kind, const std::string &tag) {
    if (Type *t = find_tagged(kind, tag))
        return t;
    return declare_tag(kind, tag);
}

Type *TypeTable::anonymous(TypeKind kind) {
    return make(kind);
}

const Type *TypeTable::pointer_to(const Type *t) {
    auto key = std::make_pair(t, int(TypeKind::Pointer));
    if (auto it = derived_.find(key); it != derived_.end())
        return it->second;
    Type *p = make(TypeKind::Pointer);
    p->ref = t;
    p->size = kPointerSize;
    derived_[key] = p;
    return p;
}

const Type *TypeTable::qualified(const Type *t, TypeKind qualifier) {
    auto key = std::make_pair(t, int(qualifier));
    if (auto it = derived_.find(key); it != derived_.end())
        return it->second;
    Type *q = make(qualifier);
    q->ref = t;
    q->size = t->size;
    derived_[key] = q;
    return q;
}

const Type *TypeTable::array_of(const Type *t, uint64_t count) {
    auto key = std::make_pair(t, count);
    if (auto it = arrays_.find(key); it != arrays_.end())
        return it->second;
    Type *a = make(TypeKind::Array);
    a->ref = t;
    a->count = count;
    a->size = size_of(t) * count;
    arrays_[key] = a;
    return a;
}

const Type *TypeTable::function(const Type *ret, std::vector<const Type *> params, bool varargs) {
    Type *f = make(TypeKind::Function);
    f->ref = ret;
    f->params = std::move(params);
    f->varargs = varargs;
    return f;
}

const Type *TypeTable::add_typedef(const std::string &name, const Type *target) {
    if (auto it = names_.find(name); it != names_.end())
        return types_compatible(it->second, target) ? it->second : nullptr;
    Type *t = make(TypeKind::Typedef);
    t->name = name;
    t->ref = target;
    t->size = target->size;
    names_[name] = t;
    return t;
}

uint64_t TypeTable::size_of(const Type *t) const {
    const Type *r = resolve(t);
    switch (r->kind) {
    case TypeKind::String:
        return strsize_;
    case TypeKind::Array:
        return size_of(r->ref) * r->count;
    case TypeKind::Enum:
        return 4;
    case TypeKind::Struct:
    case TypeKind::Union:
        complete(r); // a struct a plugin named but has not described yet
        return r->size;
    default:
        return r->size;
    }
}

const Type *TypeTable::lookup(std::string_view spelling) const {
    // Split "base words" from the declarator suffix: '*' (each possibly
    // followed by qualifiers) and an optional trailing "[N]".
    std::string text(spelling);
    uint64_t array_count = 0;
    bool is_array = false;
    if (auto lb = text.find('['); lb != std::string::npos) {
        auto rb = text.find(']', lb);
        if (rb == std::string::npos)
            return nullptr;
        for (char c : text.substr(lb + 1, rb - lb - 1)) {
            if (c < '0' || c > '9')
                return nullptr;
            array_count = array_count * 10 + uint64_t(c - '0');
        }
        is_array = true;
        text = text.substr(0, lb);
    }
    auto star = text.find('*');
    std::string base_text = text.substr(0, star);
    std::string ptr_text = star == std::string::npos ? "" : text.substr(star);
    // Drop module scoping (`genunix`kthread_t`): one type namespace here.
    if (auto bq = base_text.rfind('`'); bq != std::string::npos) {
        auto sp = base_text.rfind(' ', bq);
        base_text.erase(sp == std::string::npos ? 0 : sp + 1, bq - (sp == std::string::npos ? 0 : sp + 1) + 1);
    }
    std::vector<std::string> words = split_words(base_text);
    std::vector<std::string> quals, rest;
    for (auto &w : words)
        (is_qualifier_word(w) ? quals : rest).push_back(w);
    if (rest.empty())
        return nullptr;

    const Type *base = nullptr;
    if (rest[0] == "struct" || rest[0] == "union" || rest[0] == "enum") {
        if (rest.size() != 2)
            return nullptr;
        TypeKind k = rest[0] == "struct" ? TypeKind::Struct : rest[0] == "union" ? TypeKind::Union : TypeKind::Enum;
        base = find_tagged(k, rest[1]);
    } else if (const Type *t = rest.size() == 1 ? find_named(rest[0]) : nullptr) {
        base = t;
    } else {
        std::string canon = canonical_intrinsic_name(rest);
        base = canon.empty() ? nullptr : find_named(canon);
    }
    if (!base)
        return nullptr;

    auto *self = const_cast<TypeTable *>(this); // derived types are cached, not observable state
    for (auto &q : quals)
        base = self->qualified(base, qualifier_kind(q));
    std::vector<std::string> ptr_words;
    std::string cur;
    for (char c : ptr_text) {
        if (c == '*') {
            if (!cur.empty())
                ptr_words.push_back(cur);
            cur.clear();
            ptr_words.push_back("*");
        } else if (c == ' ' || c == '\t') {
            if (!cur.empty())
                ptr_words.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        ptr_words.push_back(cur);
    for (auto &w : ptr_words) {
        if (w == "*")
            base = self->pointer_to(base);
        else if (is_qualifier_word(w))
            base = self->qualified(base, qualifier_kind(w));
        else
            return nullptr;
    }
    if (is_array)
        base = self->array_of(base, array_count);
    return base;
}

std::string TypeTable::name_of(const Type *t) {
    switch (t->kind) {
    case TypeKind::Void:
        return "void";
    case TypeKind::Integer:
    case TypeKind::Float:
    case TypeKind::Typedef:
    case TypeKind::String:
        return t->name;
    case TypeKind::Struct:
    case TypeKind::Union:
    case TypeKind::Enum: {
        std::string kw = t->kind == TypeKind::Struct ? "struct " : t->kind == TypeKind::Union ? "union " : "enum ";
        return kw + (t->name.empty() ? "(anon)" : t->name);
    }
    case TypeKind::Pointer: {
        std::string inner = name_of(t->ref);
        return inner + (inner.back() == '*' ? "*" : " *");
    }
    case TypeKind::Array:
        return name_of(t->ref) + " [" + std::to_string(t->count) + "]";
    case TypeKind::Const:
    case TypeKind::Volatile:
    case TypeKind::Restrict: {
        const char *q = t->kind == TypeKind::Const ? "const" : t->kind == TypeKind::Volatile ? "volatile" : "restrict";
        if (t->ref->kind == TypeKind::Pointer)
            return name_of(t->ref) + q;
        return std::string(q) + " " + name_of(t->ref);
    }
    case TypeKind::Function: {
        std::ostringstream os;
        os << name_of(t->ref) << " (*)(";
        for (size_t i = 0; i < t->params.size(); i++)
            os << (i ? ", " : "") << name_of(t->params[i]);
        if (t->varargs)
            os << (t->params.empty() ? "..." : ", ...");
        os << ")";
        return os.str();
    }
    case TypeKind::Dynamic:
        return "dynamic variable";
    }
    return "unknown";
}

dif::TypeDesc type_desc(const Type *t, uint32_t strsize) {
    const Type *r = resolve(t);
    using K = dif::TypeDesc::Kind;
    switch (r->kind) {
    case TypeKind::Integer:
        return {K::Integer, uint32_t(r->size), r->is_signed};
    case TypeKind::Enum:
        return {K::Integer, 4, true};
    case TypeKind::Pointer:
        return {K::Integer, uint32_t(kPointerSize), false};
    case TypeKind::String:
        return {K::String, strsize, false};
    case TypeKind::Void:
        return {K::Integer, 0, false};
    case TypeKind::Float: // its bits, as DTrace records them; long double by reference
        return {in_register(r) ? K::Integer : K::ByRef, uint32_t(r->size), false};
    default:
        return {K::ByRef, uint32_t(r->size), false};
    }
}

} // namespace dtrace::compiler
