// etw_trace_action.h: the etw_trace() action (plugin side).
//
// The plugin adds etw_trace() to D through the SDK's plugin actions (a call
// records its arguments; the consumer hands them back here in record order)
// and writes each call as a TraceLogging event to the ETL file named by
// -x etwtrace=PATH (etw_trace_event.h says what the arguments are,
// etw_trace_writer.h what the file holds). It is there with or without -E,
// so a script can write events while replaying another trace.
#pragma once

#include <memory>

#include <dtrace/provider.h>

#include "etw_trace_writer.h"

namespace dtrace::etw::plugin {

// The -x option naming etw_trace()'s output file.
inline constexpr const char *kEtwTraceOption = "etwtrace";

class EtwTraceAction {
  public:
    EtwTraceAction(dtrace_host *host, const dtrace_host_ops *ops) : host_(host), ops_(ops) {}

    // Adds etw_trace() to D. Returns 0, or -1 after report_error. A host
    // without plugin actions (an older one) just goes without.
    int register_action();
    // One recorded call. Returns 0, or -1 after report_error.
    int consume(const dtrace_action_call &call);
    // Writes the file's last buffer and its final header, reporting a failure.
    void finish();

  private:
    int fail(const std::string &message);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    std::unique_ptr<EtwTraceWriter> writer_;
    bool broken_ = false; // the file could not be written: said once
};

} // namespace dtrace::etw::plugin
