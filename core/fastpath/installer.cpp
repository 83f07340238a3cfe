// installer.cpp: planning, loading, attaching and reading back (see installer.h).
#include "fastpath/installer.h"

#include "host/loaded_plugin.h"

#include <algorithm>
#include <cstring>

namespace dtrace::fastpath {

namespace {

constexpr int kMaxRounds = 4; // plans retried after a refusal
constexpr size_t kVerifierLogBytes = 1u << 20;
constexpr size_t kBytesPerAggregationEntry = 256; // aggsize / this = entries per aggregation map
constexpr size_t kBytesPerVariable = 64;          // dynvarsize / this = entries per self-> map
constexpr size_t kMinEntries = 1024, kMaxEntries = 65536;

size_t entries_for(size_t bytes, size_t per_entry) {
    return std::clamp(bytes / per_entry, kMinEntries, kMaxEntries);
}

// The plugin whose probes run programs: the first enabled probe's that has a
// fast path (one plugin's maps serve one session's programs).
struct Port {
    const dtrace_fastpath_ops *ops = nullptr;
    void *state = nullptr;
    const host::LoadedPlugin *plugin = nullptr;
};

std::string probe_name(const engine::Probe &p) {
    return p.provider->name + ":" + p.module + ":" + p.function + ":" + p.name;
}

// The probe's layout for dtrace's programs, as its plugin gives it; nothing
// when the plugin cannot run them on the probe.
std::optional<ProbeShape> shape_of(const dtrace_fastpath_ops &ops, void *state, const engine::Probe &probe) {
    dtrace_fastpath_probe layout{};
    layout.struct_size = sizeof layout;
    if (ops.probe_layout(state, probe.id, probe.cookie, &layout) != 0)
        return std::nullopt;
    return ProbeShape{layout.nargs, layout.arg_offset, (layout.flags & DTRACE_FASTPATH_SYSCALL_RETURN) != 0};
}

std::vector<ClauseRef> clauses_of(const engine::Probe &probe) {
    std::vector<ClauseRef> clauses;
    for (const engine::Ecb *ecb : probe.ecbs)
        clauses.push_back({ecb->program, ecb->clause});
    return clauses;
}

std::vector<PlannedProbe> collect_probes(engine::Engine &engine, Port &port) {
    std::vector<PlannedProbe> out;
    engine::ProbeTable &table = engine.probes();
    for (size_t id = 1; id <= table.probe_count(); ++id) {
        const engine::Probe *probe = table.probe(static_cast<dtrace_probe_id>(id));
        if (probe == nullptr || probe->ecbs.empty())
            continue;
        PlannedProbe planned;
        planned.id = probe->id;
        planned.name = probe_name(*probe);
        planned.provider = probe->provider->name;
        planned.clauses = clauses_of(*probe);
        const host::LoadedPlugin *plugin = probe->provider->owner;
        const dtrace_fastpath_ops *ops = plugin ? plugin->fastpath_ops() : nullptr;
        if (ops && (port.plugin == nullptr || port.plugin == plugin)) {
            planned.shape = shape_of(*ops, plugin->plugin_state(), *probe);
            if (planned.shape)
                port = Port{ops, plugin->plugin_state(), plugin};
        }
        out.push_back(std::move(planned));
    }
    return out;
}

const engine::Probe &probe_of(engine::Engine &engine, const PlannedProbe &p) {
    return *engine.probes().probe(p.id);
}

struct Built {
    std::vector<uint64_t> insns;
    int32_t handle = -1;
};

void read_entries(const dtrace_fastpath_ops &ops, void *state, int32_t map, const MapSpec &spec,
                  std::vector<KernelEntry> &out) {
    struct Reader {
        const MapSpec *spec;
        std::vector<KernelEntry> *out;
    } reader{&spec, &out};
    auto entry = [](void *arg, const void *key, const void *values, uint32_t nvalues) {
        Reader &r = *static_cast<Reader *>(arg);
        KernelEntry e;
        e.key.assign(static_cast<const char *>(key), r.spec->key_size);
        const size_t stride = (r.spec->value_size + 7) / 8 * 8;
        for (uint32_t cpu = 0; cpu < nvalues; cpu++) {
            std::vector<int64_t> words(r.spec->value_size / 8);
            std::memcpy(words.data(), static_cast<const char *>(values) + cpu * stride, words.size() * 8);
            e.cpu_values.push_back(std::move(words));
        }
        r.out->push_back(std::move(e));
    };
    ops.read_map(state, map, entry, &reader);
}

} // namespace

Installation::Installation(engine::Engine &engine, const dtrace_fastpath_ops &ops, void *state,
                           const host::LoadedPlugin *plugin)
    : engine_(engine), ops_(ops), state_(state), plugin_(plugin) {}

Installation::~Installation() {
    engine_.set_kernel_hooks({}, {});
}

void Installation::merge_aggregations() {
    for (const auto &[name, agg] : plan_.aggregations) {
        std::vector<KernelEntry> entries;
        read_entries(ops_, state_, map_handles_[agg.map], plan_.maps[agg.map], entries);
        for (const AggregationDeltas::Change &change : deltas_.changes(agg, entries))
            engine_.merge_aggregation(*agg.program, agg.decl->id, change.first, change.second);
    }
}

Status Installation::attach_late(const engine::Probe &probe) {
    if (probe.provider->owner != plugin_)
        return {};
    const std::optional<ProbeShape> shape = shape_of(ops_, state_, probe);
    if (!shape)
        return {};
    auto program = programs_.find({*shape, clauses_of(probe)});
    if (program == programs_.end())
        return {};
    if (ops_.attach_program(state_, program->second, probe.id, probe.cookie) != 0)
        return Failure{"failed to enable " + probe_name(probe) + ": its clauses' kernel program could not be attached"};
    return {};
}

void Installation::merge_drops() {
    std::vector<KernelEntry> entries;
    read_entries(ops_, state_, map_handles_[MapPlan::kDrops], plan_.maps[MapPlan::kDrops], entries);
    uint64_t now[2] = {0, 0};
    for (const KernelEntry &e : entries) {
        uint32_t index = 0;
        std::memcpy(&index, e.key.data(), std::min(e.key.size(), sizeof index));
        if (index < 2)
            for (const std::vector<int64_t> &v : e.cpu_values)
                now[index] += v.empty() ? 0 : static_cast<uint64_t>(v[0]);
    }
    engine_.add_kernel_drops(now[0] - drops_seen_[0], now[1] - drops_seen_[1]);
    drops_seen_[0] = now[0];
    drops_seen_[1] = now[1];
}

class Installer {
  public:
    Installer(engine::Engine &engine, const engine::Options &options, const ExplainFn &explain)
        : engine_(engine), explain_(explain) {
        sizes_.aggregation_entries =
            entries_for(static_cast<size_t>(options.number("aggsize")), kBytesPerAggregationEntry);
        sizes_.variable_entries = entries_for(static_cast<size_t>(options.number("dynvarsize")), kBytesPerVariable);
    }

