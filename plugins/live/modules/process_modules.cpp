// process_modules.cpp: a process's load objects, from /proc and ld.so.
#include "process_modules.h"

#include "process_maps.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <sstream>

extern char **environ;

namespace dtrace::live {

namespace {

constexpr size_t kMaxListing = 1 << 20; // bytes of ld.so --list output read

std::string read_link(const std::string &path) {
    char target[PATH_MAX];
    const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
    return n > 0 ? std::string(target, static_cast<size_t>(n)) : std::string();
}

// The output of `argv`, run without a shell (at most kMaxListing bytes).
std::string run_and_read(const std::vector<std::string> &args) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0)
        return {};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::vector<char *> argv;
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    pid_t child = -1;
    const int spawned = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    std::string out;
    char buffer[4096];
    ssize_t n;
    while (spawned == 0 && (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0 && out.size() < kMaxListing)
        out.append(buffer, static_cast<size_t>(n));
    close(pipe_fds[0]);
    if (spawned == 0)
        waitpid(child, nullptr, 0);
    return out;
}

} // namespace

std::vector<ProcessModule> mapped_modules(int64_t pid) {
    std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
    if (!maps)
        return {};
    std::stringstream text;
    text << maps.rdbuf();
    const std::string executable = read_link("/proc/" + std::to_string(pid) + "/exe");
    std::vector<ProcessModule> modules;
    if (!executable.empty())
        modules.push_back({executable, true});
    for (const live::stacks::Mapping &mapping : live::stacks::parse_maps(text.str())) {
        if (mapping.path.empty() || mapping.path[0] != '/')
            continue; // [vdso] and anonymous code
        if (std::none_of(modules.begin(), modules.end(),
                         [&](const ProcessModule &m) { return m.path == mapping.path; }))
            modules.push_back({mapping.path, false});
    }
    return modules;
}

std::vector<std::string> libraries_to_load(const std::string &interpreter, const std::string &executable) {
    if (interpreter.empty() || access(interpreter.c_str(), X_OK) != 0)
        return {};
    // Lines: "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "\t/lib64/ld-linux-x86-64.so.2 (0x...)".
    std::istringstream listing(run_and_read({interpreter, "--list", executable}));
    std::vector<std::string> libraries;
    for (std::string line; std::getline(listing, line);) {
        const size_t arrow = line.find("=> ");
        size_t start = arrow == std::string::npos ? line.find_first_not_of(" \t") : arrow + 3;
        if (start == std::string::npos || line[start] != '/')
            continue;
        const size_t end = line.find(" (", start);
        libraries.push_back(line.substr(start, end == std::string::npos ? std::string::npos : end - start));
    }
    return libraries;
}

const ElfFunction *link_map_hook(const ElfFunctions &linker) {
    static const std::string kHook = "_dl_debug_state";
    for (const ElfFunction &f : linker.functions()) {
        if (f.name == kHook || std::find(f.aliases.begin(), f.aliases.end(), kHook) != f.aliases.end())
            return &f;
    }
    return nullptr;
}

std::string module_file_name(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<std::string> module_aliases(const std::string &path, const std::string &soname, bool executable) {
    std::vector<std::string> names;
    auto add = [&](const std::string &name) {
        if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
    };
    const std::string file = module_file_name(path);
    add(file);
    add(soname);
    if (executable)
        add("a.out");
    // libc.so.6 -> libc.so -> libc
    for (const std::string &name : {file, soname}) {
        const size_t so = name.find(".so");
        if (so != std::string::npos && so > 0) {
            add(name.substr(0, so + 3));
            add(name.substr(0, so));
        }
    }
    return names;
}

} // namespace dtrace::live
