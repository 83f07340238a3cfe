// sema_symbols.cpp: the program's variable and aggregation tables.
//
// Ids are handed out per scope from kFirstUserVariable in order of creation,
// as DTrace's identifier hashes do; aggregation ids start at 1.
#include "compiler/sema_tree.h"

#include "dif/isa.h"

namespace dtrace::compiler {

UserVar *Symbols::find(dif::Scope scope, const std::string &name) {
    auto it = var_index_.find({scope, name});
    return it == var_index_.end() ? nullptr : it->second;
}

UserVar *Symbols::create(dif::Scope scope, const std::string &name, bool is_array, int line) {
    UserVar &v = vars_.emplace_back();
    v.name = name;
    v.scope = scope;
    v.is_array = is_array;
    v.id = dif::kFirstUserVariable + next_id_[int(scope)]++;
    v.line = line;
    var_index_[{scope, name}] = &v;
    return &v;
}

Aggregation *Symbols::find_agg(const std::string &name) {
    auto it = agg_index_.find(name);
    return it == agg_index_.end() ? nullptr : it->second;
}

Aggregation *Symbols::create_agg(const std::string &name, int line) {
    Aggregation &a = aggs_.emplace_back();
    a.id = uint32_t(aggs_.size());
    a.name = name;
    a.line = line;
    agg_index_[name] = &a;
    return &a;
}

Symbols::Snapshot Symbols::save() const {
    return Snapshot{std::vector<UserVar>(vars_.begin(), vars_.end()),
                    std::vector<Aggregation>(aggs_.begin(), aggs_.end())};
}

void Symbols::restore(const Snapshot &s) {
    vars_.resize(s.vars.size());
    for (size_t i = 0; i < s.vars.size(); i++)
        vars_[i] = s.vars[i];
    aggs_.resize(s.aggs.size());
    for (size_t i = 0; i < s.aggs.size(); i++)
        aggs_[i] = s.aggs[i];
    reindex();
}

void Symbols::reindex() {
    var_index_.clear();
    agg_index_.clear();
    for (auto &n : next_id_)
        n = 0;
    for (auto &v : vars_) {
        var_index_[{v.scope, v.name}] = &v;
        next_id_[int(v.scope)]++;
    }
    for (auto &a : aggs_)
        agg_index_[a.name] = &a;
}

} // namespace dtrace::compiler
