// provider_definitions_test.cpp: an installed provider definition read as
// the usdt plugin asks for it (read_provider_types): the types table of a
// good file, and the file and line of a bad one.
#include "cli/provider_definitions.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace dtrace::cli {
namespace {

class ProviderDefinitions : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() / ("provider_definitions_test." + std::to_string(getpid()));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string write(const std::string &name, const std::string &text) {
        const std::string path = (dir_ / name).string();
        std::ofstream(path) << text;
        return path;
    }

    std::filesystem::path dir_;
};

TEST_F(ProviderDefinitions, TypesTableWithTranslatedTypes) {
    const std::string path = write("geo.d", "struct point { int x, y; };\n"
                                            "provider geo {\n"
                                            "\tprobe moved(struct point *, char *) : (uintptr_t, string);\n"
                                            "\tprobe tick();\n"
                                            "};\n");
    Result<std::string> types = read_provider_types(path);
    ASSERT_TRUE(types) << types.reason();
    EXPECT_EQ(*types, "geo\tmoved\tstruct point * : uintptr_t\tchar * : string\ngeo\ttick\n");
}

TEST_F(ProviderDefinitions, SyntaxErrorNamesFileAndLine) {
    const std::string path = write("bad.d", "provider geo {\n\tprobe moved(int\n};\n");
    Result<std::string> types = read_provider_types(path);
    ASSERT_FALSE(types);
    EXPECT_EQ(types.reason().rfind(path + ": line 3: ", 0), 0u) << types.reason();
}

TEST_F(ProviderDefinitions, ProviderRulesApply) {
    const std::string path = write("dup.d", "provider geo {\n\tprobe a(int);\n\tprobe a(int);\n};\n");
    Result<std::string> types = read_provider_types(path);
    ASSERT_FALSE(types);
    EXPECT_NE(types.reason().find("probe redeclared"), std::string::npos) << types.reason();
}

TEST_F(ProviderDefinitions, ClausesAreRefused) {
    const std::string path = write("clauses.d", "provider geo { probe a(int); };\n\nBEGIN { exit(0); }\n");
    Result<std::string> types = read_provider_types(path);
    ASSERT_FALSE(types);
    EXPECT_EQ(types.reason(), path + ": line 3: a provider definition holds no probe clauses");
}

TEST_F(ProviderDefinitions, MissingFile) {
    Result<std::string> types = read_provider_types((dir_ / "absent.d").string());
    ASSERT_FALSE(types);
    EXPECT_NE(types.reason().find("absent.d"), std::string::npos) << types.reason();
}

} // namespace
} // namespace dtrace::cli
