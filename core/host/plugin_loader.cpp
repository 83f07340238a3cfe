// plugin_loader.cpp: dlopen, entry symbol, ABI checks.
#include "plugin_loader.h"

#include "abi.h"

namespace dtrace::host {

namespace {

Result<PluginModule> checked(PluginModule module) {
    Status status = abi::check_plugin_ops(module.ops);
    if (!status)
        return Failure{status.reason()};
    return module;
}

} // namespace

Result<PluginModule> open_plugin(const std::filesystem::path &file) {
    Result<SharedObject> library = SharedObject::open(file);
    if (!library)
        return Failure{library.reason()};
    auto entry = reinterpret_cast<dtrace_plugin_entry_fn>(library.value().symbol(DTRACE_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr)
        return Failure{"no " DTRACE_PLUGIN_ENTRY_SYMBOL " symbol"};
    PluginModule module;
    module.file = file;
    module.ops = entry(abi::kSupportedVersion);
    module.library = std::move(library.value());
    return checked(std::move(module));
}

Result<PluginModule> builtin_plugin(const dtrace_plugin_ops *ops) {
    PluginModule module;
    module.ops = ops;
    return checked(std::move(module));
}

} // namespace dtrace::host
