// compile_hooks.cpp: args[] typing and format checks for the compiler.
#include "cli/compile_hooks.h"

#include "cli/probe_args.h"
#include "consumer/printf_format.h"
#include "engine/unmatched_hint.h"

namespace dtrace::cli {

namespace {

consumer::ArgType to_consumer(const compiler::ArgTypeInfo &info) {
    using In = compiler::ArgTypeInfo::Kind;
    using Out = consumer::ArgType::Kind;
    consumer::ArgType t;
    switch (info.kind) {
    case In::Integer:
        t.kind = Out::Integer;
        break;
    case In::Pointer:
        t.kind = Out::Pointer;
        break;
    case In::String:
        t.kind = Out::String;
        break;
    case In::CharArray:
        t.kind = Out::CharArray;
        break;
    case In::Float:
        t.kind = Out::Float;
        break;
    case In::Struct:
        t.kind = Out::Struct;
        break;
    case In::Stack:
        t.kind = Out::Stack;
        break;
    case In::SymAddr:
        t.kind = Out::SymAddr;
        break;
    case In::USymAddr:
        t.kind = Out::USymAddr;
        break;
    }
    t.size = info.size;
    t.is_signed = info.is_signed;
    t.name = info.type_name;
    return t;
}

std::vector<consumer::ArgType> to_consumer(const std::vector<compiler::ArgTypeInfo> &args) {
    std::vector<consumer::ArgType> out;
    for (const compiler::ArgTypeInfo &a : args)
        out.push_back(to_consumer(a));
    return out;
}

// Format errors belong to the action list, as DTrace reports them.
std::optional<compiler::Diagnostic> with_line(std::optional<compiler::Diagnostic> d, int line) {
    if (d && d->line == 0)
        d->line = line;
    if (d && d->region.empty())
        d->region = "action list";
    return d;
}

// args[] types of a probe: the translated type where there is one, with the
// native type it is translated from alongside ("" when not translated).
std::pair<std::vector<std::string>, std::vector<std::string>> arg_types_of(const engine::Probe &probe) {
    std::vector<std::string> types, natives;
    for (const host::ArgType &a : probe.args) {
        const bool translated = !a.translated_type.empty() && a.translated_type != a.native_type;
        types.push_back(translated ? a.translated_type : a.native_type);
        natives.push_back(translated ? a.native_type : "");
    }
    return {types, natives};
}

// The D sources (types, inlines, translators) the loaded plugins ship: the
// libraries they share first, then each provider's own.
std::vector<compiler::LibrarySource> provider_libraries(const engine::Engine &engine) {
    std::vector<compiler::LibrarySource> libraries;
    engine.probes().for_each_library(
        [&](const std::string &name, const std::string &source) { libraries.emplace_back(name + " library", source); });
    engine.probes().for_each_provider([&](const engine::Provider &p) {
        if (!p.d_source.empty() && !p.withdrawn)
            libraries.emplace_back(p.name + " provider", p.d_source);
    });
    return libraries;
}

// #pragma D depends_on: a provider is present when a loaded plugin (or the
// core) registered it, a module when some probe of the table names it.
bool dependency_present(engine::Engine &engine, const std::string &kind, const std::string &name) {
    const engine::ProbeTable &table = engine.probes();
    if (kind == "provider") {
        const engine::Provider *p = table.find_provider(name);
        return p != nullptr && !p->withdrawn;
    }
    for (size_t id = 1; id <= table.probe_count(); ++id) {
        const engine::Probe *probe = table.probe(static_cast<dtrace_probe_id>(id));
        if (probe != nullptr && probe->module == name)
            return true;
    }
    return false;
}

// Calls visit(description) for each of `probes` that parses, once the
// plugins have been asked for the probes it names (providers such as profile
// make them only then); stops when visit returns false.
template <typename Visit>
void for_each_provided(host::PluginHost &host, const std::vector<std::string> &probes, Visit &&visit) {
    for (const std::string &text : probes) {
        auto desc = engine::parse_probe_description(text, engine::SpecKind::Name);
        if (!desc)
            continue;
        if (desc->probe_id == 0)
            (void)host.provide({desc->provider, desc->module, desc->function, desc->name});
        if (!visit(*desc))
            return;
    }
}

} // namespace

void install_compile_hooks(compiler::CompileOptions &options, engine::Engine &engine, host::PluginHost &host,
                           bool has_target, bool zero_matches_ok) {
    options.library_sources = provider_libraries(engine);
    options.dependency_present = [&engine](const std::string &kind, const std::string &name) {
        return dependency_present(engine, kind, name);
    };
    options.check_printf = [has_target](const std::string &fmt, const std::vector<compiler::ArgTypeInfo> &args,
                                        int line) {
        auto format = consumer::parse_format(fmt);
        if (!format.ok())
            return with_line(format.error(), line);
        consumer::CheckOptions check;
        check.has_target = has_target;
        std::vector<consumer::ArgType> types = to_consumer(args);
        return with_line(consumer::check_args(format.value(), types, check), line);
    };
    options.check_printa = [has_target](const std::string &fmt, const std::vector<compiler::ArgTypeInfo> &keys,
                                        bool is_count, int line) {
        auto format = consumer::parse_format(fmt);
        if (!format.ok())
            return with_line(format.error(), line);
        consumer::CheckOptions check;
        check.has_target = has_target;
        check.function = "printa";
        check.aggregation = true;
        check.aggregation_is_count = is_count;
        check.exact_length = false;
        std::vector<consumer::ArgType> types = to_consumer(keys);
        return with_line(consumer::check_args(format.value(), types, check), line);
    };
    options.check_printa_keys = [](const std::string &first, const std::vector<compiler::ArgTypeInfo> &first_keys,
                                   const std::string &other, const std::vector<compiler::ArgTypeInfo> &other_keys,
                                   int line) {
        return with_line(consumer::check_printa_keys(first, to_consumer(first_keys), other, to_consumer(other_keys)),
                         line);
    };
    options.plugin_action = [&host](const std::string &name) -> std::optional<compiler::PluginActionInfo> {
        const uint32_t id = host.find_action(name);
        if (id == 0)
            return std::nullopt;
        return compiler::PluginActionInfo{id, host.action(id)->prototype};
    };
    options.probe_arg_types = [&engine, &host, zero_matches_ok](const std::vector<std::string> &probes, int line) {
        compiler::ProbeArgTypes result;
        bool first = true;
        for_each_provided(host, probes, [&](const engine::ProbeDescription &desc) {
            bool unstable = false, matched = false;
            engine.probes().for_each_match(desc, [&](engine::Probe &probe) {
                matched = true;
                ensure_arg_types(probe, host);
                auto [types, natives] = arg_types_of(probe);
                if (first) {
                    result.types = std::move(types);
                    result.native_types = std::move(natives);
                    first = false;
                } else if (types != result.types) {
                    unstable = true;
                }
            });
            // As DTrace's, before typing args[]: the enabling would say it too.
            if (!matched && !zero_matches_ok) {
                result.error =
                    compiler::Diagnostic{compiler::Tag::D_PDESC_ZERO, line, "", "",
                                         "probe description " + desc.to_string() + " does not match any probes" +
                                             engine::unmatched_hint(engine.probes(), desc)};
                return false;
            }
            if (unstable) {
                result.error = compiler::Diagnostic{compiler::Tag::D_ARGS_MULTI, line, "", "",
                                                    "args[ ] may not be referenced because probe description " +
                                                        desc.to_string() + " matches an unstable set of probes"};
                return false;
            }
            return true;
        });
        return result;
    };
    options.memoryless_provider = [&engine, &host](const std::vector<std::string> &probes) {
        std::optional<std::string> found;
        for_each_provided(host, probes, [&](const engine::ProbeDescription &desc) {
            engine.probes().for_each_match(desc, [&](engine::Probe &probe) {
                if (!found && (probe.provider->flags & DTRACE_PROVIDER_NO_MEMORY))
                    found = probe.provider->name;
            });
            return true;
        });
        return found;
    };
}

} // namespace dtrace::cli
