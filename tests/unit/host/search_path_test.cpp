// search_path_test.cpp: the plugin search path, directory scans and the
// -x plugins list.
#include "host/plugin_config.h"
#include "host/plugin_search_path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <unistd.h>

namespace dtrace::host::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> file_names(const std::vector<fs::path> &files) {
    std::vector<std::string> out;
    for (const fs::path &f : files)
        out.push_back(f.filename().string());
    return out;
}

TEST(SearchPath, EnvironmentEntriesComeFirstThenTheExecutablesDefaults) {
    const std::vector<fs::path> dirs = plugin_search_dirs("/a::/b/:/a", "/opt/x/bin");
    ASSERT_GE(dirs.size(), 4u);
    EXPECT_EQ(dirs[0], "/a");
    EXPECT_EQ(dirs[1], "/b/");
    EXPECT_EQ(dirs[2], "/opt/x/bin/plugins") << "the build tree: dtrace beside plugins/";
    EXPECT_NE(std::find(dirs.begin(), dirs.end(), "/opt/x/lib/dtrace/plugins"), dirs.end());
    EXPECT_EQ(std::count(dirs.begin(), dirs.end(), "/a"), 1);
}

TEST(SearchPath, WithoutEnvironmentOrExecutableThereIsNothingToSearch) {
    EXPECT_TRUE(plugin_search_dirs(nullptr, "").empty());
    EXPECT_TRUE(plugin_search_dirs("", "").empty());
}

TEST(SearchPath, FindsTheRunningExecutable) {
    EXPECT_EQ(fs::canonical(executable_dir()), fs::canonical(TEST_BINARY_DIR));
}

TEST(SearchPath, ListsSharedObjectsSortedByFileName) {
    EXPECT_EQ(file_names(plugin_files_in(TEST_PLUGIN_DIR)),
              (std::vector<std::string>{"bad_abi.so", "declines.so", "good.so", "init_fails.so", "no_entry.so",
                                        "not_elf.so", "rogue.so", "small_table.so", "start_fails.so"}));
}

TEST(SearchPath, SkipsOtherFilesAndDirectoriesButFollowsLinks) {
    const fs::path dir = fs::temp_directory_path() / ("dtrace_search_path_test_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "sub.so");
    std::ofstream(dir / "b.so").put('x');
    std::ofstream(dir / "notes.txt").put('x');
    fs::create_symlink(dir / "b.so", dir / "a.so");
    EXPECT_EQ(file_names(plugin_files_in(dir)), (std::vector<std::string>{"a.so", "b.so"}));
    fs::remove_all(dir);
    EXPECT_TRUE(plugin_files_in(dir).empty()) << "a missing directory has no plugins";
}

TEST(PluginNames, SplitsTrimsAndDropsEmptyNames) {
    EXPECT_EQ(split_plugin_names(" etw, syscall,,pmc "), (std::vector<std::string>{"etw", "syscall", "pmc"}));
    EXPECT_TRUE(split_plugin_names("").empty());
    EXPECT_TRUE(split_plugin_names(" , ").empty());
}

} // namespace
} // namespace dtrace::host::test
