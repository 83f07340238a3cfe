// dwarf_types.cpp: DWARF DIEs to D type spellings and SDK type graphs.
#include "dwarf_types.h"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <dwarf.h>
#include <functional>

namespace dtrace::pid {

namespace {

constexpr int kMaxDepth = 16; // type chains longer than this are no type of ours

bool identifier(const char *name) {
    if (name == nullptr || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
        return false;
    for (const char *p = name; *p; ++p)
        if (!std::isalnum(static_cast<unsigned char>(*p)) && *p != '_')
            return false;
    return true;
}

// The D spelling of an integer or floating type of DWARF.
std::string base_name(Dwarf_Die *die) {
    Dwarf_Attribute attr;
    Dwarf_Word encoding = 0, size = 0;
    dwarf_formudata(dwarf_attr(die, DW_AT_encoding, &attr), &encoding);
    dwarf_formudata(dwarf_attr(die, DW_AT_byte_size, &attr), &size);
    if (encoding == DW_ATE_float)
        return size == 4 ? "float" : size == 8 ? "double" : "long double";
    if (encoding == DW_ATE_boolean)
        return "uint8_t";
    const bool is_signed = encoding == DW_ATE_signed || encoding == DW_ATE_signed_char;
    if (encoding == DW_ATE_signed_char || encoding == DW_ATE_unsigned_char)
        return is_signed ? "char" : "unsigned char";
    const char *names[] = {"char", "short", "int", "long"};
    const int index = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
    return (is_signed ? "" : "unsigned ") + std::string(names[index]);
}

bool type_of(Dwarf_Die *die, Dwarf_Die *out) {
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, DW_AT_type, &attr) != nullptr && dwarf_formref_die(&attr, out) != nullptr;
}

// The D spelling of a DWARF type ("" : D cannot spell it).
std::string spell(Dwarf_Die *die, int depth) {
    if (depth > kMaxDepth)
        return "";
    Dwarf_Die inner;
    const char *name = dwarf_diename(die);
    switch (dwarf_tag(die)) {
    case DW_TAG_base_type:
        return base_name(die);
    case DW_TAG_typedef:
        return identifier(name) ? name : "";
    case DW_TAG_structure_type:
        return identifier(name) ? std::string("struct ") + name : "";
    case DW_TAG_union_type:
        return identifier(name) ? std::string("union ") + name : "";
    case DW_TAG_enumeration_type:
        return identifier(name) ? std::string("enum ") + name : "";
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type: {
        if (!type_of(die, &inner))
            return "void *";
        std::string pointee = spell(&inner, depth + 1);
        return pointee.empty() ? "void *" : pointee + " *";
    }
    case DW_TAG_const_type:
    case DW_TAG_volatile_type: {
        if (!type_of(die, &inner))
            return dwarf_tag(die) == DW_TAG_const_type ? "const void" : "volatile void";
        std::string base = spell(&inner, depth + 1);
        if (base.empty() || base.back() == '*')
            return base; // a const pointer is spelt as the pointer
        return (dwarf_tag(die) == DW_TAG_const_type ? "const " : "volatile ") + base;
    }
    default:
        return "";
    }
}

std::string spell_or_default(Dwarf_Die *die) {
    std::string d = spell(die, 0);
    return d.empty() ? "uint64_t" : d;
}

} // namespace

std::unique_ptr<DwarfTypes> DwarfTypes::open(const std::string &path) {
    std::unique_ptr<DwarfTypes> types(new DwarfTypes());
    types->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (types->fd_ < 0)
        return nullptr;
    types->dwarf_ = dwarf_begin(types->fd_, DWARF_C_READ);
    if (types->dwarf_ == nullptr)
        return nullptr;
    types->index();
    return types;
}

DwarfTypes::~DwarfTypes() {
    if (dwarf_ != nullptr)
        dwarf_end(dwarf_);
    if (fd_ >= 0)
        close(fd_);
}

void DwarfTypes::index() {
    Dwarf_Off offset = 0, next = 0;
    size_t header_size = 0;
    std::function<void(Dwarf_Die *)> walk = [&](Dwarf_Die *parent) {
        Dwarf_Die child;
        if (dwarf_child(parent, &child) != 0)
            return;
        do {
            const int tag = dwarf_tag(&child);
            const char *name = dwarf_diename(&child);
            Dwarf_Attribute attr;
            if (tag == DW_TAG_subprogram && dwarf_hasattr(&child, DW_AT_low_pc)) {
                const char *linkage = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_linkage_name, &attr));
                if (linkage == nullptr)
                    linkage = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_name, &attr));
                if (linkage != nullptr)
                    functions_.emplace(linkage, dwarf_dieoffset(&child));
            } else if (tag == DW_TAG_namespace) {
                walk(&child);
            } else if (identifier(name) && !dwarf_hasattr(&child, DW_AT_declaration)) {
                const char *prefix = tag == DW_TAG_structure_type     ? "struct "
                                     : tag == DW_TAG_union_type       ? "union "
                                     : tag == DW_TAG_enumeration_type ? "enum "
                                     : tag == DW_TAG_typedef          ? ""
                                                                      : nullptr;
                if (prefix != nullptr)
                    types_.emplace(prefix + std::string(name), dwarf_dieoffset(&child));
            }
        } while (dwarf_siblingof(&child, &child) == 0);
    };
    while (dwarf_nextcu(dwarf_, offset, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(dwarf_, offset + header_size, &cu) != nullptr)
            walk(&cu);
        offset = next;
    }
}

