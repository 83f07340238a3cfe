// conversions.h: the printf conversion dictionary.
//
// DTrace keeps its printf conversions in one table: the conversion name as the
// user writes it (length modifiers included, "lld"), the conversion handed to
// printf(3C) after the argument's size is known ("d"), the prototype named in
// type errors, how the argument is checked at compile time and how its record
// is printed. This is that table; everything else in printf_format.cpp is
// driven by it. The rows follow illumos; %I and %P (inet address and port)
// come from the FreeBSD/Oracle tables, which illumos lacks.
#pragma once

#include "consumer/arg_type.h"

#include <cstdint>
#include <string_view>

namespace dtrace::consumer {

// How an argument is checked against its conversion at compile time.
enum class ArgCheck : uint8_t {
    Addr,      // pointer or integer
    KernAddr,  // pointer, integer or _symaddr
    UserAddr,  // _usymaddr, or pointer/integer when a target process exists (-p/-c)
    Stack,     // the result of stack()
    Time,      // an 8-byte integer
    Str,       // string or char []
    WideStr,   // wchar_t []
    CharSized, // an integer no wider than int
    Float,     // float, double or long double
    AnyInt,    // any integer
    DecInt,    // any integer; its signedness picks %d or %u
    ShortHex,  // a 2-byte integer (DTrace: the type named short)
    LongHex,   // an 8-byte integer (DTrace: the type named long)
    LLongHex,  // an 8-byte integer (DTrace: long long or [u]int64_t)
    Exact,     // exactly the type in `exact`
};

// How a record is printed.
enum class Printer : uint8_t {
    SignedInt,
    UnsignedInt,
    DecInt, // SignedInt or UnsignedInt by the argument's signedness
    Float,
    KernAddr,
    UserAddr,
    Stack,
    Time,    // %Y: "2024 Jan  2 03:04:05"
    Time822, // %T: RFC 822
    Port,    // %P
    InetAddr,
    String,
    WideString,
    EscString,
    EscChar,
    Percent,
};

// The type a conversion with ArgCheck::Exact demands.
struct ExactType {
    ArgType::Kind kind = ArgType::Kind::Integer;
    uint32_t size = 0;
    bool is_signed = false;
};

struct ConversionInfo {
    std::string_view name;      // as written after '%' and the flags: "d", "llx", "@" is a flag
    std::string_view output;    // the printf(3C) conversion used to print it
    std::string_view prototype; // named in D_PRINTF_ARG_TYPE messages
    ArgCheck check;
    Printer printer;
    ExactType exact{};
};

// The row for a conversion name, or nullptr if DTrace does not define it.
const ConversionInfo *find_conversion(std::string_view name);

} // namespace dtrace::consumer
