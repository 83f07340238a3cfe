// function_index.cpp: modules and functions of a traced process, planned for hooks.
#include "function_index.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "fpid_shm.h"
#include "probe_fields.h"
#include "process_maps.h"
#include "process_modules.h"

namespace dtrace::fpid {

namespace {

constexpr uint64_t kMaxUnsizedFunction = 64 * 1024;
constexpr uint64_t kLastUnsized = 64;

// Files whose functions are never hooked: the agent and what it links.
bool is_tracer_file(const std::string &name) {
    return name.rfind("libdtrace-fpid-agent", 0) == 0 || name.rfind("libZydis", 0) == 0 ||
           name.rfind("libZycore", 0) == 0;
}

std::string real_path(const std::string &path) {
    char resolved[PATH_MAX];
    return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

} // namespace

const FunctionIndex::Module *FunctionIndex::module(const std::string &path) {
    auto [it, added] = modules_.try_emplace(path);
    if (added) {
        std::string error;
        std::unique_ptr<live::ElfFunctions> functions = live::ElfFunctions::read(path, error);
        if (functions != nullptr) {
            it->second = std::make_unique<Module>();
            for (const live::ElfFunction &f : functions->functions())
                it->second->starts.push_back(f.address);
            std::sort(it->second->starts.begin(), it->second->starts.end());
            it->second->functions = std::move(functions);
        }
    }
    return it->second.get();
}

std::string FunctionIndex::plan(const Module &module, const live::ElfFunction &function, uint32_t &patch_length) const {
    auto next = std::upper_bound(module.starts.begin(), module.starts.end(), function.address);
    const uint64_t to_next = next == module.starts.end() ? 0 : *next - function.address;
    // A symbol without a size (_init, crtstuff's) is taken to run to the next
    // one, the last (_fini) over a few instructions: bytes beyond it that are
    // not code can only make the branch check refuse, never let a bad hook in.
    const uint64_t size = function.size != 0 ? function.size
                          : to_next != 0     ? std::min(to_next, kMaxUnsizedFunction)
                                             : kLastUnsized;
    const uint64_t room = std::max(size, std::min(to_next, size + FPID_MAX_PATCH));
    std::vector<uint8_t> code(room);
    const int fd = open(module.functions->path().c_str(), O_RDONLY | O_CLOEXEC);
    const ssize_t n = fd < 0 ? -1 : pread(fd, code.data(), code.size(), static_cast<off_t>(function.file_offset));
    if (fd >= 0)
        close(fd);
    if (n < static_cast<ssize_t>(size))
        return "its code cannot be read from " + module.functions->path();
    fpid_plan result{};
    if (fpid_plan_hook(code.data(), size, static_cast<uint64_t>(n), function.address, &result) != 0)
        return result.why;
    patch_length = result.length;
    return "";
}

std::optional<TracedFunction> FunctionIndex::link_map_hook(int64_t pid) {
    std::vector<live::ProcessModule> modules = live::mapped_modules(pid);
    const Module *executable = modules.empty() ? nullptr : module(modules.front().path);
    if (executable == nullptr || executable->functions->interpreter().empty())
        return std::nullopt;
    const std::string linker_path = real_path(executable->functions->interpreter());
    const Module *linker = module(linker_path);
    const live::ElfFunction *hook = linker != nullptr ? live::link_map_hook(*linker->functions) : nullptr;
    TracedFunction function;
    if (hook == nullptr || !plan(*linker, *hook, function.patch_length).empty())
        return std::nullopt;
    function.module_path = linker_path;
    function.module = live::module_file_name(linker_path);
    function.name = hook->name;
    function.file_offset = hook->file_offset;
    return function;
}

std::vector<live::ProcessModule> FunctionIndex::modules_of(int64_t pid) {
    std::vector<live::ProcessModule> modules = live::mapped_modules(pid);
    // Stopped at exec, only the executable and the dynamic linker are
    // mapped: the libraries the linker is about to load are asked of it.
    constexpr size_t kAtExec = 2;
    if (modules.empty() || modules.size() > kAtExec)
        return modules;
    if (const Module *executable = module(modules.front().path); executable != nullptr) {
        for (const std::string &library :
             live::libraries_to_load(executable->functions->interpreter(), modules.front().path)) {
            const std::string path = real_path(library);
            if (std::none_of(modules.begin(), modules.end(),
                             [&](const live::ProcessModule &m) { return real_path(m.path) == path; }))
                modules.push_back({path, false});
        }
    }
    return modules;
}

std::set<std::string> FunctionIndex::module_paths(int64_t pid) {
    std::set<std::string> paths;
    for (const live::ProcessModule &m : modules_of(pid))
        paths.insert(m.path);
    return paths;
}

live::Result<std::vector<FunctionMatch>> FunctionIndex::match(int64_t pid, const char *module_glob,
                                                              const char *function_glob,
                                                              const std::set<std::string> &skip) {
    const std::vector<live::ProcessModule> modules = modules_of(pid);
    if (modules.empty())
        return live::Error{"cannot read the mappings of process " + std::to_string(pid) + " (has it exited?)"};
    std::vector<FunctionMatch> out;
    for (const live::ProcessModule &process_module : modules) {
        if (skip.count(process_module.path))
            continue;
        const std::string file_name = live::module_file_name(process_module.path);
        if (is_tracer_file(file_name))
            continue;
        const Module *m = module(process_module.path);
        if (m == nullptr)
            continue;
        const std::vector<std::string> aliases =
            live::module_aliases(process_module.path, m->functions->soname(), process_module.executable);
        if (std::none_of(aliases.begin(), aliases.end(),
                         [&](const std::string &a) { return live::field_matches(module_glob, a); }))
            continue;
        for (const live::ElfFunction &f : m->functions->functions()) {
            bool named = live::field_matches(function_glob, f.name);
            if (!named && !live::field_empty(function_glob) && !live::field_is_glob(function_glob))
                named = std::find(f.aliases.begin(), f.aliases.end(), function_glob) != f.aliases.end();
            if (!named)
                continue;
            FunctionMatch match;
            match.function.module_path = process_module.path;
            match.function.module = file_name; // a description's alias (libc, a.out) matches it
            match.function.module_aliases = aliases;
            match.function.name = live::registered_function_name(function_glob, f.name);
            match.function.file_offset = f.file_offset;
            match.refusal = plan(*m, f, match.function.patch_length);
            out.push_back(std::move(match));
        }
    }
    return out;
}

ProcessAddresses::ProcessAddresses(int64_t pid) {
    std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
    std::stringstream text;
    text << maps.rdbuf();
    mappings_ = live::stacks::parse_maps(text.str());
    for (live::stacks::Mapping &m : mappings_)
        m.path = real_path(m.path);
}

uint64_t ProcessAddresses::of(const std::string &path, uint64_t file_offset) const {
    const std::string wanted = real_path(path);
    for (const live::stacks::Mapping &m : mappings_) {
        if (file_offset >= m.file_offset && file_offset < m.file_offset + (m.end - m.start) && m.path == wanted)
            return m.start + (file_offset - m.file_offset);
    }
    return 0;
}

} // namespace dtrace::fpid
