// plugin_options.cpp: declaring the plugins' -x options.
#include "cli/plugin_options.h"

namespace dtrace::cli {

namespace {

engine::OptionKind option_kind(dtrace_option_kind kind) {
    switch (kind) {
    case DTRACE_OPTION_STRING:
        return engine::OptionKind::String;
    case DTRACE_OPTION_FLAG:
        return engine::OptionKind::Flag;
    case DTRACE_OPTION_LIST:
        return engine::OptionKind::List;
    case DTRACE_OPTION_SIZE:
        return engine::OptionKind::Size;
    case DTRACE_OPTION_INTEGER:
        return engine::OptionKind::Integer;
    }
    return engine::OptionKind::String; // not reached: the host refuses other kinds
}

} // namespace

std::vector<std::string> declare_plugin_options(engine::Options &options,
                                                const std::vector<host::PluginEntry> &catalogue) {
    std::vector<std::string> notes;
    for (const host::PluginEntry &entry : catalogue) {
        if (entry.state != host::PluginState::Selected)
            continue;
        for (const host::abi::PluginOption &option : entry.options) {
            engine::OptionSpec spec{option.name.c_str(), option_kind(option.kind), engine::OptionClass::Plugin,
                                    option.default_value ? option.default_value->c_str() : nullptr};
            if (!options.declare(spec))
                notes.push_back("plugin '" + entry.name + "' option '" + option.name +
                                "' ignored: an option of that name exists already");
        }
    }
    return notes;
}

std::optional<std::string> unloaded_option_owner(const std::string &name,
                                                 const std::vector<host::PluginEntry> &catalogue) {
    for (const host::PluginEntry &entry : catalogue) {
        for (const host::abi::PluginOption &option : entry.options)
            if (option.name == name && entry.state != host::PluginState::Selected &&
                entry.state != host::PluginState::Loaded)
                return "it is an option of plugin '" + entry.name + "', which is " + describe_state(entry);
    }
    return std::nullopt;
}

std::string describe_state(const host::PluginEntry &entry) {
    switch (entry.state) {
    case host::PluginState::Selected:
        return "selected";
    case host::PluginState::Loaded:
        return "loaded";
    case host::PluginState::NotSelected:
    case host::PluginState::Failed:
    case host::PluginState::Duplicate:
        return "not loaded: " + entry.reason;
    }
    return "";
}

std::string option_value_hint(dtrace_option_kind kind) {
    switch (kind) {
    case DTRACE_OPTION_STRING:
        return "=TEXT";
    case DTRACE_OPTION_FLAG:
        return "";
    case DTRACE_OPTION_LIST:
        return "=TEXT (repeatable)";
    case DTRACE_OPTION_SIZE:
        return "=SIZE";
    case DTRACE_OPTION_INTEGER:
        return "=N";
    }
    return "";
}

} // namespace dtrace::cli
