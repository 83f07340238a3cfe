// probe_list_format.h: dtrace -l and -lv output.
//
// -l prints a heading and one row per probe: ID, provider, module, function
// and name in columns of 5, 10, 17 and 33 characters (right-aligned, never
// truncated: longer names push the row out). -v adds after each row the
// probe's stability block: the description attributes (the minimum over the
// provider's attributes for the provider and every non-empty module,
// function and name field), the argument attributes, and the argument types.
#pragma once

#include <dtrace/provider.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::consumer {

struct ProbeArgType {
    std::string type;      // the D type of args[i], e.g. "int" or "struct file *"
    bool userland = false; // a type from the traced process (printed "userland int *")
    std::string name;      // the argument's name, printed after its type; empty: none
};

struct ProbeListing {
    uint32_t id = 0;
    std::string provider;
    std::string module;
    std::string function;
    std::string name;
    dtrace_provider_attributes attributes{};
    std::vector<ProbeArgType> args;
};

// "   ID   PROVIDER            MODULE                          FUNCTION NAME"
std::string probe_list_heading();
std::string probe_list_row(const ProbeListing &probe);
// The -v block that follows a row: blank line, three indented sections, blank line.
std::string probe_list_details(const ProbeListing &probe);

// The attribute DTrace reports for a probe description: the minimum of each
// component over the provider, module, function and name attributes (fields
// that are empty do not take part).
dtrace_attribute probe_description_attributes(const ProbeListing &probe);

std::string_view stability_name(uint8_t stability);
std::string_view dependency_class_name(uint8_t dependency_class);

} // namespace dtrace::consumer
