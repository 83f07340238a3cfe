// process_maps_test.cpp: /proc/PID/maps parsing and mapping records.
#include "process_maps.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace dtrace::live::stacks {
namespace {

TEST(ProcessMaps, ParsesExecutableFileMappingsOnly) {
    auto maps = parse_maps("55d0c0000000-55d0c0001000 r--p 00000000 fe:01 12 /usr/bin/prog\n"
                           "55d0c0001000-55d0c0002000 r-xp 00001000 fe:01 12 /usr/bin/prog\n"
                           "7f0000000000-7f0000100000 r-xp 00028000 fe:01 34 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
                           "7f0000200000-7f0000201000 rw-p 00000000 00:00 0 \n"
                           "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                  [vdso]\n"
                           "7f0000300000-7f0000301000 r-xp 00000000 fe:01 56 /tmp/a file with spaces\n"
                           "zzzz-7f0000400000 r-xp 00000000 00:00 0 /bad\n"
                           "7f0000500000-7f0000400000 r-xp 00000000 00:00 0 /reversed\n");
    ASSERT_EQ(maps.size(), 4u);
    EXPECT_EQ(maps[0].path, "/usr/bin/prog");
    EXPECT_EQ(maps[0].file_offset, 0x1000u);
    EXPECT_EQ(maps[1].path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
    EXPECT_EQ(maps[2].path, "/tmp/a file with spaces");
    EXPECT_EQ(maps[3].path, "[vdso]");
}

TEST(ProcessMaps, RecordsReplaceOverlapsAndExecForgets) {
    ProcessMaps maps("/nonexistent");
    maps.exec(7);
    maps.add(7, {0x1000, 0x3000, 0, "/a"});
    maps.add(7, {0x2000, 0x4000, 0, "/b"}); // overlaps /a: replaces it
    EXPECT_FALSE(maps.find(7, 0x1800));
    ASSERT_TRUE(maps.find(7, 0x2800));
    EXPECT_EQ(maps.find(7, 0x2800)->path, "/b");
    maps.exec(7);
    EXPECT_FALSE(maps.find(7, 0x2800));
    maps.add(7, {0x5000, 0x4000, 0, "/empty"}); // end before start: ignored
    EXPECT_FALSE(maps.find(7, 0x5000));
}

TEST(ProcessMaps, AnUnknownProcessIsReadFromProc) {
    ProcessMaps maps;
    auto own = maps.find(getpid(), reinterpret_cast<uint64_t>(&parse_maps));
    ASSERT_TRUE(own);
    EXPECT_NE(own->path.find("live_stacks_tests"), std::string::npos);
}

// A library loaded since is learnt; one unloaded since stays known (stacks
// through it are still named) until something else is mapped over it.
TEST(ProcessMaps, RefreshAddsWhatIsMappedNowAndKeepsWhatWent) {
    const std::filesystem::path proc =
        std::filesystem::temp_directory_path() / ("process_maps_refresh." + std::to_string(getpid()));
    std::filesystem::create_directories(proc / "7");
    auto write_maps = [&](const char *text) { std::ofstream(proc / "7" / "maps") << text; };
    write_maps("1000-2000 r-xp 00000000 fe:01 1 /prog\n"
               "5000-6000 r-xp 00000000 fe:01 2 /libgone.so\n");
    ProcessMaps maps(proc.string());
    maps.ensure(7);
    write_maps("1000-2000 r-xp 00000000 fe:01 1 /prog\n"
               "8000-9000 r-xp 00000000 fe:01 3 /libnew.so\n");
    maps.refresh(7);
    ASSERT_TRUE(maps.find(7, 0x8800));
    EXPECT_EQ(maps.find(7, 0x8800)->path, "/libnew.so");
    ASSERT_TRUE(maps.find(7, 0x5800));
    EXPECT_EQ(maps.find(7, 0x5800)->path, "/libgone.so");
    write_maps("1000-2000 r-xp 00000000 fe:01 1 /prog\n"
               "5000-7000 r-xp 00000000 fe:01 4 /libover.so\n");
    maps.refresh(7);
    ASSERT_TRUE(maps.find(7, 0x5800));
    EXPECT_EQ(maps.find(7, 0x5800)->path, "/libover.so");
    std::filesystem::remove_all(proc);
}

} // namespace
} // namespace dtrace::live::stacks
