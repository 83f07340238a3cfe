// options.cpp: the option table and the value parsers.
#include "engine/options.h"

#include "common/time_units.h"

#include <cctype>
#include <charconv>
#include <cstring>
#include <strings.h>

namespace dtrace::engine {

namespace {

// Every option this implementation accepts. Names and defaults follow
// DTrace's; options whose feature is not built yet are still accepted here
// and say so where they are used.
const OptionSpec kOptionTable[] = {
    // compile-time
    {"argref", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"cpp", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"cpppath", OptionKind::String, OptionClass::Compile, nullptr},
    {"defaultargs", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"define", OptionKind::List, OptionClass::Compile, nullptr},
    {"empty", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"errtags", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"droptags", OptionKind::Flag, OptionClass::Compile, nullptr, nullptr, nullptr, true},
    {"incdir", OptionKind::List, OptionClass::Compile, nullptr},
    {"iregs", OptionKind::Integer, OptionClass::Compile, nullptr},
    {"tregs", OptionKind::Integer, OptionClass::Compile, nullptr},
    {"knodefs", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"libdir", OptionKind::List, OptionClass::Compile, nullptr},
    {"nolibs", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"undef", OptionKind::List, OptionClass::Compile, nullptr},
    {"unodefs", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"verbose", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"version", OptionKind::String, OptionClass::Compile, nullptr},
    {"zdefs", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"stdc", OptionKind::String, OptionClass::Compile, nullptr, "a|c|s|t"},
    {"cpphdrs", OptionKind::Flag, OptionClass::Compile, nullptr},
    {"kdefs", OptionKind::Flag, OptionClass::Compile, nullptr, nullptr, "knodefs"},
    {"udefs", OptionKind::Flag, OptionClass::Compile, nullptr, nullptr, "unodefs"},
    // aggpack and distribution bars: ascii, or utf8 (Unicode block elements); unset,
    // aggpack's cells are UTF-8 unless TERM names a terminal that cannot show them
    {"encoding", OptionKind::String, OptionClass::Compile, nullptr, "ascii|utf8"},
    // runtime (fixed once tracing starts)
    {"aggsize", OptionKind::Size, OptionClass::Runtime, "4m"},
    {"bufsize", OptionKind::Size, OptionClass::Runtime, "4m"},
    {"bufpolicy", OptionKind::String, OptionClass::Runtime, "switch", "switch|fill|ring"},
    {"bufresize", OptionKind::String, OptionClass::Runtime, "auto", "auto|manual"},
    {"cleanrate", OptionKind::Rate, OptionClass::Runtime, "101hz"},
    {"cpu", OptionKind::Integer, OptionClass::Runtime, nullptr},
    {"destructive", OptionKind::Flag, OptionClass::Runtime, nullptr},
    {"dynvarsize", OptionKind::Size, OptionClass::Runtime, "1m"},
    {"grabanon", OptionKind::Flag, OptionClass::Runtime, nullptr},
    {"jstackframes", OptionKind::Integer, OptionClass::Runtime, "50"},
    {"jstackstrsize", OptionKind::Size, OptionClass::Runtime, "512"},
    {"nspec", OptionKind::Integer, OptionClass::Runtime, "1"},
    {"specsize", OptionKind::Size, OptionClass::Runtime, "32k"},
    {"stackframes", OptionKind::Integer, OptionClass::Runtime, "20"},
    {"statusrate", OptionKind::Rate, OptionClass::Runtime, "1hz"},
    {"strsize", OptionKind::Size, OptionClass::Runtime, "256"},
    {"ustackframes", OptionKind::Integer, OptionClass::Runtime, "20"},
    // records in time order across CPUs: accepted; they always print in firing order here
    {"temporal", OptionKind::Flag, OptionClass::Runtime, nullptr},
    // dynamic (may change while tracing)
    {"aggrate", OptionKind::Rate, OptionClass::Dynamic, "1hz"},
    {"aggsortkey", OptionKind::Flag, OptionClass::Dynamic, nullptr},
    {"aggsortkeypos", OptionKind::Integer, OptionClass::Dynamic, nullptr},
    {"aggsortpos", OptionKind::Integer, OptionClass::Dynamic, nullptr},
    {"aggsortrev", OptionKind::Flag, OptionClass::Dynamic, nullptr},
    {"agghist", OptionKind::Flag, OptionClass::Dynamic, nullptr},
    {"aggpack", OptionKind::Flag, OptionClass::Dynamic, nullptr},
    {"aggzoom", OptionKind::Flag, OptionClass::Dynamic, nullptr},
    {"flowindent", OptionKind::Flag, OptionClass::Dynamic, nullptr},
    {"quiet", OptionKind::Flag, OptionClass::Dynamic, nullptr},
    {"rawbytes", OptionKind::Flag, OptionClass::Dynamic, nullptr},
    {"stackindent", OptionKind::Integer, OptionClass::Dynamic, "14"},
    {"switchrate", OptionKind::Rate, OptionClass::Dynamic, "1hz"},
    // this implementation's own: plugin selection (docs/plugins.md)
    {"plugins", OptionKind::String, OptionClass::Plugin, nullptr},
    {"plugin", OptionKind::List, OptionClass::Plugin, nullptr},
    {"noplugins", OptionKind::Flag, OptionClass::Plugin, nullptr},
    {"replay", OptionKind::String, OptionClass::Plugin, nullptr}, // -E: the trace file to replay
    // output for tools (consumer/json_format.h) and replay progress (session/replay_progress.h)
    {"oformat", OptionKind::String, OptionClass::Dynamic, "text", "text|json"},
    {"stackformat", OptionKind::String, OptionClass::Dynamic, "text", "text|folded"},
    {"progress", OptionKind::Flag, OptionClass::Runtime, nullptr},
    // Options a plugin reads are declared by the plugin (dtrace_plugin_ops.options).
    {"livebufsize", OptionKind::Size, OptionClass::Plugin,
     nullptr}, // syscall: the BPF ring buffer (to move into the plugin's declared options)
    {"livenofilter", OptionKind::Flag, OptionClass::Plugin, nullptr}, // syscall: no in-kernel pre-filter (likewise)
    {"perfbufsize", OptionKind::Size, OptionClass::Plugin,
     nullptr}, // pmc: the perf ring of each event (to move into the pmc plugin's declared options)
    // the in-kernel fast path (core/fastpath, docs/fastpath.md)
    {"fastpath", OptionKind::String, OptionClass::Runtime, "on", "on|off|explain"},
};

const std::vector<std::string> kEmptyList;

// Parses a leading unsigned number (decimal, or 0x hex / 0 octal as strtoull
// with base 0 would) and returns it with the rest of the text.
std::optional<std::pair<int64_t, std::string_view>> leading_number(std::string_view text) {
    int base = 10;
    std::string_view digits = text;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    } else if (digits.size() > 1 && digits[0] == '0' && std::isdigit(static_cast<unsigned char>(digits[1]))) {
        base = 8;
        digits.remove_prefix(1);
    }
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
    if (ec != std::errc() || value > uint64_t(INT64_MAX))
        return std::nullopt;
    return std::make_pair(int64_t(value), std::string_view(end, digits.data() + digits.size() - end));
}

// A whole plain number, nothing after it.
std::optional<int64_t> parse_integer(std::string_view text) {
    auto leading = leading_number(text);
    if (!leading || !leading->second.empty())
        return std::nullopt;
    return leading->first;
}

// Whether `value` is one of the '|'-separated `choices`.
bool is_choice(std::string_view choices, std::string_view value) {
    while (!choices.empty()) {
        size_t bar = choices.find('|');
        if (choices.substr(0, bar) == value)
            return true;
        choices = bar == std::string_view::npos ? std::string_view() : choices.substr(bar + 1);
    }
    return false;
}

constexpr std::string_view kBadName = "Invalid option name";
constexpr std::string_view kBadValue = "Invalid value for specified option";
constexpr std::string_view kTooLarge = "Value too large for defined data type"; // EOVERFLOW

// Options whose value must fit a narrower type than the 64 bits of an option
// value. DTrace refuses a strsize above UINT_MAX (its string type is a CTF
// array of that many chars); the frame counts and the CPU id are 32-bit here
// too, so a larger value is refused rather than cut to 32 bits.
uint64_t largest_value(std::string_view name) {
    static const std::string_view kThirtyTwoBit[] = {"strsize",      "stackframes",   "ustackframes",
                                                     "jstackframes", "jstackstrsize", "cpu"};
    for (std::string_view n : kThirtyTwoBit) {
        if (n == name)
            return UINT32_MAX;
    }
    return INT64_MAX;
}

// Run-time and dynamic flags and integers take DTrace's switch words
// (dt_opt_runtime): yes/no, enable/disable, enabled/disabled, true/false,
// on/off, set/unset (any case), the empty value (off) or a number.
// Compile-time flags take no value at all.
bool takes_switch_words(const OptionSpec &spec) {
    return (spec.cls == OptionClass::Runtime || spec.cls == OptionClass::Dynamic) &&
           (spec.kind == OptionKind::Flag || spec.kind == OptionKind::Integer);
}

std::optional<bool> switch_word(std::string_view value) {
    static const std::pair<const char *, const char *> kWords[] = {
        {"yes", "no"},     {"enable", "disable"}, {"enabled", "disabled"},
        {"true", "false"}, {"on", "off"},         {"set", "unset"},
    };
    if (value.empty())
        return false;
    const std::string text(value);
    for (const auto &[yes, no] : kWords) {
        if (strcasecmp(text.c_str(), yes) == 0)
            return true;
        if (strcasecmp(text.c_str(), no) == 0)
            return false;
    }
    return std::nullopt;
}

} // namespace

