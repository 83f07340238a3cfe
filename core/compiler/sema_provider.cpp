// sema_provider.cpp: a `provider` definition's probes and their argument
// types, with DTrace's checks of a definition on its own (the checks
// against an earlier definition of the same provider are the Compiler's:
// compile.cpp). dtrace -h and -G work from the result.
#include "compiler/sema.h"

#include <set>

namespace dtrace::compiler {

namespace {

// DTrace's UINT8_MAX: a probe's arguments are counted in a byte.
constexpr size_t kMaxProbeParams = 255;

bool is_void_param(const Parameter &param) {
    const TypeSpecifier &type = param.specifiers.type;
    return param.declarator.steps.empty() && type.kind == TypeSpecifier::Kind::Builtin && type.words.size() == 1 &&
           type.words[0] == "void";
}

// How many arguments a prototype declares (`(void)`: none), with DTrace's
// checks of dt_decl_prototype(); `kind` is "probe input" or "probe output".
size_t count_params(const std::vector<std::unique_ptr<Parameter>> &params, bool varargs, const char *kind, int line) {
    if (varargs)
        raise_error(Tag::D_DECL_PROTO_VARARGS, line,
                    std::string(kind) + " prototype may not use a variable-length argument list");
    size_t voids = 0;
    for (const auto &param : params)
        voids += is_void_param(*param) ? 1 : 0;
    if (voids != 0 && params.size() > 1)
        raise_error(Tag::D_DECL_PROTO_VOID, line, "void must be sole parameter");
    return voids != 0 ? 0 : params.size();
}

} // namespace

ProviderInterface Sema::provider_interface(const ProviderDef &def) {
    ProviderInterface out;
    out.name = def.name;
    std::set<std::string> seen;
    for (const ProviderProbe &probe : def.probes) {
        const std::string shown = "::" + probe.shown_name;
        const size_t nargc = count_params(probe.params, probe.params_varargs, "probe input", probe.line);
        const size_t xargc = count_params(probe.xlated_params, probe.xlated_varargs, "probe output", probe.line);
        if (nargc > kMaxProbeParams)
            raise_error(Tag::D_PROV_PRARGLEN, probe.line,
                        "probe " + shown + " input prototype exceeds " + std::to_string(kMaxProbeParams) +
                            " parameters: " + std::to_string(nargc) + " params used");
        if (xargc > kMaxProbeParams)
            raise_error(Tag::D_PROV_PRARGLEN, probe.line,
                        "probe " + shown + " output prototype exceeds " + std::to_string(kMaxProbeParams) +
                            " parameters: " + std::to_string(xargc) + " params used");
        if (!seen.insert(probe.shown_name).second)
            raise_error(Tag::D_PROV_PRDUP, probe.line, "probe redeclared: " + def.name + ":" + probe.shown_name);
        ProviderInterface::Probe p;
        p.name = probe.shown_name;
        p.written = probe.name;
        p.line = probe.line;
        for (size_t i = 0; i < nargc; ++i) {
            const Parameter &param = *probe.params[i];
            const Type *t = decl_type(param.specifiers, param.declarator, probe.line);
            ProbeArgument arg;
            arg.type_name = TypeTable::name_of(t);
            arg.is_pointer = is_pointer(t) || is_string(t);
            arg.is_scalar = is_scalar(t) || arg.is_pointer;
            arg.size = arg.is_pointer ? sizeof(uint64_t) : static_cast<uint32_t>(types_.size_of(t));
            arg.is_signed = is_integer(t) && is_signed(t);
            p.args.push_back(std::move(arg));
        }
        if (probe.has_xlated) {
            for (size_t i = 0; i < xargc; ++i) {
                const Parameter &param = *probe.xlated_params[i];
                p.translated_types.push_back(
                    TypeTable::name_of(decl_type(param.specifiers, param.declarator, probe.line)));
            }
        } else {
            for (const ProbeArgument &arg : p.args)
                p.translated_types.push_back(arg.type_name);
        }
        out.probes.push_back(std::move(p));
    }
    return out;
}

namespace {

// One prototype of a redeclared probe against the earlier one
// (dt_node_provider_cmp_argv); `kind` is "input" or "output".
void compare_prototypes(const std::string &provider, const ProviderInterface::Probe &probe, const char *kind,
                        const std::vector<std::string> &previous, const std::vector<std::string> &current) {
    auto args = [](size_t n) { return std::to_string(n) + (n != 1 ? " args" : " arg"); };
    if (previous.size() != current.size())
        raise_error(Tag::D_PROV_INCOMPAT, probe.line,
                    "probe " + provider + ":" + probe.name + " " + kind + " prototype mismatch:\n\t current: " +
                        args(current.size()) + "\n\tprevious: " + args(previous.size()));
    for (size_t i = 0; i < previous.size(); ++i) {
        if (previous[i] != current[i])
            raise_error(Tag::D_PROV_INCOMPAT, probe.line,
                        "probe " + provider + ":" + probe.name + " " + kind + " prototype argument #" +
                            std::to_string(i + 1) + " mismatch:\n\t current: " + current[i] +
                            "\n\tprevious: " + previous[i]);
    }
}

std::vector<std::string> native_types(const ProviderInterface::Probe &probe) {
    std::vector<std::string> names;
    for (const ProbeArgument &arg : probe.args)
        names.push_back(arg.type_name);
    return names;
}

} // namespace

void check_provider_redeclaration(const ProviderInterface &previous, const ProviderInterface &current) {
    for (const ProviderInterface::Probe &probe : current.probes) {
        const ProviderInterface::Probe *earlier = nullptr;
        for (const ProviderInterface::Probe &p : previous.probes)
            if (p.name == probe.name)
                earlier = &p;
        const std::string &pv = current.name;
        if (!earlier)
            raise_error(Tag::D_PROV_INCOMPAT, probe.line,
                        "provider interface mismatch: " + pv + "\n\t current: probe " + pv + ":" + probe.name +
                            " defined\n\tprevious: probe " + pv + ":" + probe.name + " not defined");
        compare_prototypes(pv, probe, "output", earlier->translated_types, probe.translated_types);
        compare_prototypes(pv, probe, "input", native_types(*earlier), native_types(probe));
    }
}

} // namespace dtrace::compiler
