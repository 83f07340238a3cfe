// kernel_btf.cpp: loading, indexing and spelling the kernel's BTF types.
#include "kernel_btf.h"

#include <bpf/btf.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace dtrace::fbt {

namespace {

// D's name of an integer of BTF: by size and sign, so that "long unsigned
// int" is D's "unsigned long"; _Bool and char keep their names.
std::string integer_spelling(const btf_type *t, std::string_view name) {
    const uint32_t encoding = btf_int_encoding(t);
    if ((encoding & BTF_INT_BOOL) != 0)
        return "_Bool";
    if (name == "char")
        return "char";
    const bool is_signed = (encoding & BTF_INT_SIGNED) != 0;
    const char *base = nullptr;
    switch (t->size) {
    case 1:
        base = "char";
        break;
    case 2:
        base = "short";
        break;
    case 4:
        base = "int";
        break;
    case 8:
        base = "long";
        break;
    default:
        return "";
    }
    return is_signed ? std::string(base) : "unsigned " + std::string(base);
}

std::string pointer_to(const std::string &pointee) {
    return pointee.ends_with('*') ? pointee + "*" : pointee + " *";
}

} // namespace

BtfSet::BtfSet(btf *handle, const BtfSet *base) : btf_(handle), base_(base) {
    const uint32_t count = btf__type_cnt(btf_);
    const uint32_t first = base ? btf__type_cnt(base->btf_) : 1;
    for (uint32_t id = first; id < count; ++id) {
        const btf_type *t = btf__type_by_id(btf_, id);
        const uint16_t kind = btf_kind(t);
        if (t->name_off == 0 || kind == BTF_KIND_FWD || kind == BTF_KIND_DECL_TAG || kind == BTF_KIND_TYPE_TAG)
            continue;
        // The first definition of a name wins (a few kernel names repeat).
        index_[kind].emplace(btf__name_by_offset(btf_, t->name_off), id);
    }
}

BtfSet::~BtfSet() {
    btf__free(btf_);
}

uint32_t BtfSet::find(uint16_t kind, std::string_view name) const {
    if (auto of_kind = index_.find(kind); of_kind != index_.end()) {
        if (auto it = of_kind->second.find(name); it != of_kind->second.end())
            return it->second;
    }
    return base_ ? base_->find(kind, name) : 0;
}

std::string BtfSet::spell(uint32_t id) const {
    if (id == 0)
        return "void";
    const btf_type *t = btf__type_by_id(btf_, id);
    if (t == nullptr)
        return "";
    const std::string name = t->name_off ? btf__name_by_offset(btf_, t->name_off) : "";
    switch (btf_kind(t)) {
    case BTF_KIND_INT:
        return integer_spelling(t, name);
    case BTF_KIND_FLOAT:
        return t->size == 4 ? "float" : t->size == 8 ? "double" : "long double";
    case BTF_KIND_PTR: {
        const btf_type *target = btf__type_by_id(btf_, t->type);
        if (target != nullptr && btf_kind(target) == BTF_KIND_FUNC_PROTO)
            return "void *"; // D has no function pointer types
        std::string pointee = spell(t->type);
        return pointee.empty() ? "void *" : pointer_to(pointee);
    }
    case BTF_KIND_STRUCT:
        return name.empty() ? "" : "struct " + name;
    case BTF_KIND_UNION:
        return name.empty() ? "" : "union " + name;
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64:
        return name.empty() ? "" : "enum " + name;
    case BTF_KIND_FWD:
        return (btf_kflag(t) ? "union " : "struct ") + name;
    case BTF_KIND_TYPEDEF:
        return name;
    case BTF_KIND_CONST: {
        // const of a pointer (char *const) reads as the pointer in D's listing.
        std::string target = spell(t->type);
        return target.empty() || target.ends_with('*') ? target : "const " + target;
    }
    case BTF_KIND_VOLATILE:
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG: // __user, __rcu: annotations D does not keep
        return spell(t->type);
    default:
        return "";
    }
}

std::optional<FunctionPrototype> BtfSet::prototype(std::string_view function) const {
    const uint32_t id = find(BTF_KIND_FUNC, function);
    if (id == 0)
        return std::nullopt;
    const btf_type *func = btf__type_by_id(btf_, id);
    const btf_type *proto = btf__type_by_id(btf_, func->type);
    if (proto == nullptr || btf_kind(proto) != BTF_KIND_FUNC_PROTO)
        return std::nullopt;
    FunctionPrototype result;
    result.return_type = spell(proto->type);
    const btf_param *params = btf_params(proto);
    for (uint16_t i = 0; i < btf_vlen(proto); ++i) {
        if (params[i].type == 0)
            break; // "..." of a variadic function
        std::string type = spell(params[i].type);
        result.params.push_back(type.empty() ? "uint64_t" : type);
    }
    if (result.return_type.empty())
        result.return_type = "uint64_t";
    return result;
}

std::optional<BtfSet::Shape> BtfSet::shape(std::string_view function) const {
    const uint32_t id = find(BTF_KIND_FUNC, function);
    if (id == 0)
        return std::nullopt;
    const btf_type *proto = btf__type_by_id(btf_, btf__type_by_id(btf_, id)->type);
    if (proto == nullptr || btf_kind(proto) != BTF_KIND_FUNC_PROTO)
        return std::nullopt;
    Shape shape;
    const btf_param *params = btf_params(proto);
    while (shape.params < btf_vlen(proto) && params[shape.params].type != 0)
        ++shape.params;
    shape.returns_value = proto->type != 0;
    return shape;
}

live::Result<const BtfSet *> KernelBtf::vmlinux() {
    if (!vmlinux_ && vmlinux_error_.empty()) {
        const std::string path = directory_ + "/vmlinux";
        btf *handle = btf__parse(path.c_str(), nullptr);
        if (handle == nullptr)
            vmlinux_error_ = "cannot read the kernel's types from " + path + ": " + std::strerror(errno);
        else
            vmlinux_ = std::make_unique<BtfSet>(handle);
    }
    if (!vmlinux_)
        return live::Error{vmlinux_error_};
    return vmlinux_.get();
}

live::Result<const BtfSet *> KernelBtf::module(const std::string &name) {
    live::Result<const BtfSet *> base = vmlinux();
    if (!base || name.empty() || name == "vmlinux")
        return base;
    auto it = modules_.find(name);
    if (it == modules_.end()) {
        const std::string path = directory_ + "/" + name;
        btf *handle = btf__parse_split(path.c_str(), const_cast<btf *>(base.value()->handle()));
        it = modules_.emplace(name, handle ? std::make_unique<BtfSet>(handle, base.value()) : nullptr).first;
    }
    if (!it->second)
        return base; // no BTF of its own: its functions are typed from vmlinux's where they are there
    return it->second.get();
}

std::vector<const BtfSet *> KernelBtf::modules_read() const {
    std::vector<const BtfSet *> sets;
    for (const auto &[name, set] : modules_) {
        if (set)
            sets.push_back(set.get());
    }
    return sets;
}

std::vector<const BtfSet *> KernelBtf::read_all_modules() {
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator(directory_, error)) {
        const std::string name = entry.path().filename().string();
        if (name != "vmlinux")
            module(name);
    }
    return modules_read();
}

} // namespace dtrace::fbt
