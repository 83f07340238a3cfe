// printf_format.h: DTrace's printf(), printa() and friends: parse, check, print.
//
// A format string is parsed once, at compile time, into pieces: the literal
// text before each conversion and the conversion itself (flags, width,
// precision, and its row in the conversion table). The compiler checks the
// argument types against it (with DTrace's error tags and wording); the
// consumer later prints each firing's records through it. Printing follows
// libdtrace: the printf(3C) conversion is chosen from the record's size (an
// 8-byte record gets "ll"), small integers are widened as C would, and custom
// conversions (%a %Y %S ...) render to text first and are then padded as %s.
#pragma once

#include "common/result.h"
#include "common/symbol.h"
#include "compiler/diagnostic.h"
#include "consumer/arg_type.h"
#include "consumer/conversions.h"
#include "consumer/value.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::consumer {

// Conversion flags, as DTrace records them while parsing.
enum ConvFlag : uint32_t {
    kFlagAlt = 1U << 0,      // '#'
    kFlagZeroPad = 1U << 1,  // '0' (cleared by a later '-')
    kFlagLeft = 1U << 2,     // '-' (cleared by a later '0')
    kFlagPlus = 1U << 3,     // '+'
    kFlagGroup = 1U << 4,    // '\''
    kFlagSpace = 1U << 5,    // ' '
    kFlagDynWidth = 1U << 6, // '*'
    kFlagDynPrec = 1U << 7,  // ".*"
    kFlagAggValue = 1U << 8, // '@' (printa: the aggregation's value)
};

// One piece of a format: literal text, then (except for a trailing piece of
// text alone) one conversion.
struct Conversion {
    std::string prefix;
    const ConversionInfo *info = nullptr; // nullptr: only `prefix`
    uint32_t flags = 0;
    int width = 0;     // '?' sets 16 (the width of a 64-bit pointer)
    int precision = 0; // 0: none (DTrace ignores ".0")

    bool has(ConvFlag flag) const { return (flags & flag) != 0; }
};

struct Format {
    std::string source;
    std::vector<Conversion> pieces;
};

// Parses a format string. Malformed conversions are reported as DTrace
// reports them (tag D_SYNTAX, e.g. "format conversion #1 is undefined: %z").
Result<Format, compiler::Diagnostic> parse_format(std::string_view text);

struct CheckOptions {
    std::string_view function = "printf"; // the action named in messages
    bool exact_length = true;             // printf-like actions: extra arguments are an error
    bool aggregation = false;             // printa(): the arguments are the keys, %@ is allowed
    bool aggregation_is_count = false;    // count()'s value is unsigned, all others signed
    bool has_target = false;              // a -p/-c process exists (%A then takes integers)
};

// Checks argument types against the conversions, returning the first error
// DTrace reports (D_PRINTF_FMT_EMPTY, D_PRINTF_DYN_PROTO, D_PRINTF_DYN_TYPE,
// D_PRINTF_AGG_CONV, D_PRINTF_ARG_PROTO, D_PRINTF_ARG_TYPE,
// D_PRINTF_ARG_EXTRA). Messages are DTrace's, minus the final newline; the
// compiler fills in the line.
std::optional<compiler::Diagnostic> check_args(const Format &format, std::span<const ArgType> args,
                                               const CheckOptions &options = {});

// D_PRINTF_ARG_FMT: the format argument is not a string constant.
compiler::Diagnostic format_not_constant(std::string_view function, std::string_view arg_type_name);

// D_PRINTA_AGGKEY / D_PRINTA_AGGPROTO: printa() of several aggregations whose
// keys differ. Returns nothing when the key types agree.
std::optional<compiler::Diagnostic> check_printa_keys(std::string_view first_name, std::span<const ArgType> first_keys,
                                                      std::string_view other_name, std::span<const ArgType> other_keys);

// Name lookups the consumer cannot do itself. Each returns nothing when the
// address or number is unknown; DTrace then prints the number ("0x%llx").
struct Resolvers {
    // %a, %k, stack(), sym(), mod(): what contains a kernel address
    // (symbol_format.h writes it down).
    std::function<std::optional<Symbol>(uint64_t address)> kernel_symbol;
    // %A, ustack(), usym(), umod(), uaddr(): the same for a user address of process `pid`.
    std::function<std::optional<Symbol>(uint64_t pid, uint64_t address)> user_symbol;
    // %P: the service name of a port (getservbyport), e.g. "ssh" for 22.
    std::function<std::optional<std::string>(uint16_t port)> service_name;
    // %I: the host name of a textual IPv4/IPv6 address.
    std::function<std::optional<std::string>(std::string_view address)> host_name;
};

struct FormatContext {
    Resolvers resolvers;
};

// printf(): formats one firing's records. `args` holds the records in the
// order the conversions consume them ('*' and ".*" take one each, before the
// value). Fails as libdtrace does when the records do not fit.
Result<std::string> format(const Format &format, std::span<const Value> args, const FormatContext &context = {});

// printa(): what a %@ conversion prints for one aggregation.
struct AggValue {
    std::optional<Value> scalar; // printed through the conversion, divided by `normal`
    int64_t normal = 1;
    std::string text; // printed verbatim when `scalar` is empty (quantize art)
};

// printa() with a format, for one aggregation tuple: the keys feed the
// ordinary conversions, each %@ takes the next of `values` (the last one is
// reused once they run out).
Result<std::string> format_printa(const Format &format, std::span<const Value> keys, std::span<const AggValue> values,
                                  const FormatContext &context = {});

// The text of an address when no resolver knows it: "0x" and hex digits.
std::string unresolved_address(uint64_t address);

} // namespace dtrace::consumer
