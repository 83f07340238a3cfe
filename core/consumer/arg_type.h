// arg_type.h: what the compiler knows of a printf()/printa() argument.
//
// DTrace checks each argument against its conversion at compile time using
// the argument's D type; the consumer's checker needs only the few facts the
// checks look at, plus the type's name for the error message.
#pragma once

#include <cstdint>
#include <string>

namespace dtrace::consumer {

struct ArgType {
    enum class Kind : uint8_t {
        Integer,       // char, short, int, long, long long, enums (signedness in is_signed)
        Pointer,       // any pointer type
        String,        // the D string type
        CharArray,     // char [N]
        WideCharArray, // an array of 32-bit integers (wchar_t [N])
        Float,         // float, double, long double (size 4, 8, 16)
        Struct,        // structs, unions and any other by-reference data
        Stack,         // the result of stack()
        SymAddr,       // _symaddr: the result of sym()/func() (an integer too)
        USymAddr,      // _usymaddr: the result of usym()/ufunc()/uaddr() (an integer too)
    };

    Kind kind = Kind::Integer;
    uint32_t size = sizeof(int32_t);
    bool is_signed = true;
    std::string name = "int"; // the type as D names it in messages: "int", "char *", "string"

    bool is_integer() const { return kind == Kind::Integer || kind == Kind::SymAddr || kind == Kind::USymAddr; }

    static ArgType integer(uint32_t size, bool is_signed, std::string name) {
        return ArgType{Kind::Integer, size, is_signed, std::move(name)};
    }
    static ArgType of(Kind kind, uint32_t size, std::string name) {
        return ArgType{kind, size, false, std::move(name)};
    }
};

} // namespace dtrace::consumer
