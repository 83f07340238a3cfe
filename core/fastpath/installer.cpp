// installer.cpp: planning, loading, attaching and reading back (see installer.h).
#include "fastpath/installer.h"

#include "fastpath/kernel_records.h"
#include "fastpath/planner.h"
#include "fastpath/user_stacks.h"
#include "host/abi.h"
#include "host/loaded_plugin.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <set>

namespace dtrace::fastpath {

namespace {

constexpr int kMaxRounds = 4; // plans retried after a refusal
constexpr size_t kVerifierLogBytes = 1u << 20;
constexpr size_t kBytesPerAggregationEntry = 256; // aggsize / this = entries per aggregation map
constexpr size_t kBytesPerVariable = 64;          // dynvarsize / this = entries per self-> map
constexpr size_t kMinEntries = 1024, kMaxEntries = 65536;
constexpr size_t kMinRingBytes = 1u << 16, kMaxRingBytes = 1u << 26;

// The kernel's record ring: bufsize (per CPU in DTrace) as a power of 2.
size_t ring_bytes_for(size_t bufsize) {
    size_t bytes = kMinRingBytes;
    while (bytes * 2 <= std::min(bufsize, kMaxRingBytes))
        bytes *= 2;
    return bytes;
}

// CLOCK_REALTIME - CLOCK_MONOTONIC (bpf_ktime_get_ns()'s clock), in ns.
int64_t wall_clock_offset() {
    timespec wall{}, monotonic{};
    clock_gettime(CLOCK_REALTIME, &wall);
    clock_gettime(CLOCK_MONOTONIC, &monotonic);
    return (int64_t(wall.tv_sec) - monotonic.tv_sec) * 1000000000 + (wall.tv_nsec - monotonic.tv_nsec);
}

bool can_read_rings(const dtrace_fastpath_ops &ops) {
    return host::abi::covers(&ops, host::abi::kFastpathOpsReadRingSize) && ops.read_ring != nullptr;
}

size_t entries_for(size_t bytes, size_t per_entry) {
    return std::clamp(bytes / per_entry, kMinEntries, kMaxEntries);
}

// A plugin whose probes can run programs: a port of the installation
// (Installation::Port), in the order their first probes come.
struct PluginPort {
    const dtrace_fastpath_ops *ops = nullptr;
    void *state = nullptr;
    const host::LoadedPlugin *plugin = nullptr;
};

std::string probe_name(const engine::Probe &p) {
    return p.provider->name + ":" + p.module + ":" + p.function + ":" + p.name;
}

// The probe's layout for dtrace's programs, as its plugin gives it; nothing
// when the plugin cannot run them on the probe.
bool can_update_maps(const dtrace_fastpath_ops &ops) {
    return host::abi::covers(&ops, host::abi::kFastpathOpsUpdateMapSize) && ops.update_map != nullptr;
}

bool can_skip_kernel_frames(const dtrace_fastpath_ops &ops) {
    return host::abi::covers(&ops, host::abi::kFastpathOpsKernelStackSkipSize) && ops.kernel_stack_skip != nullptr;
}

// The walk of user stacks (user_stacks.h): the plugin fills its maps with
// the probe's process's table, gives the way back for an event the walk
// declines, and says where the context holds the user registers.
bool can_walk_user_stacks(const dtrace_fastpath_ops &ops, const dtrace_fastpath_probe &layout) {
    return host::abi::covers(&ops, host::abi::kFastpathOpsFillWayBackSize) && ops.fill_user_stack_maps != nullptr &&
           ops.fill_way_back != nullptr && layout.struct_size >= host::abi::kFastpathProbeUserRegistersSize &&
           (layout.flags & DTRACE_FASTPATH_USER_REGISTERS) != 0;
}

// The plugin's count of the tracing machinery's frames atop a kernel stack.
KernelStackSkip kernel_stack_skip(const dtrace_fastpath_ops &ops, void *state) {
    if (!can_skip_kernel_frames(ops))
        return {};
    return [&ops, state](std::span<const uint64_t> frames) -> size_t {
        return ops.kernel_stack_skip(state, frames.data(), static_cast<uint32_t>(frames.size()));
    };
}

// The probe's layout for dtrace's programs, as its plugin gives it (with
// the word telling it from its plugin's other probes in `word`); nothing
// when the plugin cannot run them on the probe (`unavailable`: why, if it
// says).
std::optional<ProbeShape> shape_of(const dtrace_fastpath_ops &ops, void *state, const engine::Probe &probe,
                                   uint64_t *word = nullptr, std::string *unavailable = nullptr) {
    dtrace_fastpath_probe layout{};
    layout.struct_size = sizeof layout;
    if (ops.probe_layout(state, probe.id, probe.cookie, &layout) != 0) {
        if (unavailable && layout.unavailable)
            *unavailable = probe_name(probe) + ": " + layout.unavailable;
        return std::nullopt;
    }
    ProbeShape shape{layout.nargs,
                     layout.arg_offset,
                     (layout.flags & DTRACE_FASTPATH_SYSCALL_RETURN) != 0,
                     layout.task_real_parent,
                     layout.task_tgid,
                     layout.task_exec_runtime,
                     probe_context_of(layout)};
    shape.kernel_stacks = can_skip_kernel_frames(ops);
    if (can_walk_user_stacks(ops, layout)) {
        shape.user_stacks = true;
        shape.main_stack = {layout.task_mm, layout.mm_start_stack};
        shape.user_registers = {
            static_cast<int16_t>(layout.user_ip_offset), static_cast<int16_t>(layout.user_sp_offset),
            static_cast<int16_t>(layout.user_bp_offset), (layout.flags & DTRACE_FASTPATH_TASK_USER_REGISTERS) != 0};
    } else if (layout.user_stacks_unavailable != nullptr) {
        shape.user_stacks_unavailable = layout.user_stacks_unavailable;
    }
    if (can_update_maps(ops) && (layout.probe_word_size == 4 || layout.probe_word_size == 8)) {
        shape.probe_word_offset = layout.probe_word_offset;
        shape.probe_word_size = layout.probe_word_size;
        if (word)
            *word = layout.probe_word;
    }
    return shape;
}

// The walk of user stacks' maps filled for `probe` by its plugin (its
// process's table, its way back: user_stacks.h); why not, if it cannot.
std::optional<std::string> fill_user_stack_walk(const dtrace_fastpath_ops &ops, void *state, const MapPlan &plan,
                                                const std::vector<int32_t> &maps, const engine::Probe &probe,
                                                const ProbeShape &shape) {
    const std::optional<UserStackWalk> walk = planned_user_stack_walk(plan, shape.context.raw_tracepoint());
    if (!walk)
        return "no walk of user stacks is planned"; // not reached: a program that walks plans it
    if (ops.fill_user_stack_maps(state, probe.id, probe.cookie, maps[walk->rows_map], maps[walk->blocks_map],
                                 maps[walk->mappings_map]) != 0)
        return "the " + probe.provider->name + " provider could not give the walk of user stacks the rows of " +
               probe_name(probe) + "'s process";
    if (ops.fill_way_back(state, probe.id, probe.cookie, maps[walk->way_back_map]) != 0)
        return "the " + probe.provider->name + " provider has no way back to user space for " + probe_name(probe);
    return std::nullopt;
}

std::vector<ClauseRef> clauses_of(const engine::Probe &probe) {
    std::vector<ClauseRef> clauses;
    for (const engine::Ecb *ecb : probe.ecbs)
        clauses.push_back({ecb->program, ecb->clause});
    return clauses;
}

// The port of `plugin` (added at its first probe).
uint32_t port_of(std::vector<PluginPort> &ports, const dtrace_fastpath_ops &ops, const host::LoadedPlugin *plugin) {
    for (size_t i = 0; i < ports.size(); i++)
        if (ports[i].plugin == plugin)
            return static_cast<uint32_t>(i);
    ports.push_back({&ops, plugin->plugin_state(), plugin});
    return static_cast<uint32_t>(ports.size() - 1);
}

std::vector<PlannedProbe> collect_probes(engine::Engine &engine, std::vector<PluginPort> &ports) {
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
        planned.identity = ProbeIdentity{probe->provider->name, probe->module, probe->function, probe->name, {}};
        planned.clauses = clauses_of(*probe);
        for (const engine::Ecb *ecb : probe->ecbs)
            planned.identity.epids.push_back(ecb->epid);
        const host::LoadedPlugin *plugin = probe->provider->owner;
        const dtrace_fastpath_ops *ops = plugin ? plugin->fastpath_ops() : nullptr;
        if (ops) {
            planned.shape =
                shape_of(*ops, plugin->plugin_state(), *probe, &planned.identity.word, &planned.unavailable);
            if (planned.shape)
                planned.port = port_of(ports, *ops, plugin);
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

Installation::~Installation() {
    engine_.set_kernel_hooks({}, {});
    engine_.set_kernel_record_hook({});
}

void Installation::merge_aggregations() {
    for (Port &port : ports_)
        for (const auto &[name, agg] : port.plan.aggregations) {
            std::vector<KernelEntry> entries;
            read_entries(*port.ops, port.state, port.map_handles[agg.map], port.plan.maps[agg.map], entries);
            for (const AggregationDeltas::Change &change : port.deltas.changes(agg, entries, port.stack_skip))
                engine_.merge_aggregation(*agg.program, agg.decl->id, change.first, change.second);
        }
}

Status Installation::attach_late(const engine::Probe &probe) {
    for (uint32_t index = 0; index < ports_.size(); index++) {
        const Port &port = ports_[index];
        if (probe.provider->owner != port.plugin)
            continue;
        const std::optional<ProbeShape> shape = shape_of(*port.ops, port.state, probe);
        if (!shape)
            return {};
        const std::vector<ClauseRef> clauses = clauses_of(probe);
        // Not a probe's own program.
        auto program = port.programs.find(GroupKey{grouping_shape(*shape, clauses), 0, clauses, false, index});
        if (program == port.programs.end())
            return {};
        // A program that walks user stacks needs the probe's process's
        // table and way back; without them its events come to user space.
        if (walks_user_stacks(clauses) &&
            fill_user_stack_walk(*port.ops, port.state, port.plan, port.map_handles, probe, *shape))
            return {};
        if (port.ops->attach_program(port.state, program->second, probe.id, probe.cookie) != 0)
            return Failure{"failed to enable " + probe_name(probe) +
                           ": its clauses' kernel program could not be attached"};
    }
    return {};
}

void Installation::merge_drops() {
    for (Port &port : ports_) {
        if (port.map_handles.empty())
            continue;
        std::vector<KernelEntry> entries;
        read_entries(*port.ops, port.state, port.map_handles[MapPlan::kDrops], port.plan.maps[MapPlan::kDrops],
                     entries);
        uint64_t now[3] = {0, 0, 0};
        for (const KernelEntry &e : entries) {
            uint32_t index = 0;
            std::memcpy(&index, e.key.data(), std::min(e.key.size(), sizeof index));
            if (index < 3)
                for (const std::vector<int64_t> &v : e.cpu_values)
                    now[index] += v.empty() ? 0 : static_cast<uint64_t>(v[0]);
        }
        uint64_t *seen = port.drops_seen;
        engine_.add_kernel_drops(now[MapPlan::kAggregationDrops] - seen[MapPlan::kAggregationDrops],
                                 now[MapPlan::kVariableDrops] - seen[MapPlan::kVariableDrops]);
        if (const uint64_t lost = now[MapPlan::kRecordDrops] - seen[MapPlan::kRecordDrops])
            engine_.report_drops(0, lost, DTRACE_DROP_PRINCIPAL);
        std::copy(std::begin(now), std::end(now), seen);
    }
}

void Installation::merge_records() {
    for (Port &port : ports_)
        merge_records(port);
}

void Installation::merge_records(Port &port) {
    auto ring = port.plan.by_name.find("records");
    if (ring == port.plan.by_name.end() || port.map_handles.empty())
        return;
    struct Reader {
        Installation *self;
        const MapPlan *plan;
        const KernelStackSkip *stack_skip;
    } reader{this, &port.plan, &port.stack_skip};
    auto on_record = [](void *arg, const void *data, uint32_t size) {
        const Reader &r = *static_cast<Reader *>(arg);
        engine::Engine &engine = r.self->engine_;
        std::optional<DecodedRecord> d =
            decode_record(*r.plan, std::span<const uint8_t>(static_cast<const uint8_t *>(data), size), *r.stack_skip);
        if (d && d->fault)
            engine.report_kernel_fault(d->cpu, d->timestamp,
                                       engine::FaultRecord{d->fault->epid, static_cast<int32_t>(d->fault->action),
                                                           d->fault->pc, dif::FaultKind(d->fault->kind),
                                                           d->fault->address});
        else if (d)
            engine.append_kernel_record(d->cpu, d->epid, d->timestamp, d->values);
    };
    port.ops->read_ring(port.state, port.map_handles[ring->second], on_record, &reader);
}

class Installer {
  public:
    Installer(engine::Engine &engine, const engine::Options &options, const ExplainFn &explain)
        : engine_(engine), explain_(explain) {
        sizes_.aggregation_entries =
            entries_for(static_cast<size_t>(options.number("aggsize")), kBytesPerAggregationEntry);
        sizes_.variable_entries = entries_for(static_cast<size_t>(options.number("dynvarsize")), kBytesPerVariable);
        sizes_.ring_bytes = ring_bytes_for(static_cast<size_t>(options.number("bufsize")));
        sizes_.wall_offset_ns = wall_clock_offset();
        sizes_.strsize = static_cast<uint32_t>(std::clamp<int64_t>(options.number("strsize"), 1, UINT32_MAX));
    }

    std::optional<std::string> run(std::unique_ptr<Installation> &out) {
        std::vector<PluginPort> ports;
        const std::vector<PlannedProbe> probes = collect_probes(engine_, ports);
        std::map<ClauseRef, std::string> forced;
        for (const PlannedProbe &p : probes)
            if (p.shape && !can_read_rings(*ports[p.port].ops))
                for (const ClauseRef &c : p.clauses)
                    if (clause_records(*c.clause))
                        forced.try_emplace(c, "the " + p.provider + " provider cannot bring records from the kernel");
        for (int round = 0; round < kMaxRounds; round++) {
            Plan plan = make_plan(probes, forced, sizes_);
            if (plan.groups.empty()) {
                explain_user_space(plan);
                return std::nullopt;
            }
            auto installation = std::unique_ptr<Installation>(new Installation(engine_));
            for (const PluginPort &p : ports) {
                installation->ports_.emplace_back();
                Installation::Port &port = installation->ports_.back();
                port.ops = p.ops;
                port.state = p.state;
                port.plugin = p.plugin;
                port.plan = sizes_;
                port.stack_skip = kernel_stack_skip(*p.ops, p.state);
            }
            std::vector<Built> built;
            if (!build(plan, *installation, built, forced) || !create_maps(*installation, forced, plan) ||
                !fill_user_stacks(plan, *installation, forced) || !load(plan, *installation, built, forced))
                continue;
            if (auto failed = attach(plan, *installation, built))
                return failed;
            explain_plan(plan, built);
            Installation *raw = installation.get();
            engine_.set_kernel_hooks([raw] { raw->merge_aggregations(); }, [raw] { raw->merge_drops(); });
            engine_.set_kernel_record_hook([raw] { raw->merge_records(); });
            out = std::move(installation);
            return std::nullopt;
        }
        return std::nullopt; // every round refused: everything stays in user space
    }

  private:
    static void force(const Plan &plan, const std::string &why, std::map<ClauseRef, std::string> &forced) {
        for (const auto &[key, group_probes] : plan.groups)
            for (const ClauseRef &c : key.clauses)
                forced.try_emplace(c, why);
    }

    bool build(const Plan &plan, Installation &inst, std::vector<Built> &built,
               std::map<ClauseRef, std::string> &forced) {
        for (const auto &[key, group_probes] : plan.groups) { // a string key's width is the session's
            std::vector<const ProbeIdentity *> identities;
            for (const PlannedProbe *p : group_probes)
                identities.push_back(&p->identity);
            size_strings(inst.ports_[key.port].plan, key.clauses, identities);
        }
        for (const auto &[key, group_probes] : plan.groups) {
            // A program of one probe's (key.probe) knows it: its names, its clauses' enabled probe ids.
            const ProbeIdentity *probe = key.probe ? &group_probes.front()->identity : nullptr;
            MapPlan &maps = inst.ports_[key.port].plan;
            try {
                if (key.shared) {
                    SharedProgram shared;
                    for (const PlannedProbe *p : group_probes)
                        shared.probes.push_back(&p->identity);
                    built.push_back({build_shared_program(maps, key.shape, key.clauses, shared)});
                    continue;
                }
                built.push_back({build_program(maps, key.shape, key.clauses, probe)});
            } catch (const Refusal &refusal) {
                for (const ClauseRef &c : key.clauses)
                    forced.try_emplace(c, refusal.what());
                return false;
            } catch (const std::exception &e) {
                for (const ClauseRef &c : key.clauses)
                    forced.try_emplace(c, e.what());
                return false;
            }
        }
        return true;
    }

    // The maps of each plugin that runs a program.
    bool create_maps(Installation &inst, std::map<ClauseRef, std::string> &forced, const Plan &plan) {
        std::set<uint32_t> used;
        for (const auto &[key, group_probes] : plan.groups)
            used.insert(key.port);
        for (uint32_t index : used) {
            Installation::Port &port = inst.ports_[index];
            for (const MapSpec &m : port.plan.maps) {
                dtrace_bpf_map_spec spec{sizeof spec,  uint32_t(m.type), m.key_size,
                                         m.value_size, m.max_entries,    m.name.c_str()};
                const int32_t handle = port.ops->create_map(port.state, &spec);
                if (handle < 0) {
                    force(plan, "the plugin could not create the map " + m.name, forced);
                    return false;
                }
                port.map_handles.push_back(handle);
            }
            for (const MapPlan::Entry &e : port.plan.initial_entries)
                if (port.ops->update_map(port.state, port.map_handles[e.map], e.key.data(), e.value.data()) != 0) {
                    force(plan, "the plugin could not fill the map " + port.plan.maps[e.map].name, forced);
                    return false;
                }
        }
        return true;
    }

    // The walk of user stacks (user_stacks.h), for each probe of a group
    // whose program walks: its plugin writes the probe's process's table
    // into the walk's maps and its way back for a declined event. A probe
    // it cannot serve keeps its group's clauses in user space.
    bool fill_user_stacks(const Plan &plan, Installation &inst, std::map<ClauseRef, std::string> &forced) {
        for (const auto &[key, group_probes] : plan.groups) {
            if (!walks_user_stacks(key.clauses))
                continue;
            const Installation::Port &port = inst.ports_[key.port];
            for (const PlannedProbe *p : group_probes) {
                const std::optional<std::string> why = fill_user_stack_walk(
                    *port.ops, port.state, port.plan, port.map_handles, probe_of(engine_, *p), key.shape);
                if (!why)
                    continue;
                for (const ClauseRef &c : key.clauses)
                    forced.try_emplace(c, *why);
                return false;
            }
        }
        return true;
    }

    bool load(const Plan &plan, Installation &inst, std::vector<Built> &built,
              std::map<ClauseRef, std::string> &forced) {
        std::string log(kVerifierLogBytes, '\0');
        size_t index = 0;
        for (const auto &[key, group_probes] : plan.groups) {
            Built &b = built[index++];
            Installation::Port &port = inst.ports_[key.port];
            dtrace_bpf_program program{};
            program.struct_size = sizeof program;
            program.name = "dtrace_clauses";
            program.insns = b.insns.data();
            program.ninsns = static_cast<uint32_t>(b.insns.size());
            program.nmaps = static_cast<uint32_t>(port.map_handles.size());
            program.maps = port.map_handles.data();
            program.log = log.data();
            program.log_size = static_cast<uint32_t>(log.size());
            program.layout_flags = key.shape.context.flags;
            b.handle = port.ops->load_program(port.state, &program);
            if (b.handle < 0) {
                const std::string why = "the kernel refused its program";
                for (const ClauseRef &c : key.clauses)
                    forced.try_emplace(c, why);
                explain_("fastpath: the kernel refused the program of the " + clause_name(key.clauses.front()) +
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
            Installation::Port &port = inst.ports_[key.port];
            port.programs[key] = b.handle;
            for (const PlannedProbe *p : group_probes) {
                const engine::Probe &probe = probe_of(engine_, *p);
                if (port.ops->attach_program(port.state, b.handle, probe.id, probe.cookie) != 0)
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
        struct InKernel {
            size_t probes = 0, programs = 0, insns = 0; // insns: the largest program's
        };
        std::map<ClauseRef, InKernel> in_kernel;
        size_t index = 0;
        for (const auto &[key, group_probes] : plan.groups) {
            for (const ClauseRef &c : key.clauses) {
                InKernel &k = in_kernel[c];
                k.probes += group_probes.size();
                k.programs++;
                k.insns = std::max(k.insns, built[index].insns.size());
            }
            index++;
        }
        for (const auto &[clause, k] : in_kernel) {
            const std::string programs =
                k.programs == 1 ? "a BPF program of " : std::to_string(k.programs) + " BPF programs of up to ";
            explain_("fastpath: " + clause_name(clause) + " runs in the kernel on " + std::to_string(k.probes) +
                     " probe" + (k.probes == 1 ? "" : "s") + " (" + programs + std::to_string(k.insns) +
                     " instructions)");
        }
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
