// abi.cpp: validation of a plugin's ops table, with the reasons users see.
#include "abi.h"

#include <string>

namespace dtrace::host::abi {

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
    return {};
}

} // namespace dtrace::host::abi
