// printf_print.cpp: printing records through a parsed format (see printf_format.h).
//
// For each conversion DTrace assembles a printf(3C) format from the parsed
// flags ('#', '0', '-', '+', '\'', ' ' in that order), the width (absolute
// value; a negative '*' width means '-'), the precision (only when positive)
// and the conversion, prefixed by "ll" for 8-byte integers and "L" for long
// doubles. Integers narrower than 8 bytes are widened to 32 bits, signed or
// unsigned according to the conversion, before printf sees them.
#include "consumer/printf_format.h"

#include "common/utf8.h"
#include "consumer/cformat.h"
#include "consumer/escape.h"
#include "consumer/stack_format.h"
#include "consumer/symbol_format.h"
#include "consumer/time_format.h"

#include <cstring>

namespace dtrace::consumer {

namespace {

constexpr std::string_view kRecordMismatch = "Data record list does not match statement";
// Widths and precisions beyond this are refused rather than allocated.
constexpr long long kMaxFieldWidth = 1 << 20;
constexpr uint32_t kLongDoubleSize = 16;
constexpr uint32_t kUserAddrWithPidSize = 2 * sizeof(uint64_t);
constexpr uint32_t kWideCharSize = sizeof(uint32_t);
constexpr uint32_t kAsciiLimit = 0x80;

Failure mismatch() {
    return Failure{std::string(kRecordMismatch)};
}

std::string leading_flags(const Conversion &c, int width) {
    std::string f;
    if (c.has(kFlagAlt))
        f += '#';
    if (c.has(kFlagZeroPad))
        f += '0';
    if (width < 0 || c.has(kFlagLeft))
        f += '-';
    if (c.has(kFlagPlus))
        f += '+';
    if (c.has(kFlagGroup))
        f += '\'';
    if (c.has(kFlagSpace))
        f += ' ';
    return f;
}

// "%<flags><width>.<precision>" without the conversion.
std::string spec_head(const Conversion &c, int width, int precision) {
    std::string s = "%" + leading_flags(c, width);
    if (width != 0)
        s += std::to_string(width < 0 ? -static_cast<long long>(width) : width);
    if (precision > 0)
        s += "." + std::to_string(precision);
    return s;
}

bool is_int_record(const Value &v) {
    return v.kind == Value::Kind::Integer && (v.size == 1 || v.size == 2 || v.size == 4 || v.size == 8);
}

// dt_printf_getint(): a '*' width or precision record, as an int.
std::optional<int> record_int(const Value &v) {
    if (!is_int_record(v))
        return std::nullopt;
    return static_cast<int>(v.as_signed());
}

int64_t divide_signed(int64_t value, int64_t divisor) {
    if (divisor == 0)
        return value;
    if (divisor == -1)
        return static_cast<int64_t>(0 - static_cast<uint64_t>(value));
    return value / divisor;
}

uint64_t divide_unsigned(uint64_t value, uint64_t divisor) {
    return divisor == 0 ? value : value / divisor;
}

std::string until_nul(const std::string &record) {
    return record.substr(0, std::strlen(record.c_str()));
}

// Everything one conversion needs to print its record.
struct Job {
    const Conversion &conv;
    int width;
    int precision;
    int dynamic_width; // the '*' value, 0 without '*'
    const FormatContext &context;
};

std::string as_string(const Job &job, const std::string &text) {
    return c_printf(spec_head(job.conv, job.width, job.precision) + "s", text.c_str());
}

Result<std::string> print_int(const Job &job, const Value &v, int64_t normal, bool is_signed) {
    if (!is_int_record(v))
        return mismatch();
    std::string conv(job.conv.info->output);
    if (job.conv.info->printer == Printer::DecInt && !is_signed)
        conv.back() = 'u';
    if (conv == "lc") {
        const auto code = static_cast<uint32_t>(divide_signed(v.as_signed(), normal));
        if (code < kAsciiLimit)
            return c_printf(spec_head(job.conv, job.width, job.precision) + "c", static_cast<int>(code));
        std::string text;
        common::append_utf8(text, code);
        return as_string(job, text);
    }
    // "ll" only for 8-byte records; %c always takes an int (the checker keeps
    // wider records away from it, the consumer must not trust that).
    const bool wide = v.size == sizeof(uint64_t) && conv != "c";
    const std::string spec = spec_head(job.conv, job.width, job.precision) + (wide ? "ll" : "") + conv;
    if (is_signed) {
        if (wide)
            return c_printf(spec, static_cast<long long>(divide_signed(v.as_signed(), normal)));
        return c_printf(
            spec, static_cast<int>(divide_signed(static_cast<int32_t>(v.as_signed()), static_cast<int32_t>(normal))));
    }
    if (wide)
        return c_printf(
            spec, static_cast<unsigned long long>(divide_unsigned(v.as_unsigned(), static_cast<uint64_t>(normal))));
    return c_printf(spec, static_cast<unsigned>(
                              divide_unsigned(static_cast<uint32_t>(v.as_unsigned()), static_cast<uint32_t>(normal))));
}

Result<std::string> print_float(const Job &job, const Value &v, int64_t normal) {
    const std::string rec = v.record();
    const std::string head = spec_head(job.conv, job.width, job.precision);
    const std::string conv(job.conv.info->output);
    if (rec.size() == sizeof(float)) {
        float f = 0;
        std::memcpy(&f, rec.data(), sizeof(f));
        return c_printf(head + conv, static_cast<double>(f) / static_cast<double>(normal));
    }
    if (rec.size() == sizeof(double)) {
        double d = 0;
        std::memcpy(&d, rec.data(), sizeof(d));
        return c_printf(head + conv, d / static_cast<double>(normal));
    }
    if (rec.size() == kLongDoubleSize && sizeof(long double) == kLongDoubleSize) {
        long double ld = 0;
        std::memcpy(&ld, rec.data(), sizeof(ld));
        return c_printf(head + "L" + conv, ld / static_cast<long double>(normal));
    }
    return mismatch();
}

Result<std::string> print_stack(const Job &job, const Value &v) {
    if (v.kind != Value::Kind::Stack && v.kind != Value::Kind::UserStack)
        return mismatch();
    // The stack's format is applied to each frame; '-' turns the width into
    // the frames' indentation instead (and no '-' means no indentation).
    int indent = 0;
    if (job.dynamic_width < 0)
        indent = -job.dynamic_width;
    else if (job.conv.has(kFlagLeft))
        indent = job.dynamic_width != 0 ? job.dynamic_width : job.conv.width;
    const int width = job.conv.has(kFlagLeft) ? 0 : job.width;
    const std::string spec = spec_head(job.conv, width, job.precision) + "s";
    return format_stack(v, job.context.resolvers, indent,
                        [&](const std::string &frame) { return c_printf(spec, frame.c_str()); });
}

Result<std::string> print_user_addr(const Job &job, const Value &v) {
    uint64_t pid = 0;
    uint64_t address = 0;
    if (is_int_record(v) && v.size >= sizeof(uint32_t)) {
        address = v.as_unsigned();
    } else if (v.kind == Value::Kind::Bytes && v.bytes.size() == kUserAddrWithPidSize) {
        std::memcpy(&pid, v.bytes.data(), sizeof(pid));
        std::memcpy(&address, v.bytes.data() + sizeof(pid), sizeof(address));
    } else {
        return mismatch();
    }
    return as_string(job, address_text(user_lookup(job.context.resolvers, pid, address), address));
}

Result<std::string> print_wide_string(const Job &job, const Value &v) {
    const std::string rec = v.record();
    std::string text;
    for (size_t off = 0; off + kWideCharSize <= rec.size(); off += kWideCharSize) {
        uint32_t cp = 0;
        std::memcpy(&cp, rec.data() + off, sizeof(cp));
        if (cp == 0)
            break;
        common::append_utf8(text, cp);
    }
    return as_string(job, text);
}

Result<std::string> print_one(const Job &job, const Value &v, int64_t normal) {
    const FormatContext &ctx = job.context;
    const Printer printer = job.conv.info->printer;
    // A mod() or umod() key names a module: DTrace's dt_printf_format prints
    // such records with its module printer, so %a and %A print the module.
    const bool module_key = v.symbolic == Value::Symbolic::Mod || v.symbolic == Value::Symbolic::UMod;
    if (module_key && (printer == Printer::KernAddr || printer == Printer::UserAddr))
        return as_string(job, symbolic_text(v, ctx.resolvers));
    switch (printer) {
    case Printer::SignedInt:
        return print_int(job, v, normal, true);
    case Printer::UnsignedInt:
        return print_int(job, v, normal, false);
    case Printer::DecInt:
        return print_int(job, v, normal, v.is_signed);
    case Printer::Float:
        return print_float(job, v, normal);
    case Printer::KernAddr:
        if (!is_int_record(v) || v.size < sizeof(uint32_t))
            return mismatch();
        return as_string(job, address_text(kernel_lookup(ctx.resolvers, v.as_unsigned()), v.as_unsigned()));
    case Printer::UserAddr:
        return print_user_addr(job, v);
    case Printer::Stack:
        return print_stack(job, v);
    case Printer::Time:
        return as_string(job, format_time_y(v.as_unsigned()));
    case Printer::Time822:
        return as_string(job, format_time_rfc822(v.as_unsigned()));
    case Printer::Port: {
        const auto port = static_cast<uint16_t>(v.as_unsigned());
        std::optional<std::string> name;
        if (ctx.resolvers.service_name)
            name = ctx.resolvers.service_name(port);
        return as_string(job, name ? *name : std::to_string(port));
    }
    case Printer::InetAddr: {
        const std::string addr = until_nul(v.record());
        std::optional<std::string> name;
        if (ctx.resolvers.host_name)
            name = ctx.resolvers.host_name(addr);
        return as_string(job, name ? *name : addr);
    }
    case Printer::String:
        return as_string(job, until_nul(v.record()));
    case Printer::WideString:
        return print_wide_string(job, v);
    case Printer::EscString:
        return as_string(job, escape_chars(v.record()));
    case Printer::EscChar: {
        if (!is_int_record(v) || v.size > sizeof(int32_t))
            return mismatch();
        const char c = static_cast<char>(v.as_signed());
        return as_string(job, escape_chars(std::string_view(&c, 1)));
    }
    case Printer::Percent:
        return std::string("%");
    }
    return mismatch();
}

bool too_wide(long long n) {
    return n > kMaxFieldWidth || n < -kMaxFieldWidth;
}

// dt_printf_format(): the pieces in order; records are consumed by '*', ".*"
// and value conversions; %@ conversions take `values` instead.
Result<std::string> render(const Format &format, std::span<const Value> records, std::span<const AggValue> values,
                           const FormatContext &context) {
    std::string out;
    size_t next = 0;
    size_t current_value = 0;
    for (const Conversion &c : format.pieces) {
        out += c.prefix;
        if (c.info == nullptr) {
            if (format.pieces.size() == 1)
                return out;
            continue;
        }
        if (c.info->printer == Printer::Percent) {
            out += '%';
            continue;
        }
        int width = c.width;
        int precision = c.precision;
        int dynamic_width = 0;
        if (c.has(kFlagDynWidth)) {
            if (next >= records.size())
                return mismatch();
            const auto w = record_int(records[next++]);
            if (!w)
                return mismatch();
            width = dynamic_width = *w;
        }
        if (c.has(kFlagDynPrec)) {
            if (next >= records.size())
                return mismatch();
            const auto p = record_int(records[next++]);
            if (!p)
                return mismatch();
            precision = *p;
        }
        if (too_wide(width) || too_wide(precision))
            return Failure{"format width or precision is too large"};

        const Job job{c, width, precision, dynamic_width, context};
        Result<std::string> piece = std::string();
        if (c.has(kFlagAggValue)) {
            if (values.empty())
                return mismatch();
            const AggValue &value = values[current_value];
            if (current_value + 1 < values.size())
                ++current_value;
            piece = value.scalar ? print_one(job, *value.scalar, value.normal) : Result<std::string>(value.text);
        } else {
            if (next >= records.size())
                return mismatch();
            piece = print_one(job, records[next++], 1);
        }
        if (!piece)
            return piece.error();
        out += piece.value();
    }
    return out;
}

} // namespace

std::string unresolved_address(uint64_t address) {
    return c_printf("0x%llx", static_cast<unsigned long long>(address));
}

Result<std::string> format(const Format &format, std::span<const Value> args, const FormatContext &context) {
    return render(format, args, {}, context);
}

Result<std::string> format_printa(const Format &format, std::span<const Value> keys, std::span<const AggValue> values,
                                  const FormatContext &context) {
    return render(format, keys, values, context);
}

} // namespace dtrace::consumer
