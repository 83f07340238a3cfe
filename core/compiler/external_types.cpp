// external_types.cpp: adding a plugin's type graph to the TypeTable.
#include "compiler/external_types.h"

#include "compiler/types.h"

#include <sstream>

namespace dtrace::compiler {

namespace {

using Kind = TypeGraphNode::Kind;

// D's intrinsic integer of a size and signedness.
const Type *intrinsic_integer(TypeTable &table, uint64_t size, bool is_signed) {
    switch (size) {
    case 1:
        return table.find_named(is_signed ? "char" : "unsigned char");
    case 2:
        return table.find_named(is_signed ? "short" : "unsigned short");
    case 4:
        return table.find_named(is_signed ? "int" : "unsigned int");
    case 8:
        return table.find_named(is_signed ? "long" : "unsigned long");
    default:
        return nullptr;
    }
}

// An integer by its C name ("long unsigned int") when D knows it with that
// size; otherwise D's integer of the size, named by a typedef ("_Bool").
const Type *integer_type(TypeTable &table, const TypeGraphNode &node) {
    std::istringstream words_in(node.name);
    std::vector<std::string> words;
    for (std::string w; words_in >> w;)
        words.push_back(w);
    std::string canonical = canonical_intrinsic_name(words);
    if (const Type *t = canonical.empty() ? nullptr : table.find_named(canonical); t && t->size == node.size)
        return t;
    const Type *base = intrinsic_integer(table, node.size, node.is_signed);
    if (base == nullptr || node.name.empty())
        return base;
    if (const Type *known = table.find_named(node.name); known && known->size == node.size)
        return known;
    return table.add_typedef(node.name, base);
}

const Type *float_type(const TypeTable &table, uint64_t size) {
    return table.find_named(size == 4 ? "float" : size == 8 ? "double" : "long double");
}

class Importer {
  public:
    Importer(TypeTable &table, const TypeGraph &graph)
        : table_(table), graph_(graph), done_(graph.nodes.size(), nullptr), busy_(graph.nodes.size(), false) {}

    const Type *type(uint32_t index) {
        if (index >= graph_.nodes.size())
            return nullptr;
        if (done_[index] != nullptr)
            return done_[index];
        if (busy_[index])
            return nullptr; // a cycle that does not pass through a struct
        busy_[index] = true;
        const Type *t = make(graph_.nodes[index], index);
        busy_[index] = false;
        done_[index] = t;
        return t;
    }

  private:
    const Type *make(const TypeGraphNode &node, uint32_t index) {
        switch (node.kind) {
        case Kind::Void:
            return table_.void_type();
        case Kind::Integer:
            return integer_type(table_, node);
        case Kind::Float:
            return float_type(table_, node.size);
        case Kind::Pointer:
            return derived(node, [&](const Type *t) { return table_.pointer_to(t); });
        case Kind::Array:
            return derived(node, [&](const Type *t) { return table_.array_of(t, node.count); });
        case Kind::Const:
            return derived(node, [&](const Type *t) { return table_.qualified(t, TypeKind::Const); });
        case Kind::Volatile:
            return derived(node, [&](const Type *t) { return table_.qualified(t, TypeKind::Volatile); });
        case Kind::Typedef: {
            if (const Type *known = table_.find_named(node.name))
                return known;
            return derived(node, [&](const Type *t) { return table_.add_typedef(node.name, t); });
        }
        case Kind::Struct:
        case Kind::Union:
            return aggregate(node, index);
        case Kind::Enum:
            return enumeration(node);
        case Kind::Named:
            return named(node.name);
        }
        return nullptr;
    }

    template <typename Make> const Type *derived(const TypeGraphNode &node, Make &&make_from) {
        const Type *ref = type(node.ref);
        return ref == nullptr ? nullptr : make_from(ref);
    }

    // A struct or union: the tag is registered before its members are made,
    // so that members may point back at it.
    const Type *aggregate(const TypeGraphNode &node, uint32_t index) {
        const TypeKind kind = node.kind == Kind::Struct ? TypeKind::Struct : TypeKind::Union;
        Type *t = node.name.empty() ? table_.anonymous(kind) : table_.declare_tag(kind, node.name);
        done_[index] = t;
        if (t->complete || (node.size == 0 && node.members.empty()))
            return t;
        std::vector<Member> members;
        for (const TypeGraphNode::Member &m : node.members) {
            const Type *mt = type(m.type);
            if (mt == nullptr)
                return nullptr;
            members.push_back({m.name, mt, m.offset_bits, m.bit_width});
        }
        t->members = std::move(members);
        t->size = node.size;
        t->complete = true;
        return t;
    }

    const Type *enumeration(const TypeGraphNode &node) {
        Type *t = node.name.empty() ? table_.anonymous(TypeKind::Enum) : table_.declare_tag(TypeKind::Enum, node.name);
        if (t->complete)
            return t;
        for (const auto &[name, value] : node.enumerators)
            t->enumerators.push_back({name, value});
        t->size = node.size == 0 ? 4 : node.size;
        t->complete = true;
        return t;
    }

    // "struct x" / "union x" / "enum x": a forward declaration until used;
    // any other spelling as the table resolves it.
    const Type *named(const std::string &spelling) {
        for (auto [prefix, kind] : {std::pair{"struct ", TypeKind::Struct}, std::pair{"union ", TypeKind::Union},
                                    std::pair{"enum ", TypeKind::Enum}}) {
            const std::string p = prefix;
            if (spelling.rfind(p, 0) == 0 && spelling.size() > p.size())
                return table_.declare_tag(kind, spelling.substr(p.size()));
        }
        return table_.lookup(spelling);
    }

    TypeTable &table_;
    const TypeGraph &graph_;
    std::vector<const Type *> done_;
    std::vector<bool> busy_;
};

} // namespace

const Type *import_type_graph(TypeTable &table, const TypeGraph &graph) {
    return Importer(table, graph).type(graph.root);
}

} // namespace dtrace::compiler
