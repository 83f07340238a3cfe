// Compile-time checks of printf()/printa() arguments: every tag and message
// of dt_printf_validate(), word for word.
#include "test_support.h"

#include <vector>

namespace dtrace::consumer {
namespace {

using test::parsed;
using K = ArgType::Kind;

const ArgType kInt = ArgType::integer(4, true, "int");
const ArgType kLong = ArgType::integer(8, true, "int64_t");
const ArgType kULong = ArgType::integer(8, false, "uint64_t");
const ArgType kShort = ArgType::integer(2, true, "short");
const ArgType kString = ArgType::of(K::String, 256, "string");
const ArgType kPointer = ArgType::of(K::Pointer, 8, "char *");

std::optional<compiler::Diagnostic> check(std::string_view fmt, std::vector<ArgType> args,
                                          const CheckOptions &options = {}) {
    return check_args(parsed(fmt), args, options);
}

void expect_error(const std::optional<compiler::Diagnostic> &d, compiler::Tag tag, std::string_view message) {
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->tag, tag);
    EXPECT_EQ(d->message, message);
}

TEST(PrintfCheck, AcceptsMatchingArguments) {
    EXPECT_FALSE(check("%d %s %p %x\n", {kInt, kString, kPointer, kLong}));
    EXPECT_FALSE(check("%*.*s", {kInt, kInt, kString}));
    EXPECT_FALSE(check("100%%", {}));
}

TEST(PrintfCheck, EmptyFormat) {
    expect_error(check("", {}), compiler::Tag::D_PRINTF_FMT_EMPTY, "printf( ) format string is empty");
    CheckOptions printa;
    printa.function = "printa";
    printa.aggregation = true;
    expect_error(check("", {}, printa), compiler::Tag::D_PRINTF_FMT_EMPTY, "printa( ) format string is empty");
}

TEST(PrintfCheck, ArgumentTypeMismatch) {
    expect_error(check("%d", {kString}), compiler::Tag::D_PRINTF_ARG_TYPE,
                 "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
                 "\tconversion: %d\n"
                 "\t prototype: char, short, int, long, or long long\n"
                 "\t  argument: string");
    expect_error(check("%s %s", {kString, kInt}), compiler::Tag::D_PRINTF_ARG_TYPE,
                 "printf( ) argument #3 is incompatible with conversion #2 prototype:\n"
                 "\tconversion: %s\n"
                 "\t prototype: char [] or string (or use stringof)\n"
                 "\t  argument: int");
}

TEST(PrintfCheck, ConversionNumbersCountPercentPercentAndNameTheConversion) {
    expect_error(check("%% %lld", {kInt}), compiler::Tag::D_PRINTF_ARG_TYPE,
                 "printf( ) argument #2 is incompatible with conversion #2 prototype:\n"
                 "\tconversion: %lld\n"
                 "\t prototype: long long\n"
                 "\t  argument: int");
}

TEST(PrintfCheck, PrototypesOfEachFamily) {
    auto prototype_for = [](std::string_view fmt, const ArgType &arg) {
        auto d = check(fmt, {arg});
        if (!d)
            return std::string("<accepted>");
        const size_t at = d->message.find("prototype: ");
        const size_t end = d->message.find('\n', at);
        return d->message.substr(at + 11, end - at - 11);
    };
    EXPECT_EQ(prototype_for("%c", kLong), "char, short, or int");
    EXPECT_EQ(prototype_for("%f", kInt), "float, double, or long double");
    EXPECT_EQ(prototype_for("%p", kString), "pointer or integer");
    EXPECT_EQ(prototype_for("%A", kPointer), "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)");
    EXPECT_EQ(prototype_for("%ls", kString), "wchar_t []");
    EXPECT_EQ(prototype_for("%hd", kInt), "short");
    EXPECT_EQ(prototype_for("%hu", kShort), "unsigned short");
    EXPECT_EQ(prototype_for("%Y", kInt), "int64_t");
    EXPECT_EQ(prototype_for("%k", kLong), "stack");
    EXPECT_EQ(prototype_for("%lc", kLong), "int");
    EXPECT_EQ(prototype_for("%P", kInt), "uint16_t");
}

TEST(PrintfCheck, SizeAndKindRules) {
    EXPECT_FALSE(check("%c", {kInt}));
    EXPECT_FALSE(check("%hd", {kShort}));
    EXPECT_FALSE(check("%Y", {kULong}));
    EXPECT_FALSE(check("%a", {ArgType::of(K::SymAddr, 8, "_symaddr")}));
    EXPECT_FALSE(check("%k", {ArgType::of(K::Stack, 160, "stack")}));
    EXPECT_FALSE(check("%ws", {ArgType::of(K::WideCharArray, 64, "wchar_t [16]")}));
    EXPECT_FALSE(check("%s", {ArgType::of(K::CharArray, 16, "char [16]")}));
    EXPECT_TRUE(check("%d", {kPointer}).has_value()); // pointers are not integers
    EXPECT_TRUE(check("%e", {kLong}).has_value());    // integers are not floats
}

TEST(PrintfCheck, UserAddressNeedsATargetUnlessUsymaddr) {
    EXPECT_TRUE(check("%A", {kLong}).has_value());
    CheckOptions target;
    target.has_target = true;
    EXPECT_FALSE(check("%A", {kLong}, target));
    EXPECT_FALSE(check("%A", {ArgType::of(K::USymAddr, 8, "_usymaddr")}));
}

TEST(PrintfCheck, MissingDynamicArgument) {
    expect_error(check("%*d", {}), compiler::Tag::D_PRINTF_DYN_PROTO,
                 "printf( ) prototype mismatch: conversion #1 (%d) is missing a corresponding \"*\" argument");
    expect_error(check("%s %.*s", {kString}), compiler::Tag::D_PRINTF_DYN_PROTO,
                 "printf( ) prototype mismatch: conversion #2 (%s) is missing a corresponding \".*\" argument");
}

TEST(PrintfCheck, DynamicArgumentMustBeInteger) {
    expect_error(check("%*d", {kString, kInt}), compiler::Tag::D_PRINTF_DYN_TYPE,
                 "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
                 "\tconversion: % * d\n"
                 "\t prototype: int\n"
                 "\t  argument: string");
    expect_error(check("%*.*s", {kInt, kString, kString}), compiler::Tag::D_PRINTF_DYN_TYPE,
                 "printf( ) argument #3 is incompatible with conversion #1 prototype:\n"
                 "\tconversion: % .* s\n"
                 "\t prototype: int\n"
                 "\t  argument: string");
}

TEST(PrintfCheck, MissingValueArgument) {
    expect_error(check("%d and %d", {kInt}), compiler::Tag::D_PRINTF_ARG_PROTO,
                 "printf( ) prototype mismatch: conversion #2 (%d) is missing a corresponding value argument");
}

TEST(PrintfCheck, ExtraArguments) {
    expect_error(check("%d\n", {kInt, kInt, kInt}), compiler::Tag::D_PRINTF_ARG_EXTRA,
                 "printf( ) prototype mismatch: only 1 arguments required by this format string");
    expect_error(check("hello", {kInt}), compiler::Tag::D_PRINTF_ARG_EXTRA,
                 "printf( ) prototype mismatch: only 0 arguments required by this format string");
}

TEST(PrintfCheck, AggregationConversionOutsidePrinta) {
    expect_error(check("%@d", {}), compiler::Tag::D_PRINTF_AGG_CONV,
                 "%@ conversion requires an aggregation and is not for use with printf( )");
}

TEST(PrintfCheck, PrintaChecksKeysAndTheAggregationValue) {
    CheckOptions printa;
    printa.function = "printa";
    printa.aggregation = true;
    printa.exact_length = false;
    EXPECT_FALSE(check("%s %@d\n", {kString}, printa));
    EXPECT_FALSE(check("%@d\n", {kString, kInt}, printa)); // keys may go unused
    expect_error(check("%@s", {}, printa), compiler::Tag::D_PRINTF_ARG_TYPE,
                 "printa( ) aggregating action is incompatible with conversion #1 prototype:\n"
                 "\tconversion: %s\n"
                 "\t prototype: char [] or string (or use stringof)\n"
                 "\t  argument: int64_t");
    printa.aggregation_is_count = true;
    expect_error(check("%@c", {}, printa), compiler::Tag::D_PRINTF_ARG_TYPE,
                 "printa( ) aggregating action is incompatible with conversion #1 prototype:\n"
                 "\tconversion: %c\n"
                 "\t prototype: char, short, or int\n"
                 "\t  argument: uint64_t");
}

TEST(PrintfCheck, FormatMustBeAStringConstant) {
    const compiler::Diagnostic d = format_not_constant("printf", "int");
    EXPECT_EQ(d.tag, compiler::Tag::D_PRINTF_ARG_FMT);
    EXPECT_EQ(d.message, "printf( ) argument #1 is incompatible with prototype:\n"
                         "\tprototype: string constant\n"
                         "\t argument: int");
}

TEST(PrintfCheck, PrintaKeySignatures) {
    const std::vector<ArgType> one{kString};
    const std::vector<ArgType> two{kString, kInt};
    const std::vector<ArgType> other{kPointer};
    EXPECT_FALSE(check_printa_keys("a", one, "b", one));
    auto count = check_printa_keys("a", one, "b", two);
    ASSERT_TRUE(count);
    EXPECT_EQ(count->tag, compiler::Tag::D_PRINTA_AGGKEY);
    EXPECT_EQ(count->message, "printa( ): @a and @b do not have matching key signatures: @a has 1 key, @b has 2 keys");
    auto type = check_printa_keys("a", one, "bb", other);
    ASSERT_TRUE(type);
    EXPECT_EQ(type->tag, compiler::Tag::D_PRINTA_AGGPROTO);
    EXPECT_EQ(type->message, "printa( ): @bb[ ] key #1 is incompatible with @a:\n"
                             "        a key #1: string\n"
                             "       bb key #1: char *");
}

} // namespace
} // namespace dtrace::consumer
