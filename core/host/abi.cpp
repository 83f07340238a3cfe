// abi.cpp: validation of a plugin's ops table, with the reasons users see.
#include "abi.h"

#include <cctype>
#include <string>

namespace dtrace::host::abi {

namespace {

constexpr uint32_t kLastOptionKind = DTRACE_OPTION_INTEGER;

// The entries of ops.options. The array's stride is the struct_size of its
// entries (a plugin built with a later header has larger ones), so it is
// walked by the first entry's size, never by this header's sizeof.
std::vector<const dtrace_option_desc *> declared_options(const dtrace_plugin_ops &ops) {
    std::vector<const dtrace_option_desc *> entries;
    if (ops.struct_size < kPluginOpsOptionsSize || ops.options == nullptr || ops.noptions == 0)
        return entries;
    const uint32_t stride = ops.options[0].struct_size;
    const auto *base = reinterpret_cast<const unsigned char *>(ops.options);
    for (uint32_t i = 0; i < ops.noptions; ++i)
        entries.push_back(reinterpret_cast<const dtrace_option_desc *>(base + size_t(i) * stride));
    return entries;
}

// Each declared option must be complete: a name made of D identifier
// characters (it is written after -x and in #pragma D option) and a known kind.
Status check_options(const dtrace_plugin_ops &ops) {
    if (ops.struct_size >= kPluginOpsOptionsSize && ops.options == nullptr && ops.noptions != 0)
        return Failure{"its ops table declares " + std::to_string(ops.noptions) + " options but gives none"};
    if (ops.struct_size >= kPluginOpsOptionsSize && ops.options != nullptr && ops.noptions != 0 &&
        ops.options[0].struct_size < kOptionDescV1Size)
        return Failure{"its option #1 has a malformed descriptor"};
    uint32_t index = 0;
    for (const dtrace_option_desc *entry : declared_options(ops)) {
        const dtrace_option_desc &desc = *entry;
        const std::string which = "its option #" + std::to_string(++index);
        if (desc.struct_size != ops.options[0].struct_size)
            return Failure{which + " has a malformed descriptor"};
        if (desc.name == nullptr || desc.name[0] == '\0')
            return Failure{which + " has no name"};
        for (const char *c = desc.name; *c != '\0'; ++c)
            if (!std::isalnum(static_cast<unsigned char>(*c)) && *c != '_')
                return Failure{which + " has a name that is not an identifier: '" + desc.name + "'"};
        if (desc.kind > kLastOptionKind)
            return Failure{which + " ('" + desc.name + "') has an unknown kind " + std::to_string(desc.kind)};
    }
    return {};
}

} // namespace

Status check_plugin_ops(const dtrace_plugin_ops *ops) {
    if (ops == nullptr)
        return Failure{"the plugin declined to load (" DTRACE_PLUGIN_ENTRY_SYMBOL " returned NULL)"};
    // abi_version sits right after struct_size: readable before the size is trusted.
    if (ops->abi_version != kSupportedVersion)
        return Failure{"ABI version " + std::to_string(ops->abi_version) + " is not supported (this dtrace supports " +
                       std::to_string(kSupportedVersion) + ")"};
    if (ops->struct_size < kPluginOpsV1Size)
        return Failure{"its ops table is " + std::to_string(ops->struct_size) + " bytes, ABI version " +
                       std::to_string(kSupportedVersion) + " needs " + std::to_string(kPluginOpsV1Size)};
    if (ops->name == nullptr || ops->name[0] == '\0')
        return Failure{"its ops table has no name"};
    if (ops->init == nullptr)
        return Failure{"its ops table has no init entry"};
    if (ops->start != nullptr && ops->stop == nullptr)
        return Failure{"its ops table has start but no stop entry"};
    return check_options(*ops);
}

std::string plugin_version(const dtrace_plugin_ops &ops) {
    const bool present = ops.struct_size >= kPluginOpsVersionSize && ops.version != nullptr;
    return present ? std::string(ops.version) : std::string();
}

std::vector<std::string> plugin_provider_patterns(const dtrace_plugin_ops &ops) {
    std::vector<std::string> patterns;
    if (ops.struct_size < kPluginOpsProvidersSize || ops.providers == nullptr)
        return patterns;
    std::string word;
    for (const char *c = ops.providers;; ++c) {
        if (*c != '\0' && !std::isspace(static_cast<unsigned char>(*c))) {
            word += *c;
            continue;
        }
        if (!word.empty())
            patterns.push_back(std::move(word));
        word.clear();
        if (*c == '\0')
            return patterns;
    }
}

std::string plugin_counter_array(const dtrace_plugin_ops &ops) {
    const bool present = ops.struct_size >= kPluginOpsCountersSize && ops.counter_array != nullptr;
    return present ? std::string(ops.counter_array) : std::string();
}

std::vector<PluginOption> plugin_options(const dtrace_plugin_ops &ops) {
    std::vector<PluginOption> options;
    for (const dtrace_option_desc *entry : declared_options(ops)) {
        const dtrace_option_desc &desc = *entry;
        PluginOption option;
        option.name = desc.name;
        option.kind = static_cast<dtrace_option_kind>(desc.kind);
        if (desc.default_value != nullptr)
            option.default_value = desc.default_value;
        option.description = desc.description == nullptr ? "" : desc.description;
        options.push_back(std::move(option));
    }
    return options;
}

} // namespace dtrace::host::abi
