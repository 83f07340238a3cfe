// uprobe_check_test.cpp: a kernel without uprobes is refused with a line
// that says so (check_uprobes), and one with them is not.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>

#include "uprobe_attach.h"

namespace dtrace::live {
namespace {

TEST(CheckUprobes, MissingPmuSaysTheKernelHasNone) {
    Status checked = check_uprobes("/nonexistent/devices/uprobe");
    ASSERT_FALSE(checked);
    EXPECT_NE(checked.error().find("this kernel has no uprobes"), std::string::npos) << checked.error();
    EXPECT_NE(checked.error().find("CONFIG_UPROBE_EVENTS"), std::string::npos) << checked.error();
}

TEST(CheckUprobes, PresentPmuPasses) {
    char dir[] = "/tmp/uprobe_pmu_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    EXPECT_TRUE(check_uprobes(dir));
    rmdir(dir);
}

} // namespace
} // namespace dtrace::live
