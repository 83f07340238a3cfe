// conversions.cpp: the rows of the printf conversion dictionary (see conversions.h).
#include "consumer/conversions.h"

#include <array>

namespace dtrace::consumer {

namespace {

using K = ArgType::Kind;

// Prototype texts DTrace prints for conversions that accept several types.
constexpr std::string_view kProtoAnyInt = "char, short, int, long, or long long";
constexpr std::string_view kProtoCharSized = "char, short, or int";
constexpr std::string_view kProtoFloat = "float, double, or long double";
constexpr std::string_view kProtoAddr = "pointer or integer";
constexpr std::string_view kProtoUserAddr = "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
constexpr std::string_view kProtoStr = "char [] or string (or use stringof)";
constexpr std::string_view kProtoWideStr = "wchar_t []";

constexpr ExactType kShort{K::Integer, 2, true};
constexpr ExactType kUShort{K::Integer, 2, false};
constexpr ExactType kInt{K::Integer, 4, true};
constexpr ExactType kLong{K::Integer, 8, true};
constexpr ExactType kULong{K::Integer, 8, false};
constexpr ExactType kLongDouble{K::Float, 16, true};
constexpr ExactType kUInt16{K::Integer, 2, false};

constexpr std::array kConversions = {
    ConversionInfo{"a", "s", kProtoAddr, ArgCheck::KernAddr, Printer::KernAddr},
    ConversionInfo{"A", "s", kProtoUserAddr, ArgCheck::UserAddr, Printer::UserAddr},
    ConversionInfo{"c", "c", kProtoCharSized, ArgCheck::CharSized, Printer::SignedInt},
    ConversionInfo{"C", "s", kProtoCharSized, ArgCheck::CharSized, Printer::EscChar},
    ConversionInfo{"d", "d", kProtoAnyInt, ArgCheck::DecInt, Printer::DecInt},
    ConversionInfo{"e", "e", kProtoFloat, ArgCheck::Float, Printer::Float},
    ConversionInfo{"E", "E", kProtoFloat, ArgCheck::Float, Printer::Float},
    ConversionInfo{"f", "f", kProtoFloat, ArgCheck::Float, Printer::Float},
    ConversionInfo{"g", "g", kProtoFloat, ArgCheck::Float, Printer::Float},
    ConversionInfo{"G", "G", kProtoFloat, ArgCheck::Float, Printer::Float},
    ConversionInfo{"hd", "d", "short", ArgCheck::Exact, Printer::SignedInt, kShort},
    ConversionInfo{"hi", "i", "short", ArgCheck::Exact, Printer::SignedInt, kShort},
    ConversionInfo{"ho", "o", "unsigned short", ArgCheck::Exact, Printer::UnsignedInt, kUShort},
    ConversionInfo{"hu", "u", "unsigned short", ArgCheck::Exact, Printer::UnsignedInt, kUShort},
    ConversionInfo{"hx", "x", "short", ArgCheck::ShortHex, Printer::UnsignedInt},
    ConversionInfo{"hX", "X", "short", ArgCheck::ShortHex, Printer::UnsignedInt},
    ConversionInfo{"i", "i", kProtoAnyInt, ArgCheck::DecInt, Printer::DecInt},
    ConversionInfo{"I", "s", kProtoStr, ArgCheck::Str, Printer::InetAddr},
    ConversionInfo{"k", "s", "stack", ArgCheck::Stack, Printer::Stack},
    ConversionInfo{"lc", "lc", "int", ArgCheck::Exact, Printer::SignedInt, kInt},
    ConversionInfo{"ld", "d", "long", ArgCheck::Exact, Printer::SignedInt, kLong},
    ConversionInfo{"li", "i", "long", ArgCheck::Exact, Printer::SignedInt, kLong},
    ConversionInfo{"lo", "o", "unsigned long", ArgCheck::Exact, Printer::UnsignedInt, kULong},
    ConversionInfo{"lu", "u", "unsigned long", ArgCheck::Exact, Printer::UnsignedInt, kULong},
    ConversionInfo{"ls", "ls", kProtoWideStr, ArgCheck::WideStr, Printer::WideString},
    ConversionInfo{"lx", "x", "long", ArgCheck::LongHex, Printer::UnsignedInt},
    ConversionInfo{"lX", "X", "long", ArgCheck::LongHex, Printer::UnsignedInt},
    ConversionInfo{"lld", "d", "long long", ArgCheck::Exact, Printer::SignedInt, kLong},
    ConversionInfo{"lli", "i", "long long", ArgCheck::Exact, Printer::SignedInt, kLong},
    ConversionInfo{"llo", "o", "unsigned long long", ArgCheck::Exact, Printer::UnsignedInt, kULong},
    ConversionInfo{"llu", "u", "unsigned long long", ArgCheck::Exact, Printer::UnsignedInt, kULong},
    ConversionInfo{"llx", "x", "long long", ArgCheck::LLongHex, Printer::UnsignedInt},
    ConversionInfo{"llX", "X", "long long", ArgCheck::LLongHex, Printer::UnsignedInt},
    ConversionInfo{"Le", "e", "long double", ArgCheck::Exact, Printer::Float, kLongDouble},
    ConversionInfo{"LE", "E", "long double", ArgCheck::Exact, Printer::Float, kLongDouble},
    ConversionInfo{"Lf", "f", "long double", ArgCheck::Exact, Printer::Float, kLongDouble},
    ConversionInfo{"Lg", "g", "long double", ArgCheck::Exact, Printer::Float, kLongDouble},
    ConversionInfo{"LG", "G", "long double", ArgCheck::Exact, Printer::Float, kLongDouble},
    ConversionInfo{"o", "o", kProtoAnyInt, ArgCheck::AnyInt, Printer::UnsignedInt},
    ConversionInfo{"p", "x", kProtoAddr, ArgCheck::Addr, Printer::UnsignedInt},
    ConversionInfo{"P", "s", "uint16_t", ArgCheck::Exact, Printer::Port, kUInt16},
    ConversionInfo{"s", "s", kProtoStr, ArgCheck::Str, Printer::String},
    ConversionInfo{"S", "s", kProtoStr, ArgCheck::Str, Printer::EscString},
    ConversionInfo{"T", "s", "int64_t", ArgCheck::Time, Printer::Time822},
    ConversionInfo{"u", "u", kProtoAnyInt, ArgCheck::AnyInt, Printer::UnsignedInt},
    // illumos prints these with Solaris' %wc/%ws; they mean %lc/%ls.
    ConversionInfo{"wc", "lc", "int", ArgCheck::Exact, Printer::SignedInt, kInt},
    ConversionInfo{"ws", "ls", kProtoWideStr, ArgCheck::WideStr, Printer::WideString},
    ConversionInfo{"x", "x", kProtoAnyInt, ArgCheck::AnyInt, Printer::UnsignedInt},
    ConversionInfo{"X", "X", kProtoAnyInt, ArgCheck::AnyInt, Printer::UnsignedInt},
    ConversionInfo{"Y", "s", "int64_t", ArgCheck::Time, Printer::Time},
    ConversionInfo{"%", "%", "void", ArgCheck::Exact, Printer::Percent},
};

} // namespace

const ConversionInfo *find_conversion(std::string_view name) {
    for (const ConversionInfo &c : kConversions) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

} // namespace dtrace::consumer
