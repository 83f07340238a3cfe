// file_facts_test.cpp: fds[]'s /proc parsers, its records, and the D text.
#include <gtest/gtest.h>

#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "file_facts.h"
#include "file_library.h"
#include "file_records.h"

namespace dtrace::live {
namespace {

TEST(FdInfo, ReadsPositionFlagsAndMount) {
    std::optional<FdInfo> info = parse_fdinfo("pos:\t4096\nflags:\t0102001\nmnt_id:\t27\nino:\t1234\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->pos, 4096);
    EXPECT_EQ(info->flags, 0102001u); // octal, as Linux prints it
    EXPECT_EQ(info->mnt_id, 27);
}

TEST(FdInfo, NeedsPositionAndFlags) {
    EXPECT_FALSE(parse_fdinfo(""));
    EXPECT_FALSE(parse_fdinfo("pos:\t1\n"));
    EXPECT_FALSE(parse_fdinfo("flags:\t02\n"));
    EXPECT_FALSE(parse_fdinfo("pos:\tx\nflags:\t02\n"));
    EXPECT_FALSE(parse_fdinfo("pos:\t1\nflags:\t09\n")); // not octal
    std::optional<FdInfo> info = parse_fdinfo("pos: 1\nflags: 02\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->mnt_id, -1); // no mount line: not known
}

TEST(Mountinfo, MapsIdsToMountPointAndType) {
    const Mounts mounts = parse_mountinfo("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
                                          "36 27 0:33 / /mnt/my\\040disk rw shared:1 master:2 - tmpfs tmpfs rw\n"
                                          "garbage\n"
                                          "40 27 0:1 / /no/dash rw\n"
                                          "x 27 0:1 / /bad/id rw - tmpfs t rw\n");
    ASSERT_EQ(mounts.size(), 2u);
    EXPECT_EQ(mounts.at(27).mount_point, "/");
    EXPECT_EQ(mounts.at(27).fs_type, "ext4");
    EXPECT_EQ(mounts.at(36).mount_point, "/mnt/my disk"); // optional fields skipped, \040 decoded
    EXPECT_EQ(mounts.at(36).fs_type, "tmpfs");
}

TEST(DescribeFile, SplitsAPathAsDTraceDoes) {
    const MountPoint root{"/", "ext4"};
    const FileFacts f = describe_file("/etc/services", FdInfo{12, 0100000, 27}, &root);
    EXPECT_EQ(f.pathname, "/etc/services");
    EXPECT_EQ(f.name, "services");
    EXPECT_EQ(f.dirname, "/etc");
    EXPECT_EQ(f.fs, "ext4");
    EXPECT_EQ(f.mount, "/");
    EXPECT_EQ(f.offset, 12);
    EXPECT_EQ(f.oflags, 0100000u);
    const FileFacts top = describe_file("/vmlinuz", FdInfo{}, &root);
    EXPECT_EQ(top.name, "vmlinuz");
    EXPECT_EQ(top.dirname, "/");
    const FileFacts slash = describe_file("/", FdInfo{}, nullptr);
    EXPECT_EQ(slash.name, "/");
    EXPECT_EQ(slash.dirname, "/");
    EXPECT_EQ(slash.fs, "<unknown>");
    EXPECT_EQ(slash.mount, "<unknown>");
}

TEST(DescribeFile, ALinkThatIsNoPathIsUnknown) {
    const FileFacts socket = describe_file("socket:[123]", FdInfo{0, 02, 8}, nullptr);
    EXPECT_EQ(socket.pathname, "<unknown>");
    EXPECT_EQ(socket.name, "<unknown>");
    EXPECT_EQ(socket.dirname, "<unknown>");
    EXPECT_EQ(socket.fs, "sockfs");
    EXPECT_EQ(socket.mount, "<unknown>");
    EXPECT_EQ(socket.oflags, 02u);
    EXPECT_EQ(describe_file("pipe:[9]", FdInfo{}, nullptr).fs, "pipefs");
    EXPECT_EQ(describe_file("anon_inode:[eventfd]", FdInfo{}, nullptr).fs, "anon_inodefs");
    EXPECT_EQ(describe_file("net:[4026531840]", FdInfo{}, nullptr).fs, "<unknown>");
    EXPECT_EQ(describe_file("", FdInfo{}, nullptr).pathname, "<unknown>");
}

TEST(ReadFileFacts, DescribesOurOwnFiles) {
    char path[] = "/tmp/file_facts_testXXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, "0123456789", 10), 10);
    Mounts mounts;
    const FileFacts f = read_file_facts("/proc/self", fd, mounts);
    char real[PATH_MAX];
    ASSERT_NE(realpath(path, real), nullptr);
    EXPECT_EQ(f.pathname, real);
    EXPECT_EQ(f.name, std::string(real).substr(std::string(real).rfind('/') + 1));
    EXPECT_EQ(f.offset, 10);
    EXPECT_EQ(f.oflags & O_ACCMODE, static_cast<uint64_t>(O_RDWR));
    EXPECT_NE(f.fs, "<unknown>");
    EXPECT_NE(f.mount, "<unknown>");
    close(fd);
    unlink(path);
    // Closed since: no file, as DTrace says of a descriptor not open.
    const FileFacts closed = read_file_facts("/proc/self", fd, mounts);
    EXPECT_EQ(closed.pathname, "<none>");
    EXPECT_EQ(closed.fs, "<none>");
    EXPECT_EQ(closed.offset, 0);
    EXPECT_EQ(read_file_facts("/proc/self", -1, mounts).name, "<none>");
    // A process gone: its files cannot be known.
    const FileFacts gone = read_file_facts("/proc/no-such-process", 0, mounts);
    EXPECT_EQ(gone.pathname, "<unknown>");
    EXPECT_EQ(gone.offset, -1);
}

TEST(ReadFileFacts, AZombiesFilesAreUnknown) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0)
        _exit(0);
    const std::string dir = "/proc/" + std::to_string(child);
    for (int i = 0; i < 1000; ++i) { // until it has exited (not reaped: a zombie)
        Mounts mounts;
        if (read_file_facts(dir, 0, mounts).pathname == "<unknown>")
            break;
        usleep(1000);
    }
    Mounts mounts;
    EXPECT_EQ(read_file_facts(dir, 0, mounts).fs, "<unknown>");
    waitpid(child, nullptr, 0);
}

TEST(FileRecords, ServesTheTwinAndItsTexts) {
    FileRecords records;
    records.begin_firing(static_cast<uint32_t>(getpid()));
    const int fd = open("/proc/self/stat", O_RDONLY);
    ASSERT_GE(fd, 0);
    uint64_t twin[fi::kSize] = {};
    ASSERT_EQ(records.read(file_record_address(fd), twin, sizeof twin), static_cast<int64_t>(sizeof twin));
    char text[64] = {};
    ASSERT_GT(records.read(twin[fi::fi_name], text, sizeof text), 0);
    EXPECT_STREQ(text, "stat");
    ASSERT_GT(records.read(twin[fi::fi_fs], text, sizeof text), 0);
    EXPECT_STREQ(text, "proc");
    EXPECT_EQ(twin[fi::fi_oflags] & O_ACCMODE, static_cast<uint64_t>(O_RDONLY));
    close(fd);
    // A bad descriptor's twin (fds[-1]) reads as no file.
    ASSERT_EQ(records.read(file_record_address(-1), twin, sizeof twin), static_cast<int64_t>(sizeof twin));
    ASSERT_GT(records.read(twin[fi::fi_pathname], text, sizeof text), 0);
    EXPECT_STREQ(text, "<none>");
    // Between twins, and outside the range: not theirs.
    EXPECT_EQ(records.read(file_record_address(0) + fi::kSize * 8, text, 1), -1);
    EXPECT_EQ(records.read(kFileRecordsEnd, text, 1), -1);
    EXPECT_FALSE(FileRecords::owns(kFileRecordsAddress - 1));
    // A new firing's texts wait for its first twin.
    records.begin_firing(static_cast<uint32_t>(getpid()));
    EXPECT_EQ(records.read(file_text_address(fi::fi_name), text, 1), -1);
}

TEST(FileLibrary, DeclaresFdsOverTheTwins) {
    const std::string &d = file_d_library();
    EXPECT_NE(d.find("} fileinfo_t;"), std::string::npos);
    EXPECT_NE(d.find("translator fileinfo_t < live_fileinfo_t *P >"), std::string::npos);
    EXPECT_NE(d.find("inline fileinfo_t fds[int fd] = xlate<fileinfo_t>((live_fileinfo_t *)(0xffffff0001000000 + "
                     "(uint64_t)(uint32_t)fd * 64));"),
              std::string::npos);
    // dtrace's own descriptors (its pid) are answered without the plugin.
    EXPECT_NE(d.find("pid == " + std::to_string(getpid()) + " && "), std::string::npos);
}

} // namespace
} // namespace dtrace::live
