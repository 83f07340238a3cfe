// aggregation_store.cpp: aggregation tables and their per-firing update.
#include "engine/aggregation_store.h"

#include <algorithm>
#include <cstring>

namespace dtrace::engine {

const uint64_t AggregationStore::kEmptyKeyHash = AggregationTable::hash({});

namespace {

// An integer key takes the size of its type, as DTrace records it (the
// low-order bytes of the value; little-endian hosts only, like the rest of
// the record format).
size_t integer_key_size(const dif::TypeDesc &type) {
    return type.size >= 1 && type.size <= sizeof(uint64_t) ? type.size : sizeof(uint64_t);
}

size_t entry_cost(std::string_view key, const std::vector<int64_t> &data) {
    return AggregationTable::entry_bytes(key.size(), data.size());
}
} // namespace

void AggregationStore::add_program(const compiler::Program &program) {
    for (const compiler::AggregationDecl &decl : program.aggregations) {
        auto key = std::make_pair(&program, decl.id);
        if (by_program_id_.count(key))
            continue;
        // The programs of one run share their aggregations by name (@a of a
        // later -n program is the @a of an earlier one).
        if (auto shared = by_name_.find(decl.name); shared != by_name_.end()) {
            by_program_id_[key] = shared->second;
            continue;
        }
        Aggregation &a = aggregations_.emplace_back();
        a.decl = &decl;
        a.program = &program;
        a.order = static_cast<uint32_t>(aggregations_.size());
        by_program_id_[key] = &a;
        by_name_[decl.name] = &a;
    }
}

AggregationStore::Aggregation *AggregationStore::resolve(const compiler::Program &program, uint32_t id) {
    auto it = by_program_id_.find(std::make_pair(&program, id));
    return it == by_program_id_.end() ? nullptr : it->second;
}

bool AggregationStore::encode_key(const compiler::Action &action, dif::Vm &vm, dif::Environment &env,
                                  dif::Fault &fault) {
    key_.clear();
    for (const dif::Difo &difo : action.args) {
        uint64_t v = vm.run(difo, env, fault);
        if (fault.kind != dif::FaultKind::None)
            return false;
        switch (difo.rtype.kind) {
        case dif::TypeDesc::Kind::Integer:
            key_.append(reinterpret_cast<const char *>(&v), integer_key_size(difo.rtype));
            break;
        case dif::TypeDesc::Kind::String: {
            std::string_view s;
            if (!vm.load_string(v, s, fault))
                return false;
            key_.append(s);
            key_.push_back('\0');
            break;
        }
        case dif::TypeDesc::Kind::ByRef: {
            std::string_view bytes;
            if (!vm.load_bytes(v, difo.rtype.size, bytes, fault))
                return false;
            key_.append(bytes);
            break;
        }
        }
    }
    return true;
}

AggregationStore::Binding AggregationStore::bind(const compiler::Program &program, const compiler::Action &action) {
    Binding b{&action, resolve(program, action.aggregation)};
    if (action.args.empty()) {
        b.shape = KeyShape::None;
    } else if (action.args.size() == 1 && action.args[0].rtype.kind == dif::TypeDesc::Kind::Integer) {
        b.shape = KeyShape::Integer;
        b.key_size = static_cast<uint8_t>(integer_key_size(action.args[0].rtype));
        b.key_builtin = dif::Vm::plain_builtin(action.args[0]);
    }
    if (action.agg_args.size() > 0)
        b.value_builtin = dif::Vm::plain_builtin(action.agg_args[0]);
    if (action.agg_args.size() > 1)
        b.increment_builtin = dif::Vm::plain_builtin(action.agg_args[1]);
    b.direct = b.aggregation != nullptr && (b.shape == KeyShape::None || b.key_builtin) &&
               action.agg_args.size() <= 2 && (action.agg_args.size() < 1 || b.value_builtin) &&
               (action.agg_args.size() < 2 || b.increment_builtin);
    b.constant = b.direct && b.shape == KeyShape::None && action.agg_args.empty();
    return b;
}

bool AggregationStore::apply(const Binding &binding, dif::Vm &vm, dif::Environment &env, dif::Fault &fault) {
    const compiler::Action &action = *binding.action;
    // The key's bytes, as encode_key() would make them.
    std::string_view key;
    uint64_t hash = 0;
    uint64_t integer_key = 0;
    switch (binding.shape) {
    case KeyShape::None:
        hash = kEmptyKeyHash;
        break;
    case KeyShape::Integer:
        if (binding.key_builtin) {
            integer_key = env.builtin(*binding.key_builtin); // what vm.run() would do, minus its checks
        } else {
            integer_key = vm.run(action.args[0], env, fault);
            if (fault.kind != dif::FaultKind::None)
                return false;
        }
        // The low-order bytes (little-endian hosts only, as the record format).
        key = std::string_view(reinterpret_cast<const char *>(&integer_key), binding.key_size);
        hash = AggregationTable::hash_short(key.data(), key.size());
        break;
    case KeyShape::Tuple:
        if (!encode_key(action, vm, env, fault))
            return false;
        key = key_;
        hash = AggregationTable::hash(key);
        break;
    }
    int64_t value = 0, increment = 1;
    if (!action.agg_args.empty()) {
        value = static_cast<int64_t>(vm.run(action.agg_args[0], env, fault));
        if (fault.kind != dif::FaultKind::None)
            return false;
    }
    if (action.agg_args.size() > 1) {
        increment = static_cast<int64_t>(vm.run(action.agg_args[1], env, fault));
        if (fault.kind != dif::FaultKind::None)
            return false;
    }
    aggregate(*binding.aggregation, key, hash, value, increment);
    return true;
}

AggregationTable::Entry *AggregationStore::add_entry(Aggregation &aggregation, std::string_view key, uint64_t hash) {
    const compiler::AggregationDecl &decl = *aggregation.decl;
    std::vector<int64_t> data = aggdata::aggregate_init(decl.func, decl.params);
    size_t cost = entry_cost(key, data);
    if (limit_ != 0 && used_ + cost > limit_) {
        drops_++;
        return nullptr;
    }
    used_ += cost;
    return &aggregation.table.insert(key, hash, std::move(data));
}

void AggregationStore::merge(Aggregation &aggregation, std::string_view key, std::span<const int64_t> data) {
    const uint64_t hash = AggregationTable::hash(key);
    AggregationTable::Entry *entry = aggregation.table.find(key, hash);
    if (!entry)
        entry = add_entry(aggregation, key, hash);
    if (entry)
        aggdata::aggregate_merge(aggregation.decl->func, entry->data, data);
}

std::vector<AggregationStore::Snapshot> AggregationStore::snapshot() const {
    std::vector<Snapshot> out;
    for (const Aggregation &a : aggregations_) {
        Snapshot s{a.decl, a.program, {}};
        s.entries.reserve(a.table.size());
        for (const AggregationTable::Entry &e : a.table.entries())
            s.entries.emplace_back(e.key, e.data);
        out.push_back(std::move(s));
    }
    return out;
}

void AggregationStore::clear(Aggregation &aggregation) {
    for (AggregationTable::Entry &e : aggregation.table.entries())
        std::fill(e.data.begin(), e.data.end(), 0);
}

void AggregationStore::remove(Aggregation &aggregation, const std::vector<std::string> &keys) {
    const size_t before = aggregation.table.size();
    size_t cost = 0;
    for (const AggregationTable::Entry &e : aggregation.table.entries())
        cost += entry_cost(e.key, e.data);
    aggregation.table.erase(keys);
    for (const AggregationTable::Entry &e : aggregation.table.entries())
        cost -= entry_cost(e.key, e.data);
    used_ -= std::min(used_, before == aggregation.table.size() ? 0 : cost);
}

std::vector<DecodedKey> decode_key(const compiler::AggregationDecl &decl, std::string_view key) {
    std::vector<DecodedKey> out;
    size_t pos = 0;
    for (const dif::TypeDesc &type : decl.key_types) {
        DecodedKey k{DecodedKey::Kind::Integer};
        switch (type.kind) {
        case dif::TypeDesc::Kind::Integer: {
            const size_t size = integer_key_size(type);
            if (pos + size > key.size())
                return out;
            std::memcpy(&k.integer, key.data() + pos, size); // the low bytes: zero-extended
            pos += size;
            break;
        }
        case dif::TypeDesc::Kind::String: {
            size_t end = key.find('\0', pos);
            if (end == std::string_view::npos)
                return out;
            k.kind = DecodedKey::Kind::String;
            k.bytes = key.substr(pos, end - pos);
            pos = end + 1;
            break;
        }
        case dif::TypeDesc::Kind::ByRef:
            if (pos + type.size > key.size())
                return out;
            k.kind = DecodedKey::Kind::Bytes;
            k.bytes = key.substr(pos, type.size);
            pos += type.size;
            break;
        }
        out.push_back(k);
    }
    return out;
}

} // namespace dtrace::engine