std::optional<int64_t> parse_size(std::string_view text) {
    auto parsed = leading_number(text);
    if (!parsed)
        return std::nullopt;
    auto [value, suffix] = *parsed;
    int shift = 0;
    if (suffix.size() == 1) {
        switch (std::tolower(static_cast<unsigned char>(suffix[0]))) {
        case 'k':
            shift = 10;
            break;
        case 'm':
            shift = 20;
            break;
        case 'g':
            shift = 30;
            break;
        case 't':
            shift = 40;
            break;
        default:
            return std::nullopt;
        }
    } else if (!suffix.empty()) {
        return std::nullopt;
    }
    if (shift && value > (INT64_MAX >> shift))
        return std::nullopt;
    return value << shift;
}

std::optional<int64_t> parse_rate(std::string_view text) {
    auto parsed = leading_number(text);
    if (!parsed)
        return std::nullopt;
    auto [value, suffix] = *parsed;
    // A bare number is nanoseconds, as in DTrace's option parser.
    constexpr int64_t kBareIsNanoseconds = 1;
    std::optional<int64_t> unit = common::nanos_per_unit(suffix, kBareIsNanoseconds);
    if (!unit)
        return std::nullopt;
    if (*unit == common::kHertz && value == 0)
        return 0;
    return common::interval_nanos(value, *unit);
}

