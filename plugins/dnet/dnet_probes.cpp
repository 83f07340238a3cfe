// dnet_probes.cpp: the dnet provider's table, registration, enablings and firing.
#include "dnet_probes.h"

#include <cstddef>
#include <string>

#include "dnet_library.h"

namespace dtrace::dnet {

namespace {

// The families (dnet_family.h), in the order their probes are registered.
constexpr std::span<const DnetProbe> (*kFamilies[])() = {
    gc_family,     jit_family,     event_family, lock_family,     thread_family,
    loader_family, interop_family, arm_family,   security_family,
};

constexpr const char *kProvider = "dnet";

constexpr dtrace_attribute kEvolving = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON};
constexpr dtrace_attribute kPrivate = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};

size_t provider_slot(ClrProvider provider) {
    return static_cast<size_t>(provider);
}

} // namespace

std::span<const DnetProbe> dnet_probe_table() {
    static const std::vector<DnetProbe> rows = [] {
        std::vector<DnetProbe> out;
        for (auto family : kFamilies) {
            const std::span<const DnetProbe> rows = family();
            out.insert(out.end(), rows.begin(), rows.end());
        }
        return out;
    }();
    return rows;
}

DnetProbes::DnetProbes()
    : table_(dnet_probe_table()), args_(table_, templates_), ids_(table_.size(), 0),
      enabled_(new std::atomic<dtrace_probe_id>[table_.size()]) {
    for (size_t i = 0; i < table_.size(); ++i) {
        enabled_[i].store(0);
        std::vector<std::vector<uint16_t>> &by_id = rows_by_id_[provider_slot(table_[i].provider)];
        for (uint16_t id : table_[i].ids) {
            if (id == 0) {
                continue;
            }
            if (by_id.size() <= id) {
                by_id.resize(size_t{id} + 1);
            }
            by_id[id].push_back(static_cast<uint16_t>(i));
        }
    }
}

bool DnetProbes::register_types(dtrace_host *host, const dtrace_host_ops *ops) {
    const bool has_libraries =
        ops->struct_size >= offsetof(dtrace_host_ops, register_library) + sizeof ops->register_library;
    if (!has_libraries || ops->register_library(host, kProvider, dnet_d_library().c_str()) != 0) {
        ops->report_error(host, "cannot register the dnet probes' D library");
        return false;
    }
    return true;
}

bool DnetProbes::register_probes(dtrace_host *host, const dtrace_host_ops *ops) {
    return register_provider_and_probes(host, ops, nullptr);
}

bool DnetProbes::register_probes_with_library(dtrace_host *host, const dtrace_host_ops *ops) {
    return register_provider_and_probes(host, ops, dnet_d_library().c_str());
}

bool DnetProbes::register_provider_and_probes(dtrace_host *host, const dtrace_host_ops *ops, const char *d_source) {
    host_ = host;
    ops_ = ops;
    const dtrace_provider_info info = {
        .struct_size = sizeof info,
        .name = kProvider,
        .attributes = {kEvolving, kPrivate, kPrivate, kEvolving, kEvolving},
        .d_source = d_source,
    };
    const dtrace_provider_id provider = ops->register_provider(host, &info);
    if (provider == 0) {
        return false;
    }
    for (size_t i = 0; i < table_.size(); ++i) {
        const DnetProbe &p = table_[i];
        // A name that two rows share (event:::runtime, from either provider) is one probe.
        for (size_t j = 0; j < i && ids_[i] == 0; ++j) {
            if (table_[j].family == p.family && table_[j].name == p.name) {
                ids_[i] = ids_[j];
            }
        }
        if (ids_[i] != 0) {
            continue;
        }
        const std::string family(p.family);
        const std::string name(p.name);
        const std::string translated = std::string(p.type->tag) + "_t *";
        const dtrace_arg_desc args[kDnetArgs] = {
            {sizeof(dtrace_arg_desc), "char *", translated.c_str(), 0},
            {sizeof(dtrace_arg_desc), "uint32_t", nullptr, 1},
            {sizeof(dtrace_arg_desc), "int", nullptr, 2},
            {sizeof(dtrace_arg_desc), "uint8_t", nullptr, 3},
        };
        const dtrace_probe_desc desc = {
            .struct_size = sizeof desc,
            .module = family.c_str(),
            .function = family.c_str(),
            .name = name.c_str(),
            .nargs = kDnetArgs,
            .args = args,
            .cookie = kDnetCookieBase + i,
        };
        ids_[i] = ops->register_probe(host, provider, &desc);
        if (ids_[i] == 0) {
            return false;
        }
    }
    return true;
}

bool DnetProbes::has_provider(std::string_view provider) const {
    return provider == kProvider;
}

bool DnetProbes::set_enabled(uint64_t cookie, bool enabled) {
    if (cookie < kDnetCookieBase || cookie - kDnetCookieBase >= table_.size()) {
        return false;
    }
    const size_t first = cookie - kDnetCookieBase;
    // Every row of the probe (rows sharing its id) follows.
    for (size_t row = 0; row < table_.size(); ++row) {
        if (ids_[row] != ids_[first]) {
            continue;
        }
        const dtrace_probe_id now = enabled ? ids_[row] : 0;
        const dtrace_probe_id before = enabled_[row].exchange(now, std::memory_order_acq_rel);
        if ((before != 0) != (now != 0)) {
            enabled_count_.fetch_add(now != 0 ? 1u : ~0u, std::memory_order_acq_rel);
        }
    }
    return true;
}

void DnetProbes::fire_matching(const etw::Event &event, dtrace_event_ctx &ctx, etw::plugin::EventMemory &memory) {
    if (!has_last_ || event.provider != last_guid_) {
        last_guid_ = event.provider;
        last_provider_ = clr_provider_of(event.provider);
        has_last_ = true;
    }
    const std::optional<ClrProvider> provider = last_provider_;
    if (!provider) {
        return;
    }
    const std::vector<std::vector<uint16_t>> &by_id = rows_by_id_[provider_slot(*provider)];
    if (event.id >= by_id.size()) {
        return;
    }
    for (uint16_t row : by_id[event.id]) {
        const dtrace_probe_id probe = enabled_[row].load(std::memory_order_acquire);
        if (probe == 0) {
            continue;
        }
        const DnetArgValues args = args_.build(row, event, memory);
        ctx.args = args.data();
        ctx.nargs = kDnetArgs;
        ops_->fire(host_, probe, &ctx);
    }
}

std::vector<NeededProvider> DnetProbes::needed_providers() const {
    std::vector<NeededProvider> out;
    for (size_t row = 0; row < table_.size(); ++row) {
        if (enabled_[row].load(std::memory_order_acquire) == 0) {
            continue;
        }
        const DnetProbe &p = table_[row];
        NeededProvider *needed = nullptr;
        for (NeededProvider &n : out) {
            needed = n.provider == p.provider ? &n : needed;
        }
        if (needed == nullptr) {
            needed = &out.emplace_back(NeededProvider{p.provider});
        }
        for (const ClrEvent &e : clr_events()) {
            for (uint16_t id : p.ids) {
                if (id != 0 && id == e.id && e.provider == p.provider) {
                    needed->keywords |= e.keywords;
                    needed->level = std::max(needed->level, e.level);
                }
            }
        }
    }
    return out;
}

} // namespace dtrace::dnet
