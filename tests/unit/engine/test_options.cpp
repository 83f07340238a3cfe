// The option table: defaults, parsing of sizes and rates, and errors.
#include "engine/options.h"

#include <gtest/gtest.h>

using namespace dtrace::engine;

TEST(Options, DefaultsAreDTraces) {
    Options o;
    EXPECT_EQ(o.number("bufsize"), 4 << 20);
    EXPECT_EQ(o.number("aggsize"), 4 << 20);
    EXPECT_EQ(o.number("strsize"), 256);
    EXPECT_EQ(o.number("nspec"), 1);
    EXPECT_EQ(o.number("specsize"), 32 << 10);
    EXPECT_EQ(o.number("stackframes"), 20);
    EXPECT_EQ(o.number("switchrate"), 1'000'000'000);
    EXPECT_FALSE(o.is_set("quiet"));
}

TEST(Options, Sizes) {
    EXPECT_EQ(parse_size("512"), 512);
    EXPECT_EQ(parse_size("4k"), 4096);
    EXPECT_EQ(parse_size("2M"), 2 << 20);
    EXPECT_EQ(parse_size("1g"), int64_t(1) << 30);
    EXPECT_EQ(parse_size("0x10"), 16);
    EXPECT_FALSE(parse_size("4q"));
    EXPECT_FALSE(parse_size("k"));
    EXPECT_FALSE(parse_size("99999999999999999999"));
}

TEST(Options, Rates) {
    EXPECT_EQ(parse_rate("10hz"), 100'000'000);
    EXPECT_EQ(parse_rate("1s"), 1'000'000'000);
    EXPECT_EQ(parse_rate("250ms"), 250'000'000);
    EXPECT_EQ(parse_rate("5us"), 5'000);
    EXPECT_EQ(parse_rate("100"), 100); // a bare number is nanoseconds
    EXPECT_EQ(parse_rate("2min"), 120'000'000'000);
    EXPECT_FALSE(parse_rate("10furlongs"));
}

TEST(Options, SetReportsDTracesErrors) {
    Options o;
    EXPECT_EQ(o.set("nosuchoption", std::nullopt), "Invalid option name");
    EXPECT_EQ(o.set("bufsize", "lots"), "Invalid value for specified option");
    EXPECT_EQ(o.set("quiet", "maybe"), "Invalid value for specified option");
    EXPECT_EQ(o.set("errtags", "yes"), "Invalid value for specified option"); // compile-time flags take no value
    EXPECT_EQ(o.set("bufsize", "1m"), std::nullopt);
    EXPECT_EQ(o.number("bufsize"), 1 << 20);
    EXPECT_EQ(o.set("quiet", std::nullopt), std::nullopt);
    EXPECT_TRUE(o.is_set("quiet"));
}

TEST(Options, BufferPolicyAndResizeTakeOnlyTheirWords) {
    Options o;
    EXPECT_EQ(*o.text("bufpolicy"), "switch");
    EXPECT_EQ(o.set("bufpolicy", "ring"), std::nullopt);
    EXPECT_EQ(o.set("bufpolicy", "fill"), std::nullopt);
    EXPECT_EQ(o.set("bufpolicy", "rings"), "Invalid value for specified option");
    EXPECT_EQ(o.set("bufpolicy", ""), "Invalid value for specified option");
    EXPECT_EQ(*o.text("bufpolicy"), "fill");
    EXPECT_EQ(o.set("bufresize", "manual"), std::nullopt);
    EXPECT_EQ(o.set("bufresize", "sometimes"), "Invalid value for specified option");
}

TEST(Options, ListsAccumulateAndPluginsDeclareTheirOwn) {
    Options o;
    ASSERT_EQ(o.set("plugin", "/a.so"), std::nullopt);
    ASSERT_EQ(o.set("plugin", "/b.so"), std::nullopt);
    EXPECT_EQ(o.list("plugin"), (std::vector<std::string>{"/a.so", "/b.so"}));
    EXPECT_EQ(o.set("myprovider_opt", "x"), "Invalid option name");
    std::string name = "myprovider_opt";
    o.declare({name.c_str(), OptionKind::List, OptionClass::Plugin, nullptr});
    name = "clobbered"; // the table keeps its own copy of the name
    EXPECT_EQ(o.set("myprovider_opt", "x"), std::nullopt);
    EXPECT_EQ(o.set("myprovider_opt", "y"), std::nullopt);
    EXPECT_EQ(o.list("myprovider_opt").size(), 2u);
    EXPECT_EQ(*o.text("myprovider_opt"), "x:y"); // how plugins read a list
}

TEST(Options, SetWhileTracingFollowsDTracesRuntimeRules) {
    Options o;
    EXPECT_EQ(o.set_while_tracing("bufsize", "1m"), "Operation illegal when tracing is active");
    EXPECT_EQ(o.number("bufsize"), 4 << 20);
    EXPECT_EQ(o.set_while_tracing("nosuchoption", "1"), "Invalid option name");
    EXPECT_EQ(o.set_while_tracing("quiet", "maybe"), "Invalid value for specified option");
    EXPECT_EQ(o.set_while_tracing("quiet", "YES"), std::nullopt);
    EXPECT_TRUE(o.is_set("quiet"));
    EXPECT_EQ(o.set_while_tracing("quiet", "off"), std::nullopt);
    EXPECT_FALSE(o.is_set("quiet"));
    EXPECT_EQ(o.set_while_tracing("quiet", "0"), std::nullopt); // any number sets a flag
    EXPECT_TRUE(o.is_set("quiet"));
    EXPECT_EQ(o.set_while_tracing("quiet", ""), std::nullopt);
    EXPECT_FALSE(o.is_set("quiet"));
    EXPECT_EQ(o.set_while_tracing("aggsortkeypos", "2"), std::nullopt);
    EXPECT_EQ(o.number("aggsortkeypos"), 2);
    EXPECT_EQ(o.set_while_tracing("switchrate", "10hz"), std::nullopt);
    EXPECT_EQ(o.number("switchrate"), 100'000'000);
}

TEST(Options, RuntimeFlagsAndIntegersTakeDTracesSwitchWords) {
    Options o;
    EXPECT_EQ(o.set("quiet", "yes"), std::nullopt);
    EXPECT_TRUE(o.is_set("quiet"));
    EXPECT_EQ(o.set("quiet", "Disabled"), std::nullopt);
    EXPECT_FALSE(o.is_set("quiet"));
    EXPECT_EQ(o.set("destructive", "0"), std::nullopt); // any number sets a flag
    EXPECT_TRUE(o.is_set("destructive"));
    EXPECT_EQ(o.set("nspec", "on"), std::nullopt);
    EXPECT_EQ(o.number("nspec"), 1);
    EXPECT_EQ(o.set("nspec", "4"), std::nullopt);
    EXPECT_EQ(o.set("nspec", "unset"), std::nullopt); // back to the default
    EXPECT_EQ(o.number("nspec"), 1);
}

TEST(Options, ValuesWiderThanTheirTypeAreRefused) {
    Options o;
    EXPECT_EQ(o.set("strsize", "4294967295"), std::nullopt);
    EXPECT_EQ(o.set("strsize", "4g"), "Value too large for defined data type");
    EXPECT_EQ(o.number("strsize"), 4294967295); // the failed set changed nothing
    EXPECT_EQ(o.set("stackframes", "4294967296"), "Value too large for defined data type");
    EXPECT_EQ(o.set("bufsize", "100t"), std::nullopt); // sizes are checked against the machine at start
}

TEST(Options, CompileTimeFlagsRefuseEvenAnEmptyValue) {
    Options o;
    EXPECT_EQ(o.set("zdefs", ""), "Invalid value for specified option");
    EXPECT_FALSE(o.is_set("zdefs"));
    EXPECT_EQ(o.set("zdefs", std::nullopt), std::nullopt);
    EXPECT_TRUE(o.is_set("zdefs"));
}

TEST(Options, DroptagsIgnoresItsValue) {
    for (std::optional<std::string_view> value :
         {std::optional<std::string_view>(), std::optional<std::string_view>("1"),
          std::optional<std::string_view>("no"), std::optional<std::string_view>("")}) {
        Options o;
        EXPECT_EQ(o.set("droptags", value), std::nullopt);
        EXPECT_TRUE(o.is_set("droptags")); // dt_opt_droptags sets it whatever it is given
    }
}

TEST(Options, InverseFlagsTurnTheirFlagOff) {
    Options o;
    ASSERT_EQ(o.set("knodefs", std::nullopt), std::nullopt);
    ASSERT_EQ(o.set("unodefs", std::nullopt), std::nullopt);
    EXPECT_EQ(o.set("kdefs", std::nullopt), std::nullopt);
    EXPECT_FALSE(o.is_set("knodefs"));
    EXPECT_TRUE(o.is_set("unodefs"));
    EXPECT_EQ(o.set("udefs", std::nullopt), std::nullopt);
    EXPECT_FALSE(o.is_set("unodefs"));
    EXPECT_EQ(o.set("kdefs", "1"), "Invalid value for specified option");
}

TEST(Options, EncodingTakesAsciiOrUtf8) {
    Options o;
    EXPECT_FALSE(o.is_set("encoding")); // unset: the terminal decides aggpack's cells
    EXPECT_EQ(o.set("encoding", "utf8"), std::nullopt);
    EXPECT_EQ(*o.text("encoding"), "utf8");
    EXPECT_EQ(o.set("encoding", "ascii"), std::nullopt);
    EXPECT_EQ(o.set("encoding", "UTF-8"), "Invalid value for specified option");
    EXPECT_EQ(o.set("encoding", std::nullopt), "Invalid value for specified option");
    EXPECT_EQ(*o.text("encoding"), "ascii");
}