Options::Options() : specs_(std::begin(kOptionTable), std::end(kOptionTable)) {
    for (const OptionSpec &spec : specs_) {
        if (spec.default_value)
            set(spec.name, spec.default_value);
    }
}

bool Options::declare(const OptionSpec &spec) {
    if (find(spec.name))
        return false;
    OptionSpec copy = spec;
    copy.name = owned_names_.emplace_back(spec.name).c_str();
    copy.default_value = nullptr; // applied below; the caller's text need not outlive this call
    copy.choices = nullptr;
    copy.negates = nullptr;
    specs_.push_back(copy);
    if (spec.default_value)
        set(spec.name, spec.default_value);
    return true;
}

const OptionSpec *Options::find(std::string_view name) const {
    for (const OptionSpec &spec : specs_) {
        if (name == spec.name)
            return &spec;
    }
    return nullptr;
}

std::optional<std::string> Options::set(std::string_view name, std::optional<std::string_view> value) {
    const OptionSpec *spec = find(name);
    if (!spec)
        return std::string(kBadName);
    if (spec->ignores_value)
        value = std::nullopt;
    if (value && takes_switch_words(*spec)) {
        std::optional<bool> on = switch_word(*value);
        if (on == false) {
            unset(*spec);
            return std::nullopt;
        }
        if (on == true)
            value = "1";
        // Any number sets a flag, 0 included, as in DTrace.
        if (spec->kind == OptionKind::Flag) {
            if (!parse_integer(*value))
                return std::string(kBadValue);
            value = std::nullopt;
        }
    }
    OptionValue parsed;
    switch (spec->kind) {
    case OptionKind::Flag:
        if (value)
            return std::string(kBadValue);
        parsed.number = 1;
        if (spec->negates)
            unset(*find(spec->negates));
        break;
    case OptionKind::Size:
    case OptionKind::Rate:
    case OptionKind::Integer: {
        if (!value)
            return std::string(kBadValue);
        std::optional<int64_t> number = spec->kind == OptionKind::Size   ? parse_size(*value)
                                        : spec->kind == OptionKind::Rate ? parse_rate(*value)
                                                                         : parse_integer(*value);
        if (!number)
            return std::string(kBadValue);
        parsed.number = number.value();
        if (uint64_t(parsed.number) > largest_value(spec->name))
            return std::string(kTooLarge);
        break;
    }
    case OptionKind::String:
        if (!value || (spec->choices && !is_choice(spec->choices, *value)))
            return std::string(kBadValue);
        break;
    case OptionKind::List: {
        if (!value)
            return std::string(kBadValue);
        auto it = values_.find(name);
        if (it != values_.end())
            parsed.list = it->second.list;
        parsed.list.emplace_back(*value);
        break;
    }
    }
    if (value)
        parsed.text = std::string(*value);
    // A list reads as text (plugins' get_option) with its values joined by ':'.
    if (spec->kind == OptionKind::List) {
        parsed.text.clear();
        for (const std::string &v : parsed.list)
            parsed.text += (parsed.text.empty() ? "" : ":") + v;
    }
    values_.insert_or_assign(std::string(name), std::move(parsed));
    return std::nullopt;
}

// An option turned off goes back to its default, as DTrace's kernel falls
// back to its own value for an option left unset.
void Options::unset(const OptionSpec &spec) {
    if (auto it = values_.find(spec.name); it != values_.end())
        values_.erase(it);
    if (spec.default_value)
        set(spec.name, spec.default_value);
}

std::optional<std::string> Options::set_while_tracing(std::string_view name, std::string_view value) {
    const OptionSpec *spec = find(name);
    if (spec && (spec->cls == OptionClass::Runtime || spec->cls == OptionClass::Plugin))
        return std::string("Operation illegal when tracing is active");
    return set(name, value);
}

bool Options::is_set(std::string_view name) const {
    return values_.find(name) != values_.end();
}

int64_t Options::number(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? 0 : it->second.number;
}

const std::string *Options::text(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second.text;
}

const std::vector<std::string> &Options::list(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? kEmptyList : it->second.list;
}

} // namespace dtrace::engine
