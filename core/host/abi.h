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
#include <optional>
#include <string>
#include <vector>

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
inline constexpr uint32_t kPluginOpsVersionSize =
    offsetof(dtrace_plugin_ops, version) + sizeof(dtrace_plugin_ops::version);
inline constexpr uint32_t kPluginOpsOptionsSize =
    offsetof(dtrace_plugin_ops, options) + sizeof(dtrace_plugin_ops::options);
inline constexpr uint32_t kPluginOpsProvidersSize =
    offsetof(dtrace_plugin_ops, providers) + sizeof(dtrace_plugin_ops::providers);
inline constexpr uint32_t kOptionDescV1Size =
    offsetof(dtrace_option_desc, description) + sizeof(dtrace_option_desc::description);
inline constexpr uint32_t kPluginOpsTargetChangedSize =
    offsetof(dtrace_plugin_ops, target_changed) + sizeof(dtrace_plugin_ops::target_changed);
inline constexpr uint32_t kPluginOpsSetFiltersSize =
    offsetof(dtrace_plugin_ops, set_filters) + sizeof(dtrace_plugin_ops::set_filters);
inline constexpr uint32_t kPluginOpsLookupTypeSize =
    offsetof(dtrace_plugin_ops, lookup_type) + sizeof(dtrace_plugin_ops::lookup_type);
inline constexpr uint32_t kPluginOpsLookupKernelSymbolSize =
    offsetof(dtrace_plugin_ops, lookup_kernel_symbol) + sizeof(dtrace_plugin_ops::lookup_kernel_symbol);
inline constexpr uint32_t kPluginOpsFastpathSize =
    offsetof(dtrace_plugin_ops, fastpath) + sizeof(dtrace_plugin_ops::fastpath);
inline constexpr uint32_t kPluginOpsCountersSize =
    offsetof(dtrace_plugin_ops, read_counter) + sizeof(dtrace_plugin_ops::read_counter);
inline constexpr uint32_t kFastpathOpsSize =
    offsetof(dtrace_fastpath_ops, read_map) + sizeof(dtrace_fastpath_ops::read_map);
inline constexpr uint32_t kFastpathOpsReadRingSize =
    offsetof(dtrace_fastpath_ops, read_ring) + sizeof(dtrace_fastpath_ops::read_ring);
inline constexpr uint32_t kFastpathOpsUpdateMapSize =
    offsetof(dtrace_fastpath_ops, update_map) + sizeof(dtrace_fastpath_ops::update_map);
inline constexpr uint32_t kFastpathOpsKernelStackSkipSize =
    offsetof(dtrace_fastpath_ops, kernel_stack_skip) + sizeof(dtrace_fastpath_ops::kernel_stack_skip);
inline constexpr uint32_t kFastpathOpsFillUserStackMapsSize =
    offsetof(dtrace_fastpath_ops, fill_user_stack_maps) + sizeof(dtrace_fastpath_ops::fill_user_stack_maps);
inline constexpr uint32_t kFastpathOpsFillWayBackSize =
    offsetof(dtrace_fastpath_ops, fill_way_back) + sizeof(dtrace_fastpath_ops::fill_way_back);
inline constexpr uint32_t kFastpathProbeUserRegistersSize =
    offsetof(dtrace_fastpath_probe, user_bp_offset) + sizeof(dtrace_fastpath_probe::user_bp_offset);
inline constexpr uint32_t kFastpathProbeUserStacksUnavailableSize =
    offsetof(dtrace_fastpath_probe, user_stacks_unavailable) + sizeof(dtrace_fastpath_probe::user_stacks_unavailable);
inline constexpr uint32_t kFastpathProbeWordSize =
    offsetof(dtrace_fastpath_probe, probe_word) + sizeof(dtrace_fastpath_probe::probe_word);
inline constexpr uint32_t kProviderInfoV1Size =
    offsetof(dtrace_provider_info, d_source) + sizeof(dtrace_provider_info::d_source);
inline constexpr uint32_t kProviderInfoFlagsSize =
    offsetof(dtrace_provider_info, flags) + sizeof(dtrace_provider_info::flags);
inline constexpr uint32_t kProbeDescV1Size = offsetof(dtrace_probe_desc, cookie) + sizeof(dtrace_probe_desc::cookie);
inline constexpr uint32_t kArgDescV1Size =
    offsetof(dtrace_arg_desc, native_index) + sizeof(dtrace_arg_desc::native_index);
inline constexpr uint32_t kArgDescNameSize = offsetof(dtrace_arg_desc, name) + sizeof(dtrace_arg_desc::name);
inline constexpr uint32_t kEventCtxV1Size = offsetof(dtrace_event_ctx, flags) + sizeof(dtrace_event_ctx::flags);
inline constexpr uint32_t kActionDescV1Size = offsetof(dtrace_action_desc, cookie) + sizeof(dtrace_action_desc::cookie);
// The smallest type descriptions the host reads (their fields as first defined).
inline constexpr uint32_t kTypeGraphSize = offsetof(dtrace_type_graph, root) + sizeof(dtrace_type_graph::root);
inline constexpr uint32_t kTypeNodeSize =
    offsetof(dtrace_type_node, enumerators) + sizeof(dtrace_type_node::enumerators);
inline constexpr uint32_t kTypeMemberSize =
    offsetof(dtrace_type_member, offset_bits) + sizeof(dtrace_type_member::offset_bits);
inline constexpr uint32_t kTypeEnumeratorSize =
    offsetof(dtrace_type_enumerator, value) + sizeof(dtrace_type_enumerator::value);

// True when `s` is non-null and declares at least the v1 size.
template <typename T> bool covers(const T *s, uint32_t v1_size) {
    return s != nullptr && s->struct_size >= v1_size;
}

// Checks the table a plugin's entry point returned: size, version, name,
// the entries the host cannot do without, and its declared options.
Status check_plugin_ops(const dtrace_plugin_ops *ops);

// A -x option a plugin declares (dtrace_option_desc, copied).
struct PluginOption {
    std::string name;
    dtrace_option_kind kind = DTRACE_OPTION_STRING;
    std::optional<std::string> default_value;
    std::string description;
};

// What a checked table says about itself beyond its name: its version ("" when
// it gives none, or its table predates the field), its options and the
// patterns of the providers it may register.
std::string plugin_version(const dtrace_plugin_ops &ops);
std::vector<PluginOption> plugin_options(const dtrace_plugin_ops &ops);
std::vector<std::string> plugin_provider_patterns(const dtrace_plugin_ops &ops);
// The counter array it declares (pmc); "" when none.
std::string plugin_counter_array(const dtrace_plugin_ops &ops);

} // namespace dtrace::host::abi
