// planner.cpp: deciding which clauses run in the kernel (see planner.h).
#include "fastpath/planner.h"

namespace dtrace::fastpath {

namespace {

using Variables = std::set<std::string>; // variables_of(): "self->x", "x"

// Aggregations that clear() or trunc() name: the kernel keeps min() and
// max() as they were, which the engine's merge could not undo.
std::set<std::string> reset_aggregations(const std::vector<PlannedProbe> &probes) {
    std::set<std::string> out;
    for (const PlannedProbe &p : probes)
        for (const ClauseRef &c : p.clauses)
            for (const compiler::Action &a : c.clause->actions)
                if (a.kind == compiler::ActionKind::Library)
                    for (const compiler::AggregationDecl &d : c.program->aggregations)
                        if (d.id == a.aggregation)
                            out.insert(d.name);
    return out;
}

std::optional<std::string> min_max_reset(const ClauseRef &c, const std::set<std::string> &reset) {
    for (const compiler::Action &a : c.clause->actions) {
        if (a.kind != compiler::ActionKind::Aggregate)
            continue;
        for (const compiler::AggregationDecl &d : c.program->aggregations)
            if (d.id == a.aggregation && reset.count(d.name) &&
                (d.func == compiler::AggFunc::Min || d.func == compiler::AggFunc::Max))
                return "min() and max() of an aggregation that clear() or trunc() resets stay in user space";
    }
    return std::nullopt;
}

// Each plugin's programs have maps of their own: what two plugins' probes
// share stays in user space (a clause on both, a variable used on both,
// records from both, whose rings are read one after the other).
template <typename Stay>
void keep_ports_apart(const std::vector<PlannedProbe> &probes, const std::map<ClauseRef, Variables> &variables,
                      const std::set<ClauseRef> &ordered_records, Stay &&stay) {
    std::map<ClauseRef, std::set<uint32_t>> clause_ports;
    for (const PlannedProbe &p : probes)
        if (p.shape)
            for (const ClauseRef &c : p.clauses)
                clause_ports[c].insert(p.port);
    std::map<std::string, std::set<uint32_t>> variable_ports;
    std::set<uint32_t> record_ports;
    for (const auto &[c, ports] : clause_ports) {
        if (ports.size() > 1)
            stay(c, "its probes belong to two plugins, whose kernel programs cannot share maps");
        for (const std::string &v : variables.at(c))
            variable_ports[v].insert(ports.begin(), ports.end());
        if (ordered_records.count(c))
            record_ports.insert(ports.begin(), ports.end());
    }
    for (const auto &[c, ports] : clause_ports) {
        for (const std::string &v : variables.at(c))
            if (variable_ports[v].size() > 1)
                stay(c, v + " is used on the probes of two plugins, whose kernel programs cannot share maps");
        if (record_ports.size() > 1 && ordered_records.count(c))
            stay(c, "it records, and so do clauses on another plugin's probes (two kernel rings: their records "
                    "would print out of order)");
    }
}

} // namespace

std::string clause_name(const ClauseRef &clause) {
    std::string descriptions;
    for (const std::string &p : clause.clause->probes)
        descriptions += (descriptions.empty() ? "" : ", ") + p;
    return "clause at line " + std::to_string(clause.clause->line) + " (" + descriptions + ")";
}

ProbeShape grouping_shape(ProbeShape shape, const std::vector<ClauseRef> &clauses) {
    if (!reads_arguments(clauses)) {
        shape.nargs = 0;
        shape.context.args = {};
    }
    return shape;
}

// A shared group whose probes' words are not distinct cannot tell them
// apart: each gets a program of its own.
void split_ambiguous_groups(Plan &plan) {
    std::vector<GroupKey> ambiguous;
    for (const auto &[key, group_probes] : plan.groups) {
        std::set<uint64_t> words;
        for (const PlannedProbe *p : group_probes)
            words.insert(p->identity.word);
        if (key.shared && words.size() != group_probes.size())
            ambiguous.push_back(key);
    }
    for (const GroupKey &key : ambiguous) {
        for (const PlannedProbe *p : plan.groups[key])
            plan.groups[{key.shape, p->id, key.clauses, false}].push_back(p);
        plan.groups.erase(key);
    }
}

Plan make_plan(const std::vector<PlannedProbe> &probes, const std::map<ClauseRef, std::string> &forced,
               const MapPlan &sizes) {
    Plan plan;
    plan.user_space = forced;
    auto stay = [&](const ClauseRef &c, const std::string &why) { return plan.user_space.try_emplace(c, why).second; };

    // Each clause on its own: its probes, its code (once per layout, on
    // the first probe of that layout).
    const std::set<std::string> reset = reset_aggregations(probes);
    std::map<ClauseRef, std::map<ProbeShape, ProbeIdentity>> shapes;
    std::set<ClauseRef> ordered_records; // clauses that record on probes other than the dtrace provider's
    for (const PlannedProbe &p : probes)
        for (size_t i = 0; i < p.clauses.size(); i++) {
            const ClauseRef &c = p.clauses[i];
            if (p.provider != "dtrace" && clause_records(*c.clause))
                ordered_records.insert(c);
            if (!p.shape) {
                stay(c, p.unavailable.empty() ? "the " + p.provider + " provider has no kernel path" : p.unavailable);
                continue;
            }
            ProbeIdentity identity = p.identity;
            identity.epids = {i < p.identity.epids.size() ? p.identity.epids[i] : 0};
            shapes[c].try_emplace(*p.shape, std::move(identity));
        }
    for (const auto &[clause, clause_shapes] : shapes) {
        if (plan.user_space.count(clause))
            continue;
        if (auto why = min_max_reset(clause, reset)) {
            stay(clause, *why);
            continue;
        }
        for (const auto &[shape, identity] : clause_shapes) {
            try {
                MapPlan scratch = sizes;
                build_program(scratch, shape, {clause}, &identity);
            } catch (const Refusal &refusal) {
                stay(clause, refusal.what());
                break;
            }
        }
    }

    // What a clause shares: its probes' other clauses, its variables.
    std::map<ClauseRef, Variables> variables;
    for (const PlannedProbe &p : probes)
        for (const ClauseRef &c : p.clauses)
            variables.try_emplace(c, variables_of(*c.clause));
    keep_ports_apart(probes, variables, ordered_records, stay);
    for (bool changed = true; changed;) {
        changed = false;
        for (const PlannedProbe &p : probes) {
            for (const ClauseRef &user : p.clauses) {
                if (!plan.user_space.count(user))
                    continue;
                for (const ClauseRef &c : p.clauses)
                    changed |= stay(c, "it shares " + p.name + " with the " + clause_name(user) +
                                           ", which stays in user space");
            }
        }
        for (const auto &[user, user_vars] : variables) {
            if (!plan.user_space.count(user))
                continue;
            for (const auto &[c, vars] : variables)
                for (const std::string &v : vars)
                    if (user_vars.count(v) && !plan.user_space.count(c)) {
                        changed |=
                            stay(c, v + " is also used by the " + clause_name(user) + ", which stays in user space");
                        break;
                    }
        }
        for (const ClauseRef &user : ordered_records) {
            if (!plan.user_space.count(user))
                continue;
            for (const ClauseRef &c : ordered_records)
                changed |= stay(c, "it records, and so does the " + clause_name(user) +
                                       ", which stays in user space (their records would print out of order)");
            break;
        }
    }

    for (const PlannedProbe &p : probes) {
        if (p.clauses.empty() || !p.shape || plan.user_space.count(p.clauses.front()))
            continue;
        const bool named = needs_probe_identity(p.clauses);
        const bool shared = named && p.shape->probe_word_size != 0;
        plan.groups[{grouping_shape(*p.shape, p.clauses), named && !shared ? p.id : 0, p.clauses, shared, p.port}]
            .push_back(&p);
    }
    split_ambiguous_groups(plan);
    return plan;
}

} // namespace dtrace::fastpath
