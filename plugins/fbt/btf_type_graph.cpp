// btf_type_graph.cpp: BTF types as the SDK's type graphs.
#include "btf_type_graph.h"

#include <bpf/btf.h>

namespace dtrace::fbt {

namespace {

dtrace_type_node blank(uint32_t kind) {
    dtrace_type_node node{};
    node.struct_size = sizeof node;
    node.kind = kind;
    return node;
}

// The BTF kind and name a D spelling asks for.
std::pair<uint16_t, std::string> kind_and_name(const std::string &spelling) {
    for (auto [prefix, kind] : {std::pair{"struct ", BTF_KIND_STRUCT}, std::pair{"union ", BTF_KIND_UNION},
                                std::pair{"enum ", BTF_KIND_ENUM}}) {
        const std::string p = prefix;
        if (spelling.starts_with(p))
            return {static_cast<uint16_t>(kind), spelling.substr(p.size())};
    }
    return {BTF_KIND_TYPEDEF, spelling};
}

} // namespace

const char *BtfTypeGraph::keep(std::string text) {
    return strings_.emplace_back(std::move(text)).c_str();
}

uint32_t BtfTypeGraph::add(dtrace_type_node node) {
    nodes_.push_back(node);
    members_.emplace_back();
    enumerators_.emplace_back();
    return static_cast<uint32_t>(nodes_.size() - 1);
}

// The node of BTF type `id`: whole (members, enumerators) when it is the
// root or anonymous, else a named struct, union or enum is only named.
uint32_t BtfTypeGraph::node_for(uint32_t id, bool whole) {
    if (auto it = done_.find(id); it != done_.end())
        return it->second;
    const btf *b = set_->handle();
    const btf_type *t = id == 0 ? nullptr : btf__type_by_id(b, id);
    if (t == nullptr)
        return done_[id] = add(blank(DTRACE_TYPE_VOID));
    const std::string name = t->name_off ? btf__name_by_offset(b, t->name_off) : "";
    const uint16_t kind = btf_kind(t);
    const bool aggregate = kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION;
    const bool enumeration = kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64;
    if ((aggregate || enumeration || kind == BTF_KIND_FWD) && !name.empty() && !whole) {
        dtrace_type_node node = blank(DTRACE_TYPE_NAMED);
        node.name = keep(set_->spell(id));
        return done_[id] = add(node);
    }
    switch (kind) {
    case BTF_KIND_INT: {
        dtrace_type_node node = blank(DTRACE_TYPE_INTEGER);
        node.name = keep(name);
        node.size = t->size;
        node.is_signed = (btf_int_encoding(t) & BTF_INT_SIGNED) != 0;
        return done_[id] = add(node);
    }
    case BTF_KIND_FLOAT: {
        dtrace_type_node node = blank(DTRACE_TYPE_FLOAT);
        node.size = t->size;
        return done_[id] = add(node);
    }
    case BTF_KIND_PTR:
    case BTF_KIND_CONST:
    case BTF_KIND_VOLATILE:
    case BTF_KIND_TYPEDEF:
    case BTF_KIND_ARRAY: {
        const uint32_t kinds[] = {DTRACE_TYPE_POINTER, DTRACE_TYPE_CONST, DTRACE_TYPE_VOLATILE, DTRACE_TYPE_TYPEDEF,
                                  DTRACE_TYPE_ARRAY};
        const uint16_t btf_kinds[] = {BTF_KIND_PTR, BTF_KIND_CONST, BTF_KIND_VOLATILE, BTF_KIND_TYPEDEF,
                                      BTF_KIND_ARRAY};
        uint32_t node_kind = DTRACE_TYPE_POINTER;
        for (size_t i = 0; i < std::size(btf_kinds); ++i)
            if (btf_kinds[i] == kind)
                node_kind = kinds[i];
        const uint32_t index = add(blank(node_kind));
        done_[id] = index;
        uint32_t target = t->type;
        uint64_t count = 0;
        if (kind == BTF_KIND_ARRAY) {
            target = btf_array(t)->type;
            count = btf_array(t)->nelems;
        }
        const btf_type *pointee = btf__type_by_id(b, target);
        // D has no function types: a function pointer is a void *.
        const uint32_t ref = pointee != nullptr && btf_kind(pointee) == BTF_KIND_FUNC_PROTO
                                 ? add(blank(DTRACE_TYPE_VOID))
                                 : node_for(target, false);
        nodes_[index].ref = ref;
        nodes_[index].count = count;
        nodes_[index].name = kind == BTF_KIND_TYPEDEF ? keep(name) : nullptr;
        return index;
    }
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG:
        return done_[id] = node_for(t->type, whole);
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION: {
        dtrace_type_node node = blank(kind == BTF_KIND_STRUCT ? DTRACE_TYPE_STRUCT : DTRACE_TYPE_UNION);
        node.name = keep(name);
        node.size = t->size;
        const uint32_t index = add(node);
        done_[id] = index;
        add_members(index, t, 0);
        return index;
    }
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64: {
        dtrace_type_node node = blank(DTRACE_TYPE_ENUM);
        node.name = keep(name);
        node.size = t->size;
        const uint32_t index = add(node);
        done_[id] = index;
        for (uint16_t i = 0; i < btf_vlen(t); ++i) {
            dtrace_type_enumerator e{};
            e.struct_size = sizeof e;
            if (kind == BTF_KIND_ENUM) {
                e.name = keep(btf__name_by_offset(b, btf_enum(t)[i].name_off));
                e.value = btf_enum(t)[i].val;
            } else {
                e.name = keep(btf__name_by_offset(b, btf_enum64(t)[i].name_off));
                e.value = static_cast<int64_t>(btf_enum64_value(&btf_enum64(t)[i]));
            }
            enumerators_[index].push_back(e);
        }
        return index;
    }
    default: // FUNC_PROTO (behind a pointer, handled there), VAR, DATASEC...
        return done_[id] = add(blank(DTRACE_TYPE_VOID));
    }
}

// The members of struct or union `t` at `base_bits` into node `index`; the
// members of an anonymous struct or union member are its own (C11: D finds
// file.f_path inside `union { const struct path f_path; ... }`).
void BtfTypeGraph::add_members(uint32_t index, const btf_type *t, uint64_t base_bits) {
    const btf *b = set_->handle();
    const btf_member *m = btf_members(t);
    for (uint16_t i = 0; i < btf_vlen(t); ++i) {
        const uint64_t offset = base_bits + btf_member_bit_offset(t, i);
        const btf_type *type = btf__type_by_id(b, m[i].type);
        while (type != nullptr && (btf_kind(type) == BTF_KIND_TYPE_TAG || btf_kind(type) == BTF_KIND_CONST ||
                                   btf_kind(type) == BTF_KIND_VOLATILE))
            type = btf__type_by_id(b, type->type);
        if (m[i].name_off == 0 && type != nullptr && (btf_is_struct(type) || btf_is_union(type))) {
            add_members(index, type, offset);
            continue;
        }
        dtrace_type_member member{};
        member.struct_size = sizeof member;
        member.name = keep(m[i].name_off ? btf__name_by_offset(b, m[i].name_off) : "");
        member.offset_bits = offset;
        member.bit_width = btf_member_bitfield_size(t, i);
        member.type = node_for(m[i].type, false);
        members_[index].push_back(member);
    }
}

void BtfTypeGraph::finish() {
    for (size_t i = 0; i < nodes_.size(); ++i) {
        nodes_[i].nmembers = static_cast<uint32_t>(members_[i].size());
        nodes_[i].members = members_[i].empty() ? nullptr : members_[i].data();
        nodes_[i].nenumerators = static_cast<uint32_t>(enumerators_[i].size());
        nodes_[i].enumerators = enumerators_[i].empty() ? nullptr : enumerators_[i].data();
    }
    graph_ = dtrace_type_graph{};
    graph_.struct_size = sizeof graph_;
    graph_.ntypes = static_cast<uint32_t>(nodes_.size());
    graph_.types = nodes_.data();
    graph_.root = 0;
}

const dtrace_type_graph *BtfTypeGraph::describe(const BtfSet &types, const std::string &spelling) {
    auto [kind, name] = kind_and_name(spelling);
    uint32_t id = types.find(kind, name);
    if (id == 0 && kind == BTF_KIND_ENUM)
        id = types.find(BTF_KIND_ENUM64, name);
    if (id == 0 && kind == BTF_KIND_TYPEDEF)
        id = types.find(BTF_KIND_INT, name); // _Bool, and the C names D spells otherwise
    if (id == 0)
        return nullptr;
    set_ = &types;
    nodes_.clear();
    members_.clear();
    enumerators_.clear();
    strings_.clear();
    done_.clear();
    node_for(id, true);
    finish();
    return &graph_;
}

} // namespace dtrace::fbt
