// variables.cpp: D variable semantics over slots and the dynamic store.
#include "dif/variables.h"

#include "dif/isa.h"
#include "dif/memory.h"

#include <algorithm>
#include <cstring>

namespace dtrace::dif {

namespace {

// Which kind of dynamic variable a key names (above the id in DynamicKey::variable).
enum KeyKind : uint64_t { kGlobalArrayKey = 1, kThreadScalarKey, kThreadArrayKey };
constexpr unsigned kKeyKindShift = 32;

bool usable_type(const TypeDesc &t) {
    switch (t.kind) {
    case TypeDesc::Kind::Integer:
        return t.size >= 1 && t.size <= sizeof(uint64_t);
    case TypeDesc::Kind::String:
        return true;
    case TypeDesc::Kind::ByRef:
        return t.size >= 1 && t.size <= kMaxByRefSize;
    }
    return false;
}

} // namespace

Variables::Variables(const VariablesConfig &config) : strsize_(config.strsize), dynamic_(config.dynvarsize) {}

bool Variables::declare(const Variable &var) {
    if (var.id < kFirstUserVariable || var.id > kMaxVariableId || !usable_type(var.type))
        return false;
    if (var.scope == Scope::ClauseLocal && var.is_array)
        return false;
    ScopeTable &t = table(var.scope);
    size_t index = var.id - kFirstUserVariable;
    if (index < t.decls.size() && t.decls[index]) {
        const Variable &old = t.decls[index]->var;
        return old.is_array == var.is_array && old.type == var.type;
    }
    if (index >= t.decls.size()) {
        t.decls.resize(index + 1);
        t.slots.resize(index + 1);
    }
    uint32_t capacity = sizeof(uint64_t);
    if (var.type.kind == TypeDesc::Kind::String)
        capacity = strsize_;
    else if (var.type.kind == TypeDesc::Kind::ByRef)
        capacity = var.type.size;
    t.decls[index] = std::make_unique<VarDecl>(VarDecl{var, capacity});
    if (var.type.kind != TypeDesc::Kind::Integer && !var.is_array && var.scope != Scope::ThreadLocal)
        t.slots[index].buffer = std::make_unique<uint8_t[]>(capacity);
    return true;
}

uint64_t Variables::take_drops() {
    uint64_t fresh = dynamic_.drops() - drops_taken_;
    drops_taken_ = dynamic_.drops();
    return fresh;
}

bool Variables::clears(const VarDecl &decl, const StoreSource &source) const {
    switch (decl.var.type.kind) {
    case TypeDesc::Kind::Integer:
        return source.value == 0;
    case TypeDesc::Kind::String:
        return !source.bytes || source.length == 0;
    case TypeDesc::Kind::ByRef:
        return !source.bytes;
    }
    return true;
}

void Variables::write(const VarDecl &decl, uint8_t *buffer, const StoreSource &source) const {
    switch (decl.var.type.kind) {
    case TypeDesc::Kind::Integer:
        std::memcpy(buffer, &source.value, sizeof source.value);
        break;
    case TypeDesc::Kind::String: {
        // memmove: storing a variable's own string back into it is allowed.
        size_t n = std::min<size_t>(source.length, decl.capacity - 1);
        std::memmove(buffer, source.bytes, n);
        buffer[n] = 0;
        break;
    }
    case TypeDesc::Kind::ByRef:
        std::memmove(buffer, source.bytes, std::min<size_t>(source.length, decl.capacity));
        break;
    }
}

VarValue Variables::read(const VarDecl &decl, const uint8_t *buffer) const {
    if (decl.var.type.kind == TypeDesc::Kind::Integer) {
        uint64_t v;
        std::memcpy(&v, buffer, sizeof v);
        return {v};
    }
    return {reinterpret_cast<uint64_t>(buffer), buffer, decl.capacity};
}

VarValue Variables::unset(const VarDecl &decl) const {
    if (decl.var.type.kind == TypeDesc::Kind::String)
        return {reinterpret_cast<uint64_t>(kEmptyString)};
    return {};
}

DynamicKey Variables::dynamic_key(const VarDecl &decl, uint64_t tid, TupleKey tuple) {
    bool thread = decl.var.scope == Scope::ThreadLocal;
    KeyKind kind = !thread ? kGlobalArrayKey : decl.var.is_array ? kThreadArrayKey : kThreadScalarKey;
    return DynamicKey{kind << kKeyKindShift | decl.var.id, thread ? tid : 0, tuple};
}

VarValue Variables::load(const VarDecl &decl, uint64_t tid) {
    if (decl.var.scope == Scope::ThreadLocal)
        return load_element(decl, tid, {});
    ScopeTable &t = table(decl.var.scope);
    Slot &slot = t.slots[decl.var.id - kFirstUserVariable];
    if (slot.generation != t.generation)
        return unset(decl);
    return slot.buffer ? read(decl, slot.buffer.get()) : VarValue{slot.value};
}

void Variables::store(const VarDecl &decl, uint64_t tid, const StoreSource &source) {
    if (decl.var.scope == Scope::ThreadLocal)
        return store_element(decl, tid, {}, source);
    ScopeTable &t = table(decl.var.scope);
    Slot &slot = t.slots[decl.var.id - kFirstUserVariable];
    if (clears(decl, source)) {
        slot.generation = 0;
        return;
    }
    slot.generation = t.generation;
    if (slot.buffer)
        write(decl, slot.buffer.get(), source);
    else
        slot.value = source.value;
}

VarValue Variables::load_element(const VarDecl &decl, uint64_t tid, TupleKey tuple) {
    const uint8_t *value = dynamic_.find(dynamic_key(decl, tid, tuple));
    return value ? read(decl, value) : unset(decl);
}

void Variables::store_element(const VarDecl &decl, uint64_t tid, TupleKey tuple, const StoreSource &source) {
    DynamicKey key = dynamic_key(decl, tid, tuple);
    if (clears(decl, source)) {
        dynamic_.erase(key);
        return;
    }
    if (uint8_t *value = dynamic_.find_or_insert(key, decl.capacity))
        write(decl, value, source);
}

} // namespace dtrace::dif
