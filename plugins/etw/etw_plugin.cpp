// etw_plugin.cpp: the plugin's state through the host's calls (see etw_plugin.h).
#include "etw_plugin.h"

#include <cstddef>

#include "replay_source.h"
#include "stack_keys.h"

namespace dtrace::etw::plugin {

namespace {

// Descriptions of the providers whose probes do not depend on what the file
// holds: the plugin's diag, and the core's own (a trace's provider may not
// take their names, see probe_registry.cpp).
bool needs_catalog(const dtrace_probe_spec *spec) {
    if (spec == nullptr || spec->provider == nullptr) {
        return true;
    }
    const std::string_view provider = spec->provider;
    return provider != kDiagProvider && provider != "dtrace" && provider != "profile";
}

// How far a replay without the init pass looks for StackWalk events before
// it starts (stack_attach.h): far enough for a trace that walks stacks to
// show one, little enough to cost nothing next to the replay.
constexpr uint64_t kStackPeekEvents = 1u << 16;

bool walks_stacks_early(EtlReader &reader) {
    Event event;
    for (uint64_t n = 0; n < kStackPeekEvents && reader.next(event); ++n) {
        if (is_stack_record(event)) {
            return true;
        }
    }
    return false;
}

} // namespace

int EtwPlugin::init() {
    if (trace_action_.register_action() != 0) {
        return -1;
    }
    const char *path = ops_->get_option(host_, kReplayOption);
    if (path == nullptr) {
        return 0;
    }
    paths_ = replay_paths(path);
    const char *manifest_paths = ops_->get_option(host_, kManifestOption);
    Result<ManifestSet> manifests = ManifestSet::load(manifest_paths ? manifest_paths : "");
    if (!manifests) {
        ops_->report_error(host_, manifests.error().c_str());
        return -1;
    }
    manifests_ = std::move(manifests.value());
    Result<EtlReader> reader = open_replay(paths_);
    if (!reader) {
        ops_->report_error(host_, reader.error().c_str());
        return -1;
    }
    catalog_reader_.emplace(std::move(reader.value()));
    announce_session();
    catalog_.emplace();
    registry_ = std::make_unique<ProbeRegistry>(host_, ops_, *catalog_, manifests_);
    if (!registry_->register_all() || !kernel_probes_.register_all(host_, ops_)) {
        return -1;
    }
    for (const std::unique_ptr<ReplayFamily> &family : families_) {
        if (!family->register_types(host_, ops_)) {
            return -1;
        }
    }
    return 0;
}

// Several files make one session: say which (an archive's members are
// named only here), unless -q asked for the data alone.
void EtwPlugin::announce_session() const {
    const size_t files = catalog_reader_->file_count();
    if (files < 2 || ops_->get_option(host_, "quiet") != nullptr) {
        return;
    }
    const std::string message =
        "one session of " + std::to_string(files) + " files, merged by time: " + catalog_reader_->name();
    ops_->report_error(host_, message.c_str());
}

bool EtwPlugin::catalogue() {
    if (!catalog_reader_) {
        return true;
    }
    *catalog_ = TraceCatalog::scan(*catalog_reader_, manifests_);
    catalog_reader_.reset();
    for (const std::string &problem : catalog_->metadata_problems()) {
        ops_->report_error(host_, (session_name(paths_) + ": " + problem + "; its events decode without it").c_str());
    }
    return registry_->register_catalog();
}

int EtwPlugin::provide(const dtrace_probe_spec *spec) {
    if (!replaying()) {
        return 0;
    }
    const bool family = names_family(spec);
    if (needs_catalog(spec) && !family && !catalogue()) {
        return -1;
    }
    // Descriptions that may name the families' probes: theirs, and those
    // that needed the file's own probes (a glob may match both).
    if ((family || needs_catalog(spec)) && !register_families()) {
        return -1;
    }
    return registry_->provide(spec) ? 0 : -1;
}

int EtwPlugin::set_enabled(uint64_t cookie, bool enabled) {
    const bool known =
        replaying() && (cookie >= kernel::kKernelCookieBase
                            ? kernel_probes_.set_enabled(cookie, enabled)
                            : family_set_enabled(cookie, enabled) || registry_->set_enabled(cookie, enabled));
    if (!known) {
        ops_->report_error(host_, "no such etw probe");
        return -1;
    }
    return 0;
}

// The families' probes come after the file's own (the catalog's, when a
// description needs them), so that those keep the ids they had without the
// families.
bool EtwPlugin::register_families() {
    if (families_registered_) {
        return true;
    }
    families_registered_ = true;
    for (const std::unique_ptr<ReplayFamily> &family : families_) {
        if (!family->register_probes(host_, ops_)) {
            return false;
        }
    }
    return true;
}

bool EtwPlugin::names_family(const dtrace_probe_spec *spec) const {
    if (spec == nullptr || spec->provider == nullptr) {
        return false;
    }
    for (const std::unique_ptr<ReplayFamily> &family : families_) {
        if (family->has_provider(spec->provider)) {
            return true;
        }
    }
    return false;
}

bool EtwPlugin::family_set_enabled(uint64_t cookie, bool enabled) {
    for (const std::unique_ptr<ReplayFamily> &family : families_) {
        if (family->set_enabled(cookie, enabled)) {
            return true;
        }
    }
    return false;
}

int EtwPlugin::start() {
    if (!replaying()) {
        return 0;
    }
    // Without the init pass, a look at the file's start says whether events
    // wait for their stacks from the first one on.
    const bool walks_stacks = catalog_reader_ ? walks_stacks_early(*catalog_reader_)
                                              : catalog_->index_of(stack_walk_class()) != TraceCatalog::kNotFound;
    catalog_reader_.reset(); // the replay reads the file afresh
    replay_ = std::make_unique<ReplayThread>(host_, ops_, paths_,
                                             ReplayInputs{*catalog_, manifests_, *registry_, kernel_probes_, modules_,
                                                          methods_, walks_stacks,
                                                          [paths = paths_] { return open_replay(paths); }, &families_});
    return replay_->start();
}

int EtwPlugin::lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    if (out == nullptr || out->struct_size < offsetof(dtrace_symbol, offset) + sizeof out->offset) {
        return -1;
    }
    const uint32_t process = space == DTRACE_SYMBOL_USER && pid >= 0 ? static_cast<uint32_t>(pid) : kUnknownId;
    // A jitted method is named even inside an image (precompiled code).
    if (std::optional<MethodHit> method = process == kUnknownId ? std::nullopt : methods_.find(process, address)) {
        symbol_module_ = std::move(method->module);
        symbol_function_ = std::move(method->function);
        out->module = symbol_module_.c_str();
        out->function = symbol_function_.c_str();
        out->offset = method->offset;
        return 0;
    }
    std::optional<kernel::ModuleHit> hit = modules_.find(process, address);
    if (!hit) {
        return -1;
    }
    symbol_module_ = std::move(hit->module);
    out->module = symbol_module_.c_str();
    out->function = nullptr;
    out->offset = hit->offset;
    // A trace's addresses are another machine's: name them by image offset.
    if (out->struct_size >= offsetof(dtrace_symbol, flags) + sizeof out->flags) {
        out->flags = DTRACE_SYMBOL_MODULE_OFFSET;
    }
    return 0;
}

void EtwPlugin::stop() {
    if (replay_) {
        replay_->stop();
    }
}

} // namespace dtrace::etw::plugin
