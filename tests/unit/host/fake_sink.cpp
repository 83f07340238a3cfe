// fake_sink.cpp: recording ProbeSink for the host tests.
#include "fake_sink.h"

namespace dtrace::host::test {

namespace {

constexpr size_t kMaxString = 64;

bool same_probe(const ProbeInfo &a, const ProbeInfo &b) {
    return a.module == b.module && a.function == b.function && a.name == b.name;
}

} // namespace

Result<dtrace_provider_id> FakeSink::add_provider(LoadedPlugin &owner, const dtrace_provider_info &info) {
    std::lock_guard lock(mutex_);
    for (const RecordedProvider &p : providers)
        if (p.name == info.name)
            return Failure{"provider name already in use"};
    providers.push_back({info.name, info.d_source != nullptr ? info.d_source : "", &owner});
    return static_cast<dtrace_provider_id>(providers.size());
}

dtrace_probe_id FakeSink::add_probe(dtrace_provider_id provider, const ProbeInfo &probe) {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < probes.size(); ++i)
        if (probes[i].provider == provider && same_probe(probes[i].info, probe))
            return static_cast<dtrace_probe_id>(i + 1);
    probes.push_back({provider, probe});
    return static_cast<dtrace_probe_id>(probes.size());
}

dtrace_probe_id FakeSink::lookup_probe(dtrace_provider_id provider, std::string_view module, std::string_view function,
                                       std::string_view name) const {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < probes.size(); ++i) {
        const ProbeInfo &p = probes[i].info;
        if (probes[i].provider == provider && p.module == module && p.function == function && p.name == name)
            return static_cast<dtrace_probe_id>(i + 1);
    }
    return 0;
}

void FakeSink::fire(dtrace_probe_id probe, const dtrace_event_ctx &ctx) {
    RecordedFire f{probe,
                   ctx.cpu,
                   ctx.timestamp,
                   ctx.pid,
                   ctx.tid,
                   ctx.execname ? ctx.execname : "",
                   std::vector<uint64_t>(ctx.args, ctx.args + ctx.nargs),
                   {},
                   ctx.flags};
    for (uint64_t address : f.args) {
        char text[kMaxString] = {};
        const bool readable =
            ctx.read_memory != nullptr && ctx.read_memory(ctx.reader_state, address, text, sizeof text - 1) > 0;
        f.arg_strings.emplace_back(readable ? text : "");
    }
    std::lock_guard lock(mutex_);
    fires.push_back(std::move(f));
}

size_t FakeSink::fire_count() const {
    std::lock_guard lock(mutex_);
    return fires.size();
}

void FakeSink::report_drops(uint32_t cpu, uint64_t count, dtrace_drop_kind kind) {
    std::lock_guard lock(mutex_);
    drops += count;
}

const char *FakeSink::option(std::string_view name) const {
    auto it = options.find(std::string(name));
    return it == options.end() ? nullptr : it->second.c_str();
}

void FakeSink::report_error(std::string_view plugin, std::string_view message) {
    std::lock_guard lock(mutex_);
    errors.push_back(std::string(plugin) + ": " + std::string(message));
}

} // namespace dtrace::host::test