    std::optional<std::string> run(std::unique_ptr<Installation> &out) {
        Port port;
        const std::vector<PlannedProbe> probes = collect_probes(engine_, port);
        std::map<ClauseRef, std::string> forced;
        for (int round = 0; round < kMaxRounds; round++) {
            Plan plan = make_plan(probes, forced, sizes_);
            if (plan.groups.empty()) {
                explain_user_space(plan);
                return std::nullopt;
            }
            auto installation =
                std::unique_ptr<Installation>(new Installation(engine_, *port.ops, port.state, port.plugin));
            installation->plan_ = sizes_;
            std::vector<Built> built;
            if (!build(plan, *installation, built, forced) || !create_maps(*installation, forced, plan) ||
                !load(plan, *installation, built, forced))
                continue;
            if (auto failed = attach(plan, *installation, built))
                return failed;
            explain_plan(plan, built);
            Installation *raw = installation.get();
            engine_.set_kernel_hooks([raw] { raw->merge_aggregations(); }, [raw] { raw->merge_drops(); });
            out = std::move(installation);
            return std::nullopt;
        }
        return std::nullopt; // every round refused: everything stays in user space
    }

  private:
    static void force(const Plan &plan, const std::string &why, std::map<ClauseRef, std::string> &forced) {
        for (const auto &[key, group_probes] : plan.groups)
            for (const ClauseRef &c : key.second)
                forced.try_emplace(c, why);
    }

