// Tests of module_watcher.h: which modules /proc/modules lists, and which are new.
#include "module_watcher.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace dtrace::fbt;

TEST(ModuleWatcher, NamesOnlyLiveModules) {
    const auto names = parse_module_names("dummy 16384 0 - Live 0xffffffffc0a1b000\n"
                                          "9p 90112 1 - Live 0xffffffffc09f0000\n"
                                          "loading 4096 0 - Loading 0xffffffffc0a30000\n"
                                          " 12 0 - Live 0x0\n"
                                          "garbage\n");
    EXPECT_EQ(names, (std::set<std::string>{"9p", "dummy"}));
}

TEST(ModuleWatcher, CallsBackForModulesNewSinceTheLastPoll) {
    const std::string path = testing::TempDir() + "/modules." + std::to_string(getpid());
    std::vector<std::string> seen;
    ModuleWatcher watcher([&](const std::string &m) { seen.push_back(m); }, path);
    auto write = [&](const std::string &text) { std::ofstream(path) << text; };
    write("9p 90112 1 - Live 0xffffffffc09f0000\n");
    watcher.poll(); // the baseline: nothing is new
    EXPECT_TRUE(seen.empty());
    write("9p 90112 1 - Live 0xffffffffc09f0000\ndummy 16384 0 - Live 0xffffffffc0a1b000\n");
    watcher.poll();
    EXPECT_EQ(seen, std::vector<std::string>{"dummy"});
    watcher.poll();
    EXPECT_EQ(seen.size(), 1u);
    write("9p 90112 1 - Live 0xffffffffc09f0000\n"); // unloaded, then loaded again: new again
    watcher.poll();
    write("9p 90112 1 - Live 0xffffffffc09f0000\ndummy 16384 0 - Live 0xffffffffc0a1c000\n");
    watcher.poll();
    EXPECT_EQ(seen, (std::vector<std::string>{"dummy", "dummy"}));
    std::remove(path.c_str());
}

TEST(ModuleWatcher, StartsAndStopsItsThread) {
    int calls = 0;
    ModuleWatcher watcher([&](const std::string &) { ++calls; }, "/nonexistent/modules");
    watcher.start();
    watcher.stop();
    watcher.stop(); // idempotent
    EXPECT_EQ(calls, 0);
}
