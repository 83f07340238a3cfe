// types.h: the D type system, the one every part of the core shares.
//
// D's types are C's (integers of every size and signedness, floats, pointers,
// arrays, structs, unions, enums, typedefs, qualifiers, functions) plus two
// of its own: `string` (a by-value character array of strsize bytes that
// compares and assigns as a whole) and the "dynamic" type of aggregations and
// of associative arrays whose value type is not known yet. Types are plain
// nodes owned by a TypeTable and compared by identity after resolving
// typedefs and qualifiers, the way DTrace compares CTF types. The table is
// populated like DTrace's "C" and "D" containers for an LP64 target: every C
// intrinsic integer type and the <sys/types.h> typedefs (int32_t, uint64_t,
// size_t, pid_t...). Providers, declarations and (later) DWARF/BTF/manifest
// readers add to the same table (design principle 6).
#pragma once

#include "dif/difo.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::compiler {

constexpr unsigned kBitsPerByte = 8;

enum class TypeKind : uint8_t {
    Void,
    Integer,
    Float,
    String,
    Pointer,
    Array,
    Struct,
    Union,
    Enum,
    Typedef,
    Const,
    Volatile,
    Restrict,
    Function,
    Dynamic, // aggregations, untyped associative arrays
};

struct Type;

struct Member {
    std::string name;
    const Type *type = nullptr;
    uint64_t offset_bits = 0;
    uint32_t bit_width = 0; // 0: not a bit-field
};

struct Enumerator {
    std::string name;
    int64_t value = 0;
};

struct Type {
    TypeKind kind = TypeKind::Void;
    uint32_t serial = 0;       // creation order; breaks ties in the usual arithmetic conversions
    std::string name;          // intrinsic or typedef name; struct/union/enum tag ("" when anonymous)
    uint64_t size = 0;         // bytes; 0 for void, functions and incomplete types
    bool is_signed = false;    // Integer
    bool is_char = false;      // Integer: one of the char types (pointers to these act as strings)
    bool complete = true;      // Struct/Union/Enum: false for a forward declaration
    const Type *ref = nullptr; // Pointer/Typedef/qualifier target, Array element, Function return type
    uint64_t count = 0;        // Array: number of elements
    std::vector<Member> members;
    std::vector<Enumerator> enumerators;
    std::vector<const Type *> params; // Function
    bool varargs = false;             // Function
};

// Strips typedefs and qualifiers.
const Type *resolve(const Type *t);

bool is_void(const Type *t);
bool is_dynamic(const Type *t);
bool is_string(const Type *t);
bool is_integer(const Type *t); // integers and enums
bool is_arith(const Type *t);   // D has no float arithmetic: same as is_integer
bool is_scalar(const Type *t);  // integers, enums, pointers
bool is_float(const Type *t);   // float, double, long double
// Held in a register rather than by reference: scalars, and float and double
// (their bits; DTrace keeps only long double, wider than a register, by reference).
bool in_register(const Type *t);
bool is_pointer(const Type *t);   // pointers and arrays (not strings)
bool is_strcompat(const Type *t); // string, char *, char[]
bool is_signed(const Type *t);
bool is_vfptr(const Type *t); // a pointer to void or to a function: no size to scale by
// The bytes a scalar occupies in a register's view: enums are ints, pointers 64 bits.
uint64_t scalar_size(const Type *t);

// How DTrace converts a value held in a 64-bit register from scalar type
// `from` to scalar type `to` (casts, arguments to their parameter types,
// keys to their signature, inlines to their declared type): registers keep
// full 64-bit values, and a conversion narrows, changes signedness or
// sign-extends a widened signed value, but leaves a widened unsigned value
// as it is. Apply sign-extension from `sign_from_bits`, then zero-extension
// from `zero_from_bits` (0: that step is not needed).
struct RegisterCast {
    unsigned sign_from_bits = 0;
    unsigned zero_from_bits = 0;
};
RegisterCast register_cast(const Type *from, const Type *to);
uint64_t apply_cast(const RegisterCast &cast, uint64_t value);
// The low `bits` bits of `value`, zero- or sign-extended to 64 bits.
uint64_t zero_extend(uint64_t value, unsigned bits);
uint64_t sign_extend(uint64_t value, unsigned bits);

