// session.cpp: the dtrace command's main sequence.
#include "cli/session.h"

#include "cli/library_dirs.h"

#include "cli/compile_hooks.h"
#include "cli/listing.h"
#include "cli/plugin_listing.h"
#include "cli/plugin_options.h"
#include "cli/plugin_types.h"
#include "cli/probe_filters.h"
#include "cli/provider_definitions.h"
#include "cli/provider_hints.h"
#include "cli/source_file.h"
#include "cli/tracing.h"
#include "cli/usdt_output.h"
#include "compiler/compile.h"
#include "compiler/parser.h"
#include "dif/disassembler.h"
#include "engine/enable_checks.h"
#include "fastpath/installer.h"
#include "host/plugin_search_path.h"
#include "providers/dtrace_provider.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace dtrace::cli {

namespace {

compiler::ProbeSpecKind probe_spec_kind(engine::SpecKind kind) {
    switch (kind) {
    case engine::SpecKind::Provider:
        return compiler::ProbeSpecKind::Provider;
    case engine::SpecKind::Module:
        return compiler::ProbeSpecKind::Module;
    case engine::SpecKind::Function:
        return compiler::ProbeSpecKind::Function;
    case engine::SpecKind::Name:
        break;
    }
    return compiler::ProbeSpecKind::Name;
}

// What "-n 'BEGIN { x }'" is reported as: the text up to the first { / or ;.
std::string crop_description(const std::string &text) {
    size_t cut = text.find_first_of("{/;");
    return cut == std::string::npos ? text : text.substr(0, cut);
}

bool is_directory(const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The first of the -E paths (one a line: -E given more than once) that is a directory.
std::optional<std::string> replayed_directory(const std::string &replay) {
    for (size_t start = 0; start <= replay.size();) {
        const size_t end = std::min(replay.find('\n', start), replay.size());
        std::string path = replay.substr(start, end - start);
        if (is_directory(path))
            return path;
        start = end + 1;
    }
    return std::nullopt;
}

// Drops the engine's late-probe hook when tracing is over, however execute()
// returns: it points at the session's plugins and kernel path.
struct LateProbeHookReset {
    engine::Engine &engine;
    ~LateProbeHookReset() { engine.set_late_probe_hook({}); }
};

} // namespace

Session::Session(CommandLine command_line, std::string program_name)
    : cl_(std::move(command_line)), program_name_(std::move(program_name)) {}

Session::~Session() {
    // Plugins go first: their threads may still be calling into the engine.
    host_.reset();
    engine_.reset();
    if (out_ && out_ != stdout)
        std::fclose(out_);
}

void Session::error(const std::string &message) const {
    std::fprintf(stderr, "%s: %s\n", program_name_.c_str(), message.c_str());
}

void Session::notice(const std::string &message) const {
    if (!options_.is_set("quiet"))
        error(message);
}

int Session::run() {
    if (cl_.mode == Mode::Version) {
        std::printf("%s: %s\n", program_name_.c_str(), kDLanguageVersion);
        return kExitSuccess;
    }
    if (cl_.mode == Mode::ProjectVersion) {
        std::printf("%s %s (DTrace with provider plugins; %s; plugin SDK ABI %u)\n", program_name_.c_str(),
                    DTRACE_PROJECT_VERSION, kDLanguageVersion, DTRACE_SDK_ABI_VERSION);
        return kExitSuccess;
    }
    if (!apply_options() || !load_plugins())
        return kExitError;
    if (listing_plugins()) {
        print_plugin_catalogue(host_->catalogue(), stdout);
        return kExitSuccess;
    }
    if (!start_targets() || !compile_all())
        return kExitError;
    if (cl_.mode == Mode::List)
        return list();
    if (cl_.mode == Mode::Header || cl_.mode == Mode::Link) {
        std::vector<const compiler::Program *> programs;
        for (const Compiled &c : compiled_)
            programs.push_back(c.program.get());
        return write_usdt_output(cl_, programs, program_name_);
    }
    return execute();
}

// dtrace's own options; names it does not know wait for the plugins' options
// (set_plugin_options).
bool Session::apply_options() {
    for (const OptionArg &option : cl_.options) {
        if (!options_.knows(option.name)) {
            plugin_option_args_.push_back(option);
            continue;
        }
        if (auto failure = options_.set(option.name, option.value)) {
            error("failed to set " + option.given + ": " + *failure);
            return false;
        }
    }
    return true;
}

// The options of the plugins about to be initialised, then the -x options
// that named them.
bool Session::set_plugin_options() {
    for (const std::string &note : declare_plugin_options(options_, host_->catalogue()))
        error(note);
    for (const OptionArg &option : plugin_option_args_) {
        std::optional<std::string> failure = options_.set(option.name, option.value);
        if (!failure)
            continue;
        error("failed to set " + option.given + ": " + *failure);
        if (auto owner = unloaded_option_owner(option.name, host_->catalogue()))
            error(option.given + ": " + *owner);
        return false;
    }
    return true;
}

// -x plugins=help: list the plugins found instead of tracing.
bool Session::listing_plugins() const {
    const std::string *only = options_.text("plugins");
    return only != nullptr && *only == kPluginsHelp;
}

bool Session::load_plugins() {
    engine_ = std::make_unique<engine::Engine>(options_);
    host_ = std::make_unique<host::PluginHost>(*engine_);
    host_->set_provider_types_reader(read_provider_types);
    host::PluginConfig config;
    config.builtins = {providers::dtrace_provider_ops(), providers::profile_provider_ops()};
    for (const std::string &file : options_.list("plugin"))
        config.files.emplace_back(file);
    config.search_dirs = host::standard_plugin_search_dirs();
    config.discover = !options_.is_set("noplugins");
    if (const std::string *only = options_.text("plugins"); only && !listing_plugins())
        config.only = host::split_plugin_names(*only);
    const bool replaying = options_.is_set("replay");
    if (replaying)
        config.required_capabilities = DTRACE_PLUGIN_REPLAY;
    // Said here, for every replaying plugin: not as a plugin failing to load.
    if (std::optional<std::string> directory =
            replaying ? replayed_directory(*options_.text("replay")) : std::nullopt) {
        error("failed to replay " + *directory + ": it is a directory (-E takes a trace file)");
        return false;
    }
    // A plugin the user asked for must load; a bad discovered one is only reported.
    bool fatal = false, any_error = false;
    auto report = [&](const std::vector<host::PluginDiagnostic> &diagnostics) {
        for (const host::PluginDiagnostic &d : diagnostics) {
            error(d.message);
            any_error = any_error || d.severity == host::Severity::Error;
            fatal = fatal || (d.severity == host::Severity::Error && d.requested);
        }
    };
    report(host_->discover(config));
    if (!set_plugin_options())
        return false;
    report(host_->initialise());
    if (replaying && !fatal) {
        bool any = false;
        for (const auto &plugin : host_->plugins())
            any = any || (plugin->capabilities() & DTRACE_PLUGIN_REPLAY) != 0;
        if (!any) {
            // When a replaying plugin failed to load, its own message said why.
            if (!any_error)
                error("failed to replay " + *options_.text("replay") + ": no loaded plugin replays trace files");
            fatal = true;
        }
    }
    engine_->set_core_probes(1, 2, 3);
    engine_->set_enable_hook([this](engine::Probe &probe) -> Status {
        Status status = host_->enable(probe.provider->id, probe.id, probe.cookie);
        if (!status)
            return Failure{"failed to enable " + probe.provider->name + ":" + probe.module + ":" + probe.function +
                           ":" + probe.name + ": " + status.reason()};
        return status;
    });
    return !fatal;
}

// -c commands are created stopped at exec, -p processes grabbed (stopped),
// before anything is compiled: $target is the first one's pid.
bool Session::start_targets() {
    for (const std::string &command : cl_.commands) {
        Result<TargetProcess> t = TargetProcess::create(command);
        if (!t) {
            error(t.reason());
            return false;
        }
        const int64_t pid = t->pid();
        Status execed = t->exec(host_->target_created(pid));
        host_->target_changed(pid, execed ? DTRACE_TARGET_STOPPED : DTRACE_TARGET_EXITED);
        if (!execed) {
            error(execed.reason());
            return false;
        }
        targets_.push_back(std::move(t.value()));
    }
    for (const std::string &pid : cl_.pids) {
        Result<TargetProcess> t = TargetProcess::grab(pid);
        if (!t) {
            error(t.reason());
            return false;
        }
        host_->target_grabbed(t->pid(), DTRACE_TARGET_STOPPED);
        targets_.push_back(std::move(t.value()));
    }
    return true;
}

bool Session::compile_all() {
    compiler::CompileOptions options = compile_options();
    install_compile_hooks(options, *engine_, *host_, !targets_.empty(), zero_matches_allowed());
    install_plugin_type_hooks(options, *host_);
    counters_ = std::make_unique<PluginCounters>(*host_);
    counters_->install(options);
    engine_->set_counter_reader(counters_.get());
    if (!options_.is_set("nolibs")) {
        auto libraries = read_library_dirs(options_.list("libdir"));
        if (!libraries) {
            error(libraries.reason());
            return false;
        }
        options.library_sources.insert(options.library_sources.end(), libraries->begin(), libraries->end());
    }
    compiler_ = std::make_unique<compiler::Compiler>(std::move(options));
    // -i names probes by their ids in dtrace -l's listing: every provider's
    // probes first, numbered as the listing numbers them.
    if (std::any_of(cl_.programs.begin(), cl_.programs.end(), [](const ProgramSource &s) { return s.by_id; }))
        for (const host::PluginDiagnostic &d : host_->provide_all())
            error(d.message);
    for (const ProgramSource &source : cl_.programs) {
        Compiled compiled;
        if (!compile_one(source, compiled))
            return false;
        compiled_.push_back(std::move(compiled));
    }
    return true;
}

bool Session::compile_one(const ProgramSource &source, Compiled &out) {
    out.source = &source;
    std::string text;
    compiler::ParseOptions parse_options;
    parse_options.macro_args = cl_.macro_args;
    parse_options.default_args = options_.is_set("defaultargs");
    parse_options.allow_unreferenced_args = options_.is_set("argref");
    parse_options.allow_empty = options_.is_set("empty");
    parse_options.set_option = [this](const std::string &name, const std::optional<std::string> &value) {
        std::optional<std::string_view> v;
        if (value)
            v = *value;
        return options_.set(name, v);
    };
    // Type names the D libraries and the earlier programs define parse as
    // types (casts, declarations).
    parse_options.is_type_name = [this](std::string_view name) { return compiler_->is_type_name(name); };
    parse_options.macro_vars = {{"pid", std::to_string(getpid())},   {"ppid", std::to_string(getppid())},
                                {"uid", std::to_string(getuid())},   {"gid", std::to_string(getgid())},
                                {"euid", std::to_string(geteuid())}, {"egid", std::to_string(getegid())},
                                {"pgid", std::to_string(getpgrp())}, {"sid", std::to_string(getsid(0))}};
    if (!targets_.empty())
        parse_options.macro_vars["target"] = std::to_string(targets_.front().pid());
    std::string failure_prefix;
    if (source.kind == ProgramSource::Kind::File) {
        Result<std::string> contents = read_source_file(source.text);
        if (!contents) {
            error(contents.reason());
            return false;
        }
        text = std::move(contents.value());
        failure_prefix = "failed to compile script " + source.text + ": ";
        if (cl_.cpp || options_.is_set("cpp")) {
            Result<std::string> preprocessed = preprocess(text, preprocessor_config());
            if (!preprocessed) {
                error(failure_prefix + preprocessed.reason());
                return false;
            }
            text = std::move(*preprocessed);
        }
        parse_options.macro_args[0] = source.text;
        parse_options.from_file = true;
        out.what = "script";
        out.name = source.text;
    } else {
        text = source.text;
        parse_options.probe_spec = probe_spec_kind(source.spec);
        out.what = "description";
        out.name = crop_description(source.text);
        failure_prefix = "invalid probe specifier " + source.text + ": ";
    }
    const bool errtags = options_.is_set("errtags");
    // DTrace reports no line numbers in programs given on the command line
    // (an error in a library file keeps its file and line).
    auto report = [&](compiler::Diagnostic d) {
        if (source.kind == ProgramSource::Kind::Description && d.file.empty())
            d.line = 0;
        error(failure_prefix + compiler::format_diagnostic(d, errtags));
        explain_undefined(d);
        if (d.tag == compiler::Tag::D_PDESC_ZERO && out.ast) // found typing args[]
            explain_missing_providers(*out.ast);
        return false;
    };
    compiler::ParseResult parsed = compiler::parse_program(text, parse_options);
    if (!parsed.program)
        return report(*parsed.error);
    out.ast = std::make_unique<compiler::ProgramAst>(std::move(*parsed.program));
    compiler_->update_limits(compile_options());
    compiler::CompileResult compiled = compiler_->compile(*out.ast);
    if (!compiled.program)
        return report(*compiled.error);
    out.program = std::make_unique<compiler::Program>(std::move(*compiled.program));
    if (source.by_id) { // DTrace resolves the id while parsing
        for (const compiler::Clause &clause : out.program->clauses) {
            for (const std::string &probe : clause.probes) {
                auto desc = engine::parse_probe_description(probe, engine::SpecKind::Name);
                if (desc && desc->probe_id != 0 && !engine_->probes().probe(desc->probe_id))
                    return report({compiler::Tag::D_PDESC_INVAL, 0, "", "",
                                   "invalid probe identifier " + probe + ": Unknown probe identifier"});
            }
        }
    }
    if (cl_.print_dif)
        print_dif(*out.program);
    // Descriptions given with -P/-m/-f name a field other than the probe
    // name; rewrite them into the four-field form the engine matches.
    if (source.kind == ProgramSource::Kind::Description && source.spec != engine::SpecKind::Name) {
        for (compiler::Clause &clause : out.program->clauses) {
            for (std::string &probe : clause.probes) {
                // Four fields already (the compiler's own clauses, e.g. the
                // dtrace:::ERROR clause of if/else): nothing to rewrite.
                if (std::count(probe.begin(), probe.end(), ':') == 3)
                    continue;
                auto desc = engine::parse_probe_description(probe, source.spec);
                if (!desc) {
                    error(failure_prefix + desc.reason());
                    return false;
                }
                probe = desc->to_string();
            }
        }
    }
    provide_probes(out);
    return true;
}

// What the compiler takes from the options (they may change between
// programs: pragmas set options).
compiler::CompileOptions Session::compile_options() const {
    compiler::CompileOptions options;
    options.errtags = options_.is_set("errtags");
    options.strsize = static_cast<uint32_t>(options_.number("strsize"));
    options.stackframes = static_cast<uint32_t>(options_.number("stackframes"));
    options.ustackframes = static_cast<uint32_t>(options_.number("ustackframes"));
    options.jstackframes = static_cast<uint32_t>(options_.number("jstackframes"));
    return options;
}

// cpp's arguments from -D, -U, -I and -H (or their -x spellings), in order.
PreprocessorConfig Session::preprocessor_config() const {
    PreprocessorConfig config;
    if (const std::string *path = options_.text("cpppath"))
        config.path = *path;
    for (const OptionArg &option : cl_.options) {
        if (option.name == "define")
            config.args.push_back("-D" + option.value.value_or(""));
        else if (option.name == "undef")
            config.args.push_back("-U" + option.value.value_or(""));
        else if (option.name == "incdir")
            config.args.push_back("-I" + option.value.value_or(""));
    }
    if (options_.is_set("cpphdrs"))
        config.args.emplace_back("-H");
    return config;
}

// -S: the DIF of every predicate and action, on stderr as dtrace prints it.
void Session::print_dif(const compiler::Program &program) const {
    for (const compiler::Clause &clause : program.clauses) {
        std::string where;
        for (const std::string &p : clause.probes)
            where += (where.empty() ? "" : ",") + p;
        if (clause.predicate)
            std::fputs(dif::disassemble(*clause.predicate, "predicate of " + where).c_str(), stderr);
        int index = 0;
        for (const compiler::Action &action : clause.actions) {
            index++;
            std::string label = "action #" + std::to_string(index) + " of " + where;
            if (action.value)
                std::fputs(dif::disassemble(*action.value, label).c_str(), stderr);
            for (const dif::Difo &arg : action.args)
                std::fputs(dif::disassemble(arg, label).c_str(), stderr);
            for (const dif::Difo &arg : action.agg_args)
                std::fputs(dif::disassemble(arg, label).c_str(), stderr);
        }
    }
}

// Asks the plugins for the probes a program names (providers such as
// profile create them on demand).
void Session::provide_probes(const Compiled &compiled) {
    for (const compiler::Clause &clause : compiled.program->clauses) {
        for (const std::string &text : clause.probes) {
            auto desc = engine::parse_probe_description(text, engine::SpecKind::Name);
            if (!desc || desc->probe_id != 0)
                continue;
            for (const host::PluginDiagnostic &d :
                 host_->provide({desc->provider, desc->module, desc->function, desc->name}))
                error(d.message);
        }
    }
}

bool Session::open_output() {
    if (!cl_.output_file)
        return true;
    out_ = std::fopen(cl_.output_file->c_str(), "a");
    if (!out_) {
        out_ = stdout;
        error("failed to open output file '" + *cl_.output_file + "': " + std::strerror(errno));
        return false;
    }
    return true;
}

int Session::list() {
    if (!open_output())
        return kExitError;
    Listing listing(*engine_, *host_, out_, cl_.verbose > 0);
    if (compiled_.empty()) {
        for (const host::PluginDiagnostic &d : host_->provide_all())
            error(d.message);
        listing.list_all();
        return kExitSuccess;
    }
    listing.print_header();
    for (const Compiled &c : compiled_) {
        for (const compiler::Clause &clause : c.program->clauses) {
            for (const std::string &text : clause.probes) {
                if (Status listed = listing.list_matching(text); !listed) {
                    error(listed.reason());
                    explain_missing_provider(text);
                }
            }
        }
    }
    return kExitSuccess;
}

int Session::execute() {
    if (!open_output())
        return kExitError;
    int total = 0;
    for (Compiled &c : compiled_) {
        if (engine::has_oversized_static(*c.program, static_cast<size_t>(options_.number("strsize")))) {
            error("failed to enable '" + c.name + "': DIF program content is invalid");
            return kExitError;
        }
        auto enabled = engine_->enable(*c.program, zero_matches_allowed());
        if (!enabled) {
            std::string why = enabled.error().reason;
            // In a script, a description that matches nothing is a compile
            // error with its line (D_PDESC_ZERO); -n descriptions have none.
            if (c.what == "script" && enabled.error().unmatched_line > 0) {
                compiler::Diagnostic d{compiler::Tag::D_PDESC_ZERO, enabled.error().unmatched_line, "", "", why};
                why = compiler::format_diagnostic(d, options_.is_set("errtags"));
            }
            error((c.what == "script" ? "failed to compile script " + c.name
                                      : "invalid probe specifier " + c.source->text) +
                  ": " + why);
            explain_missing_providers(*c.program);
            return kExitError;
        }
        const int matched = *enabled;
        if (!cl_.compile_only) // -e reports nothing of the enabling it does not do
            notice(c.what + " '" + c.name + "' matched " + std::to_string(matched) + " probe" +
                   (matched == 1 ? "" : "s"));
        total += matched;
    }
    if (cl_.compile_only)
        return kExitSuccess;
    if (total == 0 && !cl_.zero_matches_ok) {
        error(compiled_.empty() ? "no probes specified" : "no probes matched");
        for (const Compiled &c : compiled_)
            explain_missing_providers(*c.program);
        return kExitError;
    }
    std::unique_ptr<fastpath::Installation> kernel_path;
    LateProbeHookReset late_probes{*engine_}; // declared after kernel_path: resets the hook before it goes
    // Every program is enabled: from now on a probe registered late gets
    // its filters as it gains its clauses (before the loop below passes it,
    // it may get them twice).
    engine_->set_late_probe_hook([this](engine::Probe &probe) { return send_probe_filters(probe, *host_); });
    if (Status sent = send_probe_filters(*engine_, *host_); !sent) {
        error(sent.reason());
        return kExitError;
    }
    // Clauses that fit run in the kernel (core/fastpath); the rest, and
    // every clause with -x fastpath=off, in the engine.
    if (std::optional<std::string> refused = fastpath::install(
            *engine_, options_, [this](const std::string &line) { error(line); }, kernel_path)) {
        error(*refused);
        return kExitError;
    }
    if (kernel_path)
        engine_->set_late_probe_hook([this, installed = kernel_path.get()](engine::Probe &probe) {
            Status sent = send_probe_filters(probe, *host_);
            return sent ? installed->attach_late(probe) : sent;
        });
    Tracing tracing(*engine_, *host_, options_, out_, program_name_, targets_);
    return tracing.run();
}

bool Session::zero_matches_allowed() const {
    return cl_.zero_matches_ok || options_.is_set("zdefs");
}

// After "does not match any probes": which plugin supplies a provider that
// is not there, and why it is not loaded.
void Session::explain_missing_providers(const compiler::Program &program) const {
    for (const compiler::Clause &clause : program.clauses)
        for (const std::string &text : clause.probes)
            explain_missing_provider(text);
}

void Session::explain_missing_providers(const compiler::ProgramAst &ast) const {
    for (const compiler::TopLevel &item : ast.items)
        if (item.clause)
            for (const compiler::ProbeSpecifier &probe : item.clause->probes)
                explain_missing_provider(probe.text);
}

void Session::explain_missing_provider(const std::string &description) const {
    auto desc = engine::parse_probe_description(description, engine::SpecKind::Name);
    if (!desc || desc->provider.empty() || desc->provider.find_first_of("*?[") != std::string::npos)
        return;
    if (!explained_providers_.insert(desc->provider).second)
        return;
    if (auto hint =
            missing_provider_hint(desc->provider, engine_->probes(), host_->catalogue(), options_.is_set("replay")))
        error(*hint);
}

// After "failed to resolve curpsinfo" (or "fds has not yet been declared or
// assigned", as an array reads): the provider whose library defines it.
void Session::explain_undefined(const compiler::Diagnostic &d) const {
    constexpr std::string_view kPrefix = "failed to resolve ";
    constexpr std::string_view kUnassigned = " has not yet been declared or assigned";
    std::string name;
    if (d.tag == compiler::Tag::D_IDENT_UNDEF && d.message.rfind(kPrefix, 0) == 0)
        name = d.message.substr(kPrefix.size(), d.message.find(':') - kPrefix.size());
    else if (d.tag == compiler::Tag::D_VAR_UNDEF && d.message.ends_with(kUnassigned))
        name = d.message.substr(0, d.message.size() - kUnassigned.size());
    std::optional<std::string> provider = library_provider_of(name);
    if (!provider)
        return;
    std::string line = name + " is defined by the D library of the " + *provider + " provider";
    const engine::Provider *registered = engine_->probes().find_provider(*provider);
    if (registered != nullptr && !registered->withdrawn)
        line += ", which the " + *provider + " provider here does not define yet";
    else if (auto hint =
                 missing_provider_hint(*provider, engine_->probes(), host_->catalogue(), options_.is_set("replay")))
        line += "; " + *hint;
    else
        line += ", which no plugin found here supplies (dtrace -x plugins=help lists them)";
    error(line);
}

} // namespace dtrace::cli
