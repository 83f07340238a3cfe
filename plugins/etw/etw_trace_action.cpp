// etw_trace_action.cpp: etw_trace() through the SDK (see etw_trace_action.h).
#include "etw_trace_action.h"

#include <cstddef>
#include <span>

namespace dtrace::etw::plugin {

namespace {
constexpr size_t kRegisterActionEnd = offsetof(dtrace_host_ops, register_action) + sizeof(void *);
constexpr size_t kCallIdsEnd = offsetof(dtrace_action_call, tid) + sizeof(int64_t);

EtwTraceWriter::Origin origin_of(const dtrace_action_call &call) {
    EtwTraceWriter::Origin origin{.time_ns = call.timestamp, .cpu = call.cpu};
    if (call.struct_size >= kCallIdsEnd) { // a host that records the firing's ids
        origin.pid = call.pid;
        origin.tid = call.tid;
    }
    return origin;
}
} // namespace

int EtwTraceAction::register_action() {
    if (ops_->struct_size < kRegisterActionEnd || ops_->register_action == nullptr) {
        return 0;
    }
    dtrace_action_desc desc{};
    desc.struct_size = sizeof desc;
    desc.name = kEtwTraceName;
    desc.prototype = kEtwTracePrototype;
    return ops_->register_action(host_, &desc);
}

int EtwTraceAction::fail(const std::string &message) {
    ops_->report_error(host_, (std::string(kEtwTraceName) + "( ): " + message).c_str());
    return -1;
}

int EtwTraceAction::consume(const dtrace_action_call &call) {
    if (broken_) {
        return 0; // the reason was given at the first failure
    }
    Result<TraceLoggingEvent> event = etw_trace_event(std::span(call.values, call.nvalues));
    if (!event) {
        return fail(event.error());
    }
    if (!writer_) {
        const char *path = ops_->get_option(host_, kEtwTraceOption);
        if (path == nullptr || *path == '\0') {
            broken_ = true;
            return fail("no file to write: name one with -x etwtrace=PATH (there is no live ETW session here)");
        }
        writer_ = std::make_unique<EtwTraceWriter>(path);
    }
    if (std::string failed = writer_->write(event.value(), origin_of(call)); !failed.empty()) {
        broken_ = !writer_->is_open();
        return fail(failed);
    }
    return 0;
}

void EtwTraceAction::finish() {
    if (writer_) {
        if (std::string failed = writer_->close(); !failed.empty()) {
            fail(failed);
        }
    }
}

} // namespace dtrace::etw::plugin
