// function_index.cpp: modules and functions of a traced process.
#include "function_index.h"

#include <fnmatch.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "process_maps.h"
#include "stack_symbols.h"

namespace dtrace::fpid {

namespace {

bool matches(const char *pattern, const std::string &name) {
    return pattern == nullptr || pattern[0] == '\0' || fnmatch(pattern, name.c_str(), 0) == 0;
}

// Files whose functions are never hooked: the agent and what it links.
bool is_tracer_file(const std::string &module) {
    return module.rfind("libdtrace-fpid-agent", 0) == 0 || module.rfind("libZydis", 0) == 0 ||
           module.rfind("libZycore", 0) == 0;
}

std::string executable_of(int64_t pid) {
    char path[4096];
    const std::string link = "/proc/" + std::to_string(pid) + "/exe";
    ssize_t n = readlink(link.c_str(), path, sizeof path - 1);
    if (n <= 0)
        return "";
    path[n] = '\0';
    return path;
}

} // namespace

live::Result<std::vector<TracedFunction>> list_functions(int64_t pid, live::stacks::ImageCache &images,
                                                         const char *module_glob, const char *function_glob) {
    std::ifstream maps_file("/proc/" + std::to_string(pid) + "/maps");
    if (!maps_file)
        return live::Error{"cannot read the mappings of process " + std::to_string(pid) + " (has it exited?)"};
    std::stringstream text;
    text << maps_file.rdbuf();
    const std::string executable = executable_of(pid);
    std::vector<TracedFunction> out;
    for (const live::stacks::Mapping &mapping : live::stacks::parse_maps(text.str())) {
        if (mapping.path.empty() || mapping.path[0] != '/')
            continue; // [vdso] and the like
        const std::string module =
            mapping.path == executable ? std::string("a.out") : live::stacks::module_name(mapping.path);
        if (is_tracer_file(module) || !matches(module_glob, module))
            continue;
        std::shared_ptr<live::stacks::ElfImage> image = images.image_for(mapping.path, pid);
        if (image == nullptr)
            continue;
        std::optional<uint64_t> link_start = image->address_of_offset(mapping.file_offset);
        if (!link_start)
            continue;
        const uint64_t link_end = *link_start + (mapping.end - mapping.start);
        const std::vector<live::stacks::FunctionExtent> functions = image->functions();
        for (size_t i = 0; i < functions.size(); i++) {
            const live::stacks::FunctionExtent &f = functions[i];
            if (f.start < *link_start || f.start >= link_end)
                continue;
            std::string name(f.name);
            if (!matches(function_glob, name))
                continue;
            const uint64_t next = i + 1 < functions.size() ? functions[i + 1].start : link_end;
            const uint64_t end = std::min(next, link_end);
            out.push_back({module, std::move(name), mapping.start + (f.start - *link_start), f.size, end - f.start});
        }
    }
    return out;
}

} // namespace dtrace::fpid
