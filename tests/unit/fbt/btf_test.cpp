// btf_test.cpp: function prototypes and type graphs from this machine's
// kernel BTF (skipped where /sys/kernel/btf/vmlinux is absent).
#include "btf_type_graph.h"
#include "kernel_btf.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// A module's split BTF over this kernel's: its own struct (a count, and a
// pointer to vmlinux's struct file), written as the kernel publishes it in
// /sys/kernel/btf/<module>, beside a link to vmlinux's.
std::filesystem::path write_module_btf(const BtfSet &vmlinux, const std::string &module) {
    char folder[] = "/tmp/fbt_module_btf_XXXXXX";
    const std::filesystem::path dir = mkdtemp(folder);
    std::filesystem::create_symlink("/sys/kernel/btf/vmlinux", dir / "vmlinux");
    btf *base = const_cast<btf *>(vmlinux.handle());
    btf *split = btf__new_empty_split(base);
    const int int_id = btf__find_by_name_kind(base, "int", BTF_KIND_INT);
    const int file_id = btf__find_by_name_kind(base, "file", BTF_KIND_STRUCT);
    const int file_pointer = btf__add_ptr(split, file_id);
    btf__add_struct(split, "fbt_test_module_only", 16);
    btf__add_field(split, "count", int_id, 0, 0);
    btf__add_field(split, "file", file_pointer, 64, 0);
    uint32_t size = 0;
    const void *raw = btf__raw_data(split, &size);
    std::ofstream(dir / module, std::ios::binary).write(static_cast<const char *>(raw), size);
    btf__free(split);
    return dir;
}

TEST_F(KernelBtfTest, EveryModuleIsReadWhenAsked) {
    const std::filesystem::path dir = write_module_btf(*types_, "fbt_test_mod");
    KernelBtf btf(dir);
    ASSERT_TRUE(btf.vmlinux()); // the directory's vmlinux is not a module
    const std::vector<const BtfSet *> all = btf.read_all_modules();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all, btf.modules_read());
    BtfTypeGraph graph;
    EXPECT_NE(graph.describe(*all[0], "struct fbt_test_module_only"), nullptr);
    std::filesystem::remove_all(dir);
}

TEST_F(KernelBtfTest, ModuleTypesFromItsSplitBtf) {
    const std::filesystem::path dir = write_module_btf(*types_, "fbt_test_mod");
    KernelBtf btf(dir);
    EXPECT_TRUE(btf.modules_read().empty()); // nothing read before a module is asked for
    auto module = btf.module("fbt_test_mod");
    ASSERT_TRUE(module) << module.error();
    ASSERT_EQ(btf.modules_read().size(), 1u);
    BtfTypeGraph graph;
    EXPECT_EQ(graph.describe(*btf.vmlinux().value(), "struct fbt_test_module_only"), nullptr);
    const dtrace_type_graph *g = graph.describe(*btf.modules_read()[0], "struct fbt_test_module_only");
    ASSERT_NE(g, nullptr);
    const dtrace_type_node &root = g->types[g->root];
    EXPECT_EQ(root.kind, uint32_t(DTRACE_TYPE_STRUCT));
    EXPECT_EQ(root.nmembers, 2u);
    const dtrace_type_node *file = member_type(*g, root, "file");
    ASSERT_NE(file, nullptr);
    ASSERT_EQ(file->kind, uint32_t(DTRACE_TYPE_POINTER));
    EXPECT_STREQ(g->types[file->ref].name, "struct file"); // vmlinux's, named
    std::filesystem::remove_all(dir);
}

TEST(KernelBtf, MissingDirectoryIsAnError) {
    KernelBtf btf("/nonexistent");
    auto loaded = btf.vmlinux();
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().find("/nonexistent/vmlinux"), std::string::npos) << loaded.error();
}

} // namespace
} // namespace dtrace::fbt
