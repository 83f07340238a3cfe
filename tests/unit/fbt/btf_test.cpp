// btf_test.cpp: function prototypes and type graphs from this machine's
// kernel BTF (skipped where /sys/kernel/btf/vmlinux is absent).
#include "btf_type_graph.h"
#include "kernel_btf.h"

#include <gtest/gtest.h>
#include <string_view>
#include <unistd.h>

namespace dtrace::fbt {
namespace {

class KernelBtfTest : public ::testing::Test {
  protected:
    void SetUp() override {
        if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
            GTEST_SKIP() << "this kernel has no BTF (/sys/kernel/btf/vmlinux)";
        auto loaded = btf_.vmlinux();
        ASSERT_TRUE(loaded) << loaded.error();
        types_ = loaded.value();
    }
    const dtrace_type_node *member_type(const dtrace_type_graph &g, const dtrace_type_node &node,
                                        std::string_view name) {
        for (uint32_t i = 0; i < node.nmembers; ++i)
            if (name == node.members[i].name)
                return &g.types[node.members[i].type];
        return nullptr;
    }
    KernelBtf btf_;
    const BtfSet *types_ = nullptr;
};

TEST_F(KernelBtfTest, VfsReadPrototype) {
    auto proto = types_->prototype("vfs_read");
    ASSERT_TRUE(proto);
    EXPECT_EQ(proto->params, (std::vector<std::string>{"struct file *", "char *", "size_t", "loff_t *"}));
    EXPECT_EQ(proto->return_type, "ssize_t");
    auto shape = types_->shape("vfs_read");
    ASSERT_TRUE(shape);
    EXPECT_EQ(shape->params, 4u);
    EXPECT_TRUE(shape->returns_value);
    EXPECT_FALSE(types_->prototype("no_such_function_anywhere"));
}

TEST_F(KernelBtfTest, VoidFunctionReturnsNothing) {
    auto shape = types_->shape("schedule");
    ASSERT_TRUE(shape);
    EXPECT_FALSE(shape->returns_value);
}

TEST_F(KernelBtfTest, StructFileGraphNamesWhatItPointsTo) {
    BtfTypeGraph graph;
    const dtrace_type_graph *g = graph.describe(*types_, "struct file");
    ASSERT_NE(g, nullptr);
    const dtrace_type_node &root = g->types[g->root];
    EXPECT_EQ(root.kind, uint32_t(DTRACE_TYPE_STRUCT));
    EXPECT_STREQ(root.name, "file");
    // f_path may sit in an anonymous union: it is found as file's own member.
    const dtrace_type_node *path = member_type(*g, root, "f_path");
    ASSERT_NE(path, nullptr);
    while (path->kind == DTRACE_TYPE_CONST)
        path = &g->types[path->ref];
    EXPECT_EQ(path->kind, uint32_t(DTRACE_TYPE_NAMED));
    EXPECT_STREQ(path->name, "struct path");
    // Only the root is described whole: the graph stays small.
    EXPECT_LT(g->ntypes, 200u);
}

TEST_F(KernelBtfTest, TypedefAndUnknownNames) {
    BtfTypeGraph graph;
    const dtrace_type_graph *g = graph.describe(*types_, "loff_t");
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->types[g->root].kind, uint32_t(DTRACE_TYPE_TYPEDEF));
    EXPECT_EQ(graph.describe(*types_, "struct no_such_struct_anywhere"), nullptr);
    EXPECT_EQ(graph.describe(*types_, "no_such_typedef_anywhere"), nullptr);
}

TEST(KernelBtf, MissingDirectoryIsAnError) {
    KernelBtf btf("/nonexistent");
    auto loaded = btf.vmlinux();
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().find("/nonexistent/vmlinux"), std::string::npos) << loaded.error();
}

} // namespace
} // namespace dtrace::fbt
