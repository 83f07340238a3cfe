// plugin_actions.cpp: recorded values to the SDK's (see plugin_actions.h).
#include "cli/plugin_actions.h"

#include <algorithm>

namespace dtrace::cli {

namespace {

dtrace_action_value to_sdk(const consumer::Value &v) {
    dtrace_action_value out{};
    out.struct_size = sizeof out;
    switch (v.kind) {
    case consumer::Value::Kind::Integer:
        out.kind = DTRACE_VALUE_INTEGER;
        out.size = v.size;
        out.is_signed = v.is_signed ? 1 : 0;
        out.integer = v.bits;
        break;
    case consumer::Value::Kind::String:
        out.kind = DTRACE_VALUE_STRING;
        out.size = static_cast<uint32_t>(v.bytes.size());
        out.bytes = v.bytes.c_str();
        break;
    default:
        out.kind = DTRACE_VALUE_BYTES;
        out.size = static_cast<uint32_t>(v.bytes.size());
        out.bytes = v.bytes.data();
        break;
    }
    return out;
}

} // namespace

session::PluginActionRunner plugin_action_runner(host::PluginHost &host) {
    return [&host](uint32_t action, uint32_t cpu, uint64_t timestamp, const std::vector<consumer::Value> &args) {
        // The call's values, then the firing's pid and tid (compiler/program.h).
        const size_t nvalues = args.size() - compiler::kPluginActionContextValues;
        std::vector<consumer::Value> strings(args.begin(), args.begin() + static_cast<ptrdiff_t>(nvalues));
        std::vector<dtrace_action_value> values; // a recorded string is cut at its first NUL
        for (consumer::Value &v : strings) {
            if (v.kind == consumer::Value::Kind::String)
                v.bytes.resize(std::min(v.bytes.size(), v.bytes.find('\0')));
            values.push_back(to_sdk(v));
        }
        dtrace_action_call call{};
        call.struct_size = sizeof call;
        call.cpu = cpu;
        call.timestamp = timestamp;
        call.nvalues = static_cast<uint32_t>(values.size());
        call.pid = args[nvalues].as_signed();
        call.tid = args[nvalues + 1].as_signed();
        call.values = values.data();
        host::Status status = host.consume_action(action, call);
        return status ? std::string() : status.reason();
    };
}

} // namespace dtrace::cli
