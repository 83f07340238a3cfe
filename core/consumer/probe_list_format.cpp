// probe_list_format.cpp: dtrace -l/-lv (see probe_list_format.h).
#include "consumer/probe_list_format.h"

#include "consumer/cformat.h"

#include <algorithm>
#include <array>

namespace dtrace::consumer {

namespace {

constexpr std::array<std::string_view, 8> kStabilityNames = {
    "Internal", "Private", "Obsolete", "External", "Unstable", "Evolving", "Stable", "Standard",
};
constexpr std::array<std::string_view, 6> kClassNames = {
    "Unknown", "CPU", "Platform", "Group", "ISA", "Common",
};
// What printf(3C) shows for the NULL DTrace's name lookups return when out of range.
constexpr std::string_view kNoName = "(null)";

dtrace_attribute attr_min(dtrace_attribute a, dtrace_attribute b) {
    return dtrace_attribute{std::min(a.name_stability, b.name_stability), std::min(a.data_stability, b.data_stability),
                            std::min(a.dependency_class, b.dependency_class)};
}

std::string attribute_lines(const dtrace_attribute &a) {
    return "\t\tIdentifier Names: " + std::string(stability_name(a.name_stability)) + "\n" +
           "\t\tData Semantics:   " + std::string(stability_name(a.data_stability)) + "\n" +
           "\t\tDependency Class: " + std::string(dependency_class_name(a.dependency_class)) + "\n";
}

} // namespace

std::string_view stability_name(uint8_t stability) {
    return stability < kStabilityNames.size() ? kStabilityNames[stability] : kNoName;
}

std::string_view dependency_class_name(uint8_t dependency_class) {
    return dependency_class < kClassNames.size() ? kClassNames[dependency_class] : kNoName;
}

std::string probe_list_heading() {
    return c_printf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
}

std::string probe_list_row(const ProbeListing &p) {
    return c_printf("%5d %10s %17s %33s %s\n", static_cast<int>(p.id), p.provider.c_str(), p.module.c_str(),
                    p.function.c_str(), p.name.c_str());
}

dtrace_attribute probe_description_attributes(const ProbeListing &p) {
    dtrace_attribute a = p.attributes.provider;
    if (!p.module.empty())
        a = attr_min(a, p.attributes.module);
    if (!p.function.empty())
        a = attr_min(a, p.attributes.function);
    if (!p.name.empty())
        a = attr_min(a, p.attributes.name);
    return a;
}

std::string probe_list_details(const ProbeListing &p) {
    std::string out = "\n\tProbe Description Attributes\n";
    out += attribute_lines(probe_description_attributes(p));
    out += "\n\tArgument Attributes\n";
    out += attribute_lines(p.attributes.args);
    out += "\n\tArgument Types\n";
    for (size_t i = 0; i < p.args.size(); ++i) {
        out += "\t\targs[" + std::to_string(i) + "]: " + (p.args[i].userland ? "userland " : "") + p.args[i].type +
               (p.args[i].name.empty() ? "" : " " + p.args[i].name) + "\n";
    }
    if (p.args.empty())
        out += "\t\tNone\n";
    out += "\n";
    return out;
}

} // namespace dtrace::consumer