    bool build(const Plan &plan, Installation &inst, std::vector<Built> &built,
               std::map<ClauseRef, std::string> &forced) {
        for (const auto &[key, group_probes] : plan.groups) {
            try {
                built.push_back({build_program(inst.plan_, key.first, key.second)});
            } catch (const Refusal &refusal) {
                for (const ClauseRef &c : key.second)
                    forced.try_emplace(c, refusal.what());
                return false;
            } catch (const std::exception &e) {
                for (const ClauseRef &c : key.second)
                    forced.try_emplace(c, e.what());
                return false;
            }
        }
        return true;
    }

    bool create_maps(Installation &inst, std::map<ClauseRef, std::string> &forced, const Plan &plan) {
        for (const MapSpec &m : inst.plan_.maps) {
            dtrace_bpf_map_spec spec{sizeof spec,  uint32_t(m.type), m.key_size,
                                     m.value_size, m.max_entries,    m.name.c_str()};
            const int32_t handle = inst.ops_.create_map(inst.state_, &spec);
            if (handle < 0) {
                force(plan, "the plugin could not create the map " + m.name, forced);
                return false;
            }
            inst.map_handles_.push_back(handle);
        }
        return true;
    }

    bool load(const Plan &plan, Installation &inst, std::vector<Built> &built,
              std::map<ClauseRef, std::string> &forced) {
        std::string log(kVerifierLogBytes, '\0');
        size_t index = 0;
        for (const auto &[key, group_probes] : plan.groups) {
            Built &b = built[index++];
            dtrace_bpf_program program{};
            program.struct_size = sizeof program;
            program.name = "dtrace_clauses";
            program.insns = b.insns.data();
            program.ninsns = static_cast<uint32_t>(b.insns.size());
            program.nmaps = static_cast<uint32_t>(inst.map_handles_.size());
            program.maps = inst.map_handles_.data();
            program.log = log.data();
            program.log_size = static_cast<uint32_t>(log.size());
            b.handle = inst.ops_.load_program(inst.state_, &program);
            if (b.handle < 0) {
                const std::string why = "the kernel refused its program";
                for (const ClauseRef &c : key.second)
                    forced.try_emplace(c, why);
                explain_("fastpath: the kernel refused the program of the " + clause_name(key.second.front()) +
                         "; its clauses stay in user space. The kernel said:\n" + std::string(log.c_str()));
                return false;
            }
        }
        return true;
    }

    std::optional<std::string> attach(const Plan &plan, Installation &inst, const std::vector<Built> &built) {
        size_t index = 0;
        for (const auto &[key, group_probes] : plan.groups) {
            const Built &b = built[index++];
            inst.programs_[key] = b.handle;
            for (const PlannedProbe *p : group_probes) {
                const engine::Probe &probe = probe_of(engine_, *p);
                if (inst.ops_.attach_program(inst.state_, b.handle, probe.id, probe.cookie) != 0)
                    return "failed to enable " + p->name + ": its clauses' kernel program could not be attached";
            }
        }
        return std::nullopt;
    }

    void explain_user_space(const Plan &plan) {
        for (const auto &[clause, why] : plan.user_space)
            explain_("fastpath: " + clause_name(clause) + " stays in user space: " + why);
    }

    void explain_plan(const Plan &plan, const std::vector<Built> &built) {
        explain_user_space(plan);
        std::map<ClauseRef, std::pair<size_t, size_t>> in_kernel; // probes, instructions
        size_t index = 0;
        for (const auto &[key, group_probes] : plan.groups) {
            for (const ClauseRef &c : key.second) {
                auto &[probe_count, insns] = in_kernel[c];
                probe_count += group_probes.size();
                insns = std::max(insns, built[index].insns.size());
            }
            index++;
        }
        for (const auto &[clause, counts] : in_kernel)
            explain_("fastpath: " + clause_name(clause) + " runs in the kernel on " + std::to_string(counts.first) +
                     " probe" + (counts.first == 1 ? "" : "s") + " (a BPF program of " + std::to_string(counts.second) +
                     " instructions)");
    }

    engine::Engine &engine_;
    const ExplainFn &explain_;
    MapPlan sizes_;
};

std::optional<std::string> install(engine::Engine &engine, const engine::Options &options, const ExplainFn &explain,
                                   std::unique_ptr<Installation> &out) {
    const std::string *mode = options.text("fastpath");
    if (mode && *mode == "off")
        return std::nullopt;
    const bool explaining = mode && *mode == "explain";
    const ExplainFn quiet = [](const std::string &) {};
    return Installer(engine, options, explaining ? explain : quiet).run(out);
}

} // namespace dtrace::fastpath
