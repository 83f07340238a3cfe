// plugin_search_path.h: where plugins are discovered.
//
// The search path is the directories of DTRACE_PLUGIN_PATH (colon-separated,
// like PATH), then the defaults found relative to the running executable, so
// that the same binary works in the build tree (build/dtrace beside
// build/plugins) and once installed (<prefix>/bin/dtrace and
// <prefix>/<libdir>/dtrace/plugins) without a configured absolute path.
// Every *.so in a directory is a candidate, in file-name order so that a
// session is reproducible.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace dtrace::host {

inline constexpr const char *kPluginPathVariable = "DTRACE_PLUGIN_PATH";
inline constexpr std::string_view kPluginFileSuffix = ".so";

// The directory of the running executable (/proc/self/exe); empty if unknown.
std::filesystem::path executable_dir();

// The default plugin directories for an executable in `exe_dir`: the build
// tree's, then the install tree's (the configured libdir, then plain lib).
std::vector<std::filesystem::path> default_plugin_dirs(const std::filesystem::path &exe_dir);

// The search path for a DTRACE_PLUGIN_PATH value (may be null) and an
// executable directory: the variable's entries, then the defaults, without
// repeats.
std::vector<std::filesystem::path> plugin_search_dirs(const char *path_variable, const std::filesystem::path &exe_dir);

// plugin_search_dirs() for this process's environment and executable.
std::vector<std::filesystem::path> standard_plugin_search_dirs();

// The *.so files in a directory (regular files or links to them), sorted by
// file name; none if the directory does not exist or cannot be read.
std::vector<std::filesystem::path> plugin_files_in(const std::filesystem::path &dir);

} // namespace dtrace::host
