// abi.h: what the host accepts from a plugin under SDK ABI version 1.
//
// Every SDK struct starts with struct_size so that fields can be appended in
// later versions. The host therefore never compares a struct_size with
// sizeof (which grows with the header): it checks that the writer's struct
// reaches the end of the last field version 1 defined, and reads no further.
#pragma once

#include "result.h"

#include <dtrace/provider.h>

#include <cstddef>
#include <cstdint>

namespace dtrace::host::abi {

// The ABI versions this host can talk to.
inline constexpr uint32_t kSupportedVersion = DTRACE_SDK_ABI_VERSION;

// Byte size of each struct as ABI version 1 defined it (offset of its last
// v1 field plus that field's size).
inline constexpr uint32_t kPluginOpsV1Size = offsetof(dtrace_plugin_ops, destroy) + sizeof(dtrace_plugin_ops::destroy);
// Entries appended to version 1 tables: present when the size covers them.
inline constexpr uint32_t kPluginOpsLookupSymbolSize =
    offsetof(dtrace_plugin_ops, lookup_symbol) + sizeof(dtrace_plugin_ops::lookup_symbol);
inline constexpr uint32_t kPluginOpsConsumeActionSize =
    offsetof(dtrace_plugin_ops, consume_action) + sizeof(dtrace_plugin_ops::consume_action);
inline constexpr uint32_t kPluginOpsLiveTimerSize =
    offsetof(dtrace_plugin_ops, remove_live_timer) + sizeof(dtrace_plugin_ops::remove_live_timer);
inline constexpr uint32_t kProviderInfoV1Size =
    offsetof(dtrace_provider_info, d_source) + sizeof(dtrace_provider_info::d_source);
inline constexpr uint32_t kProbeDescV1Size = offsetof(dtrace_probe_desc, cookie) + sizeof(dtrace_probe_desc::cookie);
inline constexpr uint32_t kArgDescV1Size =
    offsetof(dtrace_arg_desc, native_index) + sizeof(dtrace_arg_desc::native_index);
inline constexpr uint32_t kEventCtxV1Size = offsetof(dtrace_event_ctx, flags) + sizeof(dtrace_event_ctx::flags);
inline constexpr uint32_t kActionDescV1Size = offsetof(dtrace_action_desc, cookie) + sizeof(dtrace_action_desc::cookie);

// True when `s` is non-null and declares at least the v1 size.
template <typename T> bool covers(const T *s, uint32_t v1_size) {
    return s != nullptr && s->struct_size >= v1_size;
}

// Checks the table a plugin's entry point returned: size, version, name and
// the entries the host cannot do without.
Status check_plugin_ops(const dtrace_plugin_ops *ops);

} // namespace dtrace::host::abi
