// plugin_types.cpp: copying a plugin's dtrace_type_graph into the compiler's
// TypeGraph (the plugin's memory is valid only until its next call), with
// the ABI's size checks; a malformed graph is no answer.
#include "cli/plugin_types.h"

#include "host/abi.h"

namespace dtrace::cli {

namespace {

std::string text(const char *s) {
    return s == nullptr ? std::string() : std::string(s);
}

std::optional<compiler::TypeGraph> copy_graph(const dtrace_type_graph &in) {
    namespace abi = host::abi;
    using Kind = compiler::TypeGraphNode::Kind;
    if (in.types == nullptr || in.root >= in.ntypes)
        return std::nullopt;
    compiler::TypeGraph graph;
    graph.root = in.root;
    for (uint32_t i = 0; i < in.ntypes; ++i) {
        const dtrace_type_node &n = in.types[i];
        if (!abi::covers(&n, abi::kTypeNodeSize) || n.kind < DTRACE_TYPE_VOID || n.kind > DTRACE_TYPE_NAMED)
            return std::nullopt;
        compiler::TypeGraphNode &out = graph.nodes.emplace_back();
        out.kind = static_cast<Kind>(n.kind);
        out.name = text(n.name);
        out.size = n.size;
        out.is_signed = n.is_signed != 0;
        out.ref = n.ref;
        out.count = n.count;
        for (uint32_t m = 0; m < n.nmembers && n.members != nullptr; ++m) {
            const dtrace_type_member &member = n.members[m];
            if (!abi::covers(&member, abi::kTypeMemberSize))
                return std::nullopt;
            out.members.push_back({text(member.name), member.type, member.bit_width, member.offset_bits});
        }
        for (uint32_t e = 0; e < n.nenumerators && n.enumerators != nullptr; ++e) {
            const dtrace_type_enumerator &enumerator = n.enumerators[e];
            if (!abi::covers(&enumerator, abi::kTypeEnumeratorSize))
                return std::nullopt;
            out.enumerators.emplace_back(text(enumerator.name), enumerator.value);
        }
    }
    return graph;
}

static_assert(uint32_t(compiler::TypeGraphNode::Kind::Named) == DTRACE_TYPE_NAMED &&
              uint32_t(compiler::TypeGraphNode::Kind::Void) == DTRACE_TYPE_VOID);

} // namespace

void install_plugin_type_hooks(compiler::CompileOptions &options, host::PluginHost &host) {
    options.resolve_type = [&host](const std::string &name) -> std::optional<compiler::TypeGraph> {
        const dtrace_type_graph *graph = host.lookup_type(name);
        return graph == nullptr ? std::nullopt : copy_graph(*graph);
    };
    options.resolve_symbol = [&host](const std::string &module,
                                     const std::string &name) -> std::optional<compiler::ExternalSymbol> {
        std::optional<host::KernelSymbol> found = host.lookup_kernel_symbol(module, name);
        if (!found)
            return std::nullopt;
        return compiler::ExternalSymbol{found->address, found->type};
    };
}

} // namespace dtrace::cli