std::optional<Signature> DwarfTypes::signature(const std::string &function) const {
    auto found = functions_.find(function);
    Dwarf_Die die;
    if (found == functions_.end() || dwarf_offdie(dwarf_, found->second, &die) == nullptr)
        return std::nullopt;
    Signature signature;
    Dwarf_Die result;
    signature.result = type_of(&die, &result) ? spell_or_default(&result) : "void";
    Dwarf_Die child;
    if (dwarf_child(&die, &child) == 0) {
        do {
            Dwarf_Die type;
            if (dwarf_tag(&child) == DW_TAG_formal_parameter)
                signature.params.push_back(type_of(&child, &type) ? spell_or_default(&type) : "uint64_t");
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    return signature;
}

const dtrace_type_graph *DwarfTypes::describe(const std::string &name) {
    auto found = types_.find(name);
    Dwarf_Die root;
    if (found == types_.end() || dwarf_offdie(dwarf_, found->second, &root) == nullptr)
        return nullptr;
    nodes_.clear();
    members_.clear();
    enumerators_.clear();
    strings_.clear();
    auto keep = [&](const std::string &s) { return strings_.emplace_back(std::make_unique<std::string>(s))->c_str(); };
    auto add = [&](uint32_t kind, const std::string &node_name) {
        dtrace_type_node node{};
        node.struct_size = sizeof node;
        node.kind = kind;
        node.name = keep(node_name);
        nodes_.push_back(node);
        members_.emplace_back();
        enumerators_.emplace_back();
        return static_cast<uint32_t>(nodes_.size() - 1);
    };
    // The node of `die`; structs and unions other than the root are only named.
    std::function<uint32_t(Dwarf_Die *, int, bool)> node_of = [&](Dwarf_Die *die, int depth, bool root_node) {
        Dwarf_Die inner;
        Dwarf_Attribute attr;
        Dwarf_Word size = 0;
        dwarf_formudata(dwarf_attr(die, DW_AT_byte_size, &attr), &size);
        const char *die_name = dwarf_diename(die);
        const int tag = depth > kMaxDepth ? -1 : dwarf_tag(die);
        if (tag == DW_TAG_base_type) {
            const std::string d = base_name(die);
            uint32_t index =
                add(d.find("float") != std::string::npos || d.find("double") != std::string::npos ? DTRACE_TYPE_FLOAT
                                                                                                  : DTRACE_TYPE_INTEGER,
                    d);
            nodes_[index].size = size;
            nodes_[index].is_signed = d.rfind("unsigned", 0) != 0 && d != "uint8_t";
            return index;
        }
        if ((tag == DW_TAG_structure_type || tag == DW_TAG_union_type) && !root_node) {
            const std::string d = spell(die, 0);
            return d.empty() ? add(DTRACE_TYPE_VOID, "") : add(DTRACE_TYPE_NAMED, d);
        }
        if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
            const uint32_t index = add(tag == DW_TAG_structure_type ? DTRACE_TYPE_STRUCT : DTRACE_TYPE_UNION,
                                       identifier(die_name) ? die_name : "");
            nodes_[index].size = size;
            Dwarf_Die member;
            std::vector<dtrace_type_member> members;
            if (dwarf_child(die, &member) == 0) {
                do {
                    if (dwarf_tag(&member) != DW_TAG_member || !type_of(&member, &inner))
                        continue;
                    dtrace_type_member m{};
                    m.struct_size = sizeof m;
                    m.name = keep(dwarf_diename(&member) ? dwarf_diename(&member) : "");
                    Dwarf_Word location = 0, bits = 0, bit_offset = 0;
                    dwarf_formudata(dwarf_attr(&member, DW_AT_data_member_location, &attr), &location);
                    m.offset_bits = location * 8;
                    if (dwarf_formudata(dwarf_attr(&member, DW_AT_bit_size, &attr), &bits) == 0) {
                        m.bit_width = static_cast<uint32_t>(bits);
                        if (dwarf_formudata(dwarf_attr(&member, DW_AT_data_bit_offset, &attr), &bit_offset) == 0)
                            m.offset_bits = bit_offset;
                    }
                    m.type = node_of(&inner, depth + 1, false);
                    members.push_back(m);
                } while (dwarf_siblingof(&member, &member) == 0);
            }
            members_[index] = std::move(members);
            return index;
        }
        if (tag == DW_TAG_enumeration_type) {
            const uint32_t index = add(DTRACE_TYPE_ENUM, identifier(die_name) ? die_name : "");
            nodes_[index].size = size;
            Dwarf_Die value;
            if (dwarf_child(die, &value) == 0) {
                do {
                    Dwarf_Sword number = 0;
                    if (dwarf_tag(&value) != DW_TAG_enumerator ||
                        dwarf_formsdata(dwarf_attr(&value, DW_AT_const_value, &attr), &number) != 0)
                        continue;
                    enumerators_[index].push_back({sizeof(dtrace_type_enumerator),
                                                   keep(dwarf_diename(&value) ? dwarf_diename(&value) : ""), number});
                } while (dwarf_siblingof(&value, &value) == 0);
            }
            return index;
        }
        if (tag == DW_TAG_typedef && identifier(die_name)) {
            const uint32_t index = add(DTRACE_TYPE_TYPEDEF, die_name);
            // typedef struct { ... } name_t: the struct has no name of its own to be asked for by.
            const bool anonymous = type_of(die, &inner) && dwarf_diename(&inner) == nullptr;
            nodes_[index].ref =
                type_of(die, &inner) ? node_of(&inner, depth + 1, anonymous) : add(DTRACE_TYPE_VOID, "");
            return index;
        }
        if (tag == DW_TAG_pointer_type || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type) {
            const uint32_t kind = tag == DW_TAG_pointer_type ? DTRACE_TYPE_POINTER
                                  : tag == DW_TAG_const_type ? DTRACE_TYPE_CONST
                                                             : DTRACE_TYPE_VOLATILE;
            const uint32_t index = add(kind, "");
            nodes_[index].size = tag == DW_TAG_pointer_type ? 8 : 0;
            nodes_[index].ref = type_of(die, &inner) ? node_of(&inner, depth + 1, false) : add(DTRACE_TYPE_VOID, "");
            return index;
        }
        if (tag == DW_TAG_array_type && type_of(die, &inner)) {
            const uint32_t index = add(DTRACE_TYPE_ARRAY, "");
            Dwarf_Die range;
            Dwarf_Word count = 0, upper = 0;
            if (dwarf_child(die, &range) == 0 && dwarf_tag(&range) == DW_TAG_subrange_type) {
                if (dwarf_formudata(dwarf_attr(&range, DW_AT_count, &attr), &count) != 0 &&
                    dwarf_formudata(dwarf_attr(&range, DW_AT_upper_bound, &attr), &upper) == 0)
                    count = upper + 1;
            }
            nodes_[index].count = count;
            nodes_[index].ref = node_of(&inner, depth + 1, false);
            return index;
        }
        // What D cannot hold: an integer of the right size.
        const uint32_t index = add(DTRACE_TYPE_INTEGER, size == 1   ? "uint8_t"
                                                        : size == 2 ? "uint16_t"
                                                        : size == 4 ? "uint32_t"
                                                                    : "uint64_t");
        nodes_[index].size = size == 0 ? 8 : size;
        return index;
    };
    const uint32_t root_index = node_of(&root, 0, true);
    for (size_t i = 0; i < nodes_.size(); ++i) {
        nodes_[i].nmembers = static_cast<uint32_t>(members_[i].size());
        nodes_[i].members = members_[i].empty() ? nullptr : members_[i].data();
        nodes_[i].nenumerators = static_cast<uint32_t>(enumerators_[i].size());
        nodes_[i].enumerators = enumerators_[i].empty() ? nullptr : enumerators_[i].data();
    }
    graph_ = dtrace_type_graph{sizeof graph_, static_cast<uint32_t>(nodes_.size()), nodes_.data(), root_index};
    return &graph_;
}

} // namespace dtrace::pid
