// provider_names.cpp: provider names from the trace and from tables.
#include "provider_names.h"

#include <array>

#include "reader/extended_items.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw::plugin {

namespace {

struct KnownProvider {
    std::string_view guid;
    std::string_view name;
};

// GUIDs from etw-formats.md 1.8 and 6 (ClrEtwAll.man, PerfView's parsers).
constexpr std::array<KnownProvider, 10> kKnownProviders = {{
    {"e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", "Microsoft-Windows-DotNETRuntime"},
    {"a669021c-c450-4609-a035-5af59af4df18", "Microsoft-Windows-DotNETRuntimeRundown"},
    {"763fd754-7086-4dfe-95eb-c01a46faf4ca", "Microsoft-Windows-DotNETRuntimePrivate"},
    {"cc2bcbba-16b6-4cf3-8990-d74c2e8af500", "Microsoft-Windows-DotNETRuntimeStress"},
    {"a0c1853b-5c40-4b15-8766-3cf1c58f985a", "Microsoft-Windows-PowerShell"},
    {"b3e675d7-2554-4f18-830b-2762732560de", "KernelTraceControl-ImageID"},
    {"bbccf6c1-6cd1-48c4-80ff-839482e37671", "KernelTraceControl-MetaData"},
    {"9b79ee91-b5fd-41c0-a243-4248e266e9d0", "SysConfig"},
    {"ed54dff8-c409-4cf6-bf83-05e1e61a09c4", "WinSat"},
    {"6a399ae0-4bc6-4de9-870b-3657f8947e7e", "RT_LostEvent"},
}};

} // namespace

std::string_view known_provider_name(const Guid &provider) {
    if (std::string_view kernel = kernel_class_name(provider); !kernel.empty()) {
        return kernel;
    }
    const std::string text = provider.to_string();
    for (const KnownProvider &known : kKnownProviders) {
        if (known.guid == text) {
            return known.name;
        }
    }
    return {};
}

std::string_view name_carried_by(const Event &event) {
    if ((event.flags & event_flag::kExtendedInfo) == 0) {
        return {};
    }
    std::optional<ExtendedItem> traits = find_extended_item(event, ext_type::kProvTraits);
    if (!traits) {
        return {};
    }
    return provider_traits_name(*traits).value_or(std::string_view{});
}

} // namespace dtrace::etw::plugin