// DTrace's notion of two types being the same (ctf_type_compat).
bool types_compatible(const Type *a, const Type *b);

// The usual arithmetic conversions as DTrace applies them: the operand type
// of greater rank (bits, plus one when unsigned) wins; enums count as int.
// Unlike C there is no promotion of narrow types to int (char + char is char).
const Type *usual_conversion(const Type *l, const Type *r, const Type *int_type);

class TypeTable {
  public:
    explicit TypeTable(uint32_t strsize);
    TypeTable(const TypeTable &) = delete;
    TypeTable &operator=(const TypeTable &) = delete;

    // Looks a type up by its C spelling: "int", "unsigned long", "uint64_t",
    // "string", "struct foo", "const char *", "void *", "char [16]" (not
    // function types). Returns null when some part is unknown.
    const Type *lookup(std::string_view spelling) const;
    // A typedef or intrinsic by exact name.
    const Type *find_named(const std::string &name) const;
    // Whether `name` is a typedef declared in D (by a library or a program),
    // rather than one of D's own type names.
    bool is_declared_typedef(const std::string &name) const;
    // struct/union/enum by tag; null when never declared.
    Type *find_tagged(TypeKind kind, const std::string &tag) const;

    // Asked, once per spelling, for a name the table lacks ("task_t",
    // "struct foo") or a struct/union/enum that is only forward-declared:
    // it may add the type (external_types.h), and says whether it did. The
    // lookups above then answer as if it had been declared all along.
    using Resolver = std::function<bool(const std::string &spelling)>;
    void set_resolver(Resolver resolver) { resolver_ = std::move(resolver); }
    // Completes a forward-declared struct, union or enum through the
    // resolver; whether `t` is complete afterwards.
    bool complete(const Type *t) const;
    // The tagged type, a new forward declaration when unknown (no resolver).
    Type *declare_tag(TypeKind kind, const std::string &tag);

    const Type *void_type() const { return void_; }
    const Type *int_type() const { return int_; }
    const Type *string_type() const { return string_; }
    const Type *dynamic_type() const { return dynamic_; }
    const Type *named(const char *name) const; // an intrinsic or typedef that must exist

    const Type *pointer_to(const Type *t);
    const Type *array_of(const Type *t, uint64_t count);
    const Type *qualified(const Type *t, TypeKind qualifier);
    const Type *function(const Type *ret, std::vector<const Type *> params, bool varargs);
    // Adds a typedef; returns null if the name is already a different type.
    const Type *add_typedef(const std::string &name, const Type *target);
    // Finds or creates (incomplete) the struct/union/enum with this tag.
    Type *tagged(TypeKind kind, const std::string &tag);
    Type *anonymous(TypeKind kind);

    uint32_t strsize() const { return strsize_; }
    void set_strsize(uint32_t strsize);    // the size of `string` (the strsize option)
    uint64_t size_of(const Type *t) const; // string: strsize

    // The name DTrace prints for a type: "int", "char *", "struct foo", "string".
    static std::string name_of(const Type *t);

  private:
    Type *make(TypeKind kind);
    void add_intrinsics();
    void add_typedefs();

    uint32_t strsize_;
    size_t builtin_count_ = 0; // the types made by the constructor (serials up to it)
    std::deque<Type> storage_;
    std::map<std::string, const Type *> names_;
    std::map<std::string, Type *> tags_;
    std::map<std::pair<const Type *, uint64_t>, const Type *> arrays_;
    std::map<std::pair<const Type *, int>, const Type *> derived_; // pointers and qualifiers
    bool ask_resolver(const std::string &spelling) const;
    Resolver resolver_;
    mutable std::set<std::string> resolver_asked_;
    const Type *void_ = nullptr, *int_ = nullptr, *dynamic_ = nullptr;
    Type *string_ = nullptr; // its size follows strsize
};

// The canonical name of the integer (or float) type spelled by C's type
// specifier keywords in any order ("long unsigned int" -> "unsigned long");
// empty when the keywords do not name one.
std::string canonical_intrinsic_name(const std::vector<std::string> &keywords);

// What the VM and the consumer need to know of a value of this type.
dif::TypeDesc type_desc(const Type *t, uint32_t strsize);

} // namespace dtrace::compiler
