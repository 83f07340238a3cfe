// plugin_actions.h: performing the plugins' actions from the consumer.
//
// A call to a plugin action (dtrace_action_desc) compiles to a recording
// action; when the consumer reads such a record back, the runner made here
// turns the recorded values into the SDK's dtrace_action_value array and
// hands it to the plugin that added the action.
#pragma once

#include "host/plugin_host.h"
#include "session/record_printer.h"

namespace dtrace::cli {

session::PluginActionRunner plugin_action_runner(host::PluginHost &host);

} // namespace dtrace::cli
