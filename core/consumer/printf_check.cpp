// printf_check.cpp: compile-time checks of printf()/printa() arguments.
//
// The order of the checks, the numbering of conversions (every '%', %%
// included) and of arguments (the format string is argument #1), and the
// message texts are those of DTrace's dt_printf_validate(). Where DTrace asks
// CTF for a type's name (%hx wants a type named short, %lx one named long),
// this checker has only sizes and signedness and accepts any integer of the
// right size; "long long" with %lx is therefore accepted here and refused by
// DTrace.
#include "consumer/printf_format.h"

namespace dtrace::consumer {

namespace {

constexpr uint32_t kIntSize = sizeof(int32_t);
constexpr uint32_t kShortSize = sizeof(int16_t);
constexpr uint32_t kLongSize = sizeof(int64_t);
constexpr uint32_t kTimeSize = sizeof(int64_t);

compiler::Diagnostic error(compiler::Tag tag, std::string message) {
    compiler::Diagnostic d;
    d.tag = std::move(tag);
    d.message = std::move(message);
    return d;
}

std::string fn(std::string_view function) {
    return std::string(function) + "( )";
}

bool accepts(const ConversionInfo &conv, const ArgType &arg, const CheckOptions &options) {
    using K = ArgType::Kind;
    const bool pointer_or_int = arg.kind == K::Pointer || arg.is_integer();
    switch (conv.check) {
    case ArgCheck::Addr:
        return pointer_or_int;
    case ArgCheck::KernAddr:
        return pointer_or_int;
    case ArgCheck::UserAddr:
        return arg.kind == K::USymAddr || (options.has_target && pointer_or_int);
    case ArgCheck::Stack:
        return arg.kind == K::Stack;
    case ArgCheck::Time:
        return arg.is_integer() && arg.size == kTimeSize;
    case ArgCheck::Str:
        return arg.kind == K::String || arg.kind == K::CharArray;
    case ArgCheck::WideStr:
        return arg.kind == K::WideCharArray;
    case ArgCheck::CharSized:
        return arg.is_integer() && arg.size <= kIntSize;
    case ArgCheck::Float:
        return arg.kind == K::Float;
    case ArgCheck::AnyInt:
    case ArgCheck::DecInt:
        return arg.is_integer();
    case ArgCheck::ShortHex:
        return arg.is_integer() && arg.size == kShortSize;
    case ArgCheck::LongHex:
    case ArgCheck::LLongHex:
        return arg.is_integer() && arg.size == kLongSize;
    case ArgCheck::Exact: {
        const bool kind_ok = conv.exact.kind == K::Integer ? arg.is_integer() : arg.kind == conv.exact.kind;
        return kind_ok && arg.size == conv.exact.size &&
               (conv.exact.kind != K::Integer || arg.is_signed == conv.exact.is_signed);
    }
    }
    return false;
}

} // namespace

std::optional<compiler::Diagnostic> check_args(const Format &format, std::span<const ArgType> args,
                                               const CheckOptions &options) {
    constexpr int kFormatArgument = 1; // the format string is argument #1
    const std::string func = fn(options.function);

    if (format.source.empty())
        return error(compiler::Tag::D_PRINTF_FMT_EMPTY, func + " format string is empty");

    const ArgType agg_value = options.aggregation_is_count ? ArgType::integer(kLongSize, false, "uint64_t")
                                                           : ArgType::integer(kLongSize, true, "int64_t");
    size_t next = 0; // the next unconsumed argument
    for (size_t i = 0; i < format.pieces.size(); ++i) {
        const Conversion &c = format.pieces[i];
        if (c.info == nullptr || c.info->printer == Printer::Percent)
            continue;
        const std::string number = std::to_string(i + 1);
        const std::string name(c.info->name);

        // A '*' width comes first, then a ".*" precision.
        for (const char *dyn : {"*", ".*"}) {
            if (!c.has(dyn[0] == '*' ? kFlagDynWidth : kFlagDynPrec))
                continue;
            if (next >= args.size()) {
                return error(compiler::Tag::D_PRINTF_DYN_PROTO, func + " prototype mismatch: conversion #" + number +
                                                                    " (%" + name + ") is missing a corresponding \"" +
                                                                    dyn + "\" argument");
            }
            if (!args[next].is_integer()) {
                return error(compiler::Tag::D_PRINTF_DYN_TYPE,
                             func + " argument #" + std::to_string(next + kFormatArgument + 1) +
                                 " is incompatible with conversion #" + number + " prototype:\n\tconversion: % " + dyn +
                                 " " + name + "\n\t prototype: int\n\t  argument: " + args[next].name);
            }
            ++next;
        }

        const ArgType *arg = nullptr;
        std::string what;
        if (c.has(kFlagAggValue)) {
            if (!options.aggregation) {
                return error(compiler::Tag::D_PRINTF_AGG_CONV,
                             "%@ conversion requires an aggregation and is not for use with " + func);
            }
            arg = &agg_value;
            what = "aggregating action";
        } else if (next >= args.size()) {
            return error(compiler::Tag::D_PRINTF_ARG_PROTO, func + " prototype mismatch: conversion #" + number +
                                                                " (%" + name +
                                                                ") is missing a corresponding value argument");
        } else {
            arg = &args[next];
            what = "argument #" + std::to_string(next + kFormatArgument + 1);
            ++next;
        }

        if (!accepts(*c.info, *arg, options)) {
            return error(compiler::Tag::D_PRINTF_ARG_TYPE, func + " " + what + " is incompatible with conversion #" +
                                                               number + " prototype:\n\tconversion: %" + name +
                                                               "\n\t prototype: " + std::string(c.info->prototype) +
                                                               "\n\t  argument: " + arg->name);
        }
    }

    if (options.exact_length && next < args.size()) {
        return error(compiler::Tag::D_PRINTF_ARG_EXTRA, func + " prototype mismatch: only " + std::to_string(next) +
                                                            " arguments required by this format string");
    }
    return std::nullopt;
}

compiler::Diagnostic format_not_constant(std::string_view function, std::string_view arg_type_name) {
    return error(compiler::Tag::D_PRINTF_ARG_FMT, fn(function) +
                                                      " argument #1 is incompatible with prototype:\n\tprototype: "
                                                      "string constant\n\t argument: " +
                                                      std::string(arg_type_name));
}

std::optional<compiler::Diagnostic> check_printa_keys(std::string_view first_name, std::span<const ArgType> first_keys,
                                                      std::string_view other_name,
                                                      std::span<const ArgType> other_keys) {
    const std::string l(first_name);
    const std::string r(other_name);
    if (first_keys.size() != other_keys.size()) {
        auto keys = [](size_t n) { return std::to_string(n) + (n == 1 ? " key" : " keys"); };
        return error(compiler::Tag::D_PRINTA_AGGKEY,
                     "printa( ): @" + l + " and @" + r + " do not have matching key signatures: @" + l + " has " +
                         keys(first_keys.size()) + ", @" + r + " has " + keys(other_keys.size()));
    }
    for (size_t i = 0; i < first_keys.size(); ++i) {
        const ArgType &a = first_keys[i];
        const ArgType &b = other_keys[i];
        const bool compatible = a.is_integer() && b.is_integer() ? true : a.kind == b.kind && a.name == b.name;
        if (compatible)
            continue;
        const std::string n = std::to_string(i + 1);
        constexpr int kNameColumn = 9; // DTrace right-aligns the names in 9 columns
        auto column = [&](const std::string &s) {
            return std::string(s.size() < kNameColumn ? kNameColumn - s.size() : 0, ' ') + s;
        };
        return error(compiler::Tag::D_PRINTA_AGGPROTO,
                     "printa( ): @" + r + "[ ] key #" + n + " is incompatible with @" + l + ":\n" + column(l) +
                         " key #" + n + ": " + a.name + "\n" + column(r) + " key #" + n + ": " + b.name);
    }
    return std::nullopt;
}

} // namespace dtrace::consumer
