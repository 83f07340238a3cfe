// plugin_search_path.cpp: the plugin search path and directory scans.
#include "plugin_search_path.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>

// Both relative to the executable's directory; set by core/host/CMakeLists.txt
// from the top-level DTRACE_BUILD_PLUGIN_DIR and DTRACE_PLUGIN_SUBDIR.
#ifndef DTRACE_HOST_BUILD_PLUGIN_DIR
#error "DTRACE_HOST_BUILD_PLUGIN_DIR must be defined by the build"
#endif
#ifndef DTRACE_HOST_INSTALL_PLUGIN_DIR
#error "DTRACE_HOST_INSTALL_PLUGIN_DIR must be defined by the build"
#endif

namespace dtrace::host {

namespace fs = std::filesystem;

namespace {

constexpr const char *kSelfExe = "/proc/self/exe";
// The install layout when the libdir is not plain "lib" (lib64, multiarch).
constexpr const char *kPlainLibPluginDir = "../lib/dtrace/plugins";

void append_unique(std::vector<fs::path> &dirs, const fs::path &dir) {
    const fs::path normal = dir.lexically_normal();
    if (std::find(dirs.begin(), dirs.end(), normal) == dirs.end())
        dirs.push_back(normal);
}

} // namespace

fs::path executable_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink(kSelfExe, ec);
    return ec ? fs::path() : exe.parent_path();
}

std::vector<fs::path> default_plugin_dirs(const fs::path &exe_dir) {
    std::vector<fs::path> dirs;
    if (exe_dir.empty())
        return dirs;
    append_unique(dirs, exe_dir / DTRACE_HOST_BUILD_PLUGIN_DIR);
    append_unique(dirs, exe_dir / DTRACE_HOST_INSTALL_PLUGIN_DIR);
    append_unique(dirs, exe_dir / kPlainLibPluginDir);
    return dirs;
}

std::vector<fs::path> plugin_search_dirs(const char *path_variable, const fs::path &exe_dir) {
    std::vector<fs::path> dirs;
    std::string_view list = path_variable == nullptr ? std::string_view() : path_variable;
    while (!list.empty()) {
        const size_t colon = list.find(':');
        const std::string_view entry = list.substr(0, colon);
        if (!entry.empty())
            append_unique(dirs, fs::path(entry));
        list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
    }
    for (const fs::path &dir : default_plugin_dirs(exe_dir))
        append_unique(dirs, dir);
    return dirs;
}

std::vector<fs::path> standard_plugin_search_dirs() {
    return plugin_search_dirs(std::getenv(kPluginPathVariable), executable_dir());
}

std::vector<fs::path> plugin_files_in(const fs::path &dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path &file = it->path();
        if (file.filename().string().ends_with(kPluginFileSuffix) && it->is_regular_file(ec))
            files.push_back(file);
    }
    std::sort(files.begin(), files.end(),
              [](const fs::path &a, const fs::path &b) { return a.filename() < b.filename(); });
    return files;
}

} // namespace dtrace::host
