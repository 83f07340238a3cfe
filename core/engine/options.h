// options.h: the option table (-x name=value, #pragma D option, -b, -q, -F ...).
//
// DTrace keeps its options in one table that says, per option, how a value
// is parsed (size with k/m/g/t suffix, rate or time with a unit, boolean
// flag, integer, string) and when it takes effect (compile time, run time
// before tracing starts, or dynamically). We do the same: every option this
// implementation knows is a row in options.cpp; parsing and defaults live
// nowhere else. Options owned by plugins are accepted when a plugin declares
// them (see PluginOptions), so `-x` stays one namespace.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::engine {

enum class OptionKind : uint8_t {
    Flag,    // set by presence; a value is rejected
    Size,    // bytes: 4m, 512k, 1g, plain number
    Rate,    // frequency or period: 10hz, 1s, 500ms, plain number = hz (as DTrace)
    Integer, // plain non-negative integer
    String,  // free text
    List,    // repeatable string; values accumulate in order
};

enum class OptionClass : uint8_t { Compile, Runtime, Dynamic, Plugin };

struct OptionSpec {
    const char *name;
    OptionKind kind;
    OptionClass cls;
    const char *default_value;     // nullptr: unset by default
    const char *choices = nullptr; // String: the only values allowed, '|'-separated
    // Compile-time flags DTrace treats apart (dt_opt_invcflags, dt_opt_droptags):
    const char *negates = nullptr; // setting this flag turns the named flag off (kdefs, udefs)
    bool ignores_value = false;    // any value, or none, sets the flag (droptags)
};

// The parsed value of one option.
struct OptionValue {
    std::string text;   // as given (after defaulting)
    int64_t number = 0; // Size: bytes; Rate: nanoseconds between events; Integer: value; Flag: 1
    std::vector<std::string> list;
};

class Options {
  public:
    Options();
    // Sets an option; returns an error text ("Invalid option name", "Invalid value for specified option",
    // "Value too large for defined data type") as DTrace's libdtrace words it, or nullopt on success.
    // Run-time and dynamic flags and integers also take DTrace's switch words: yes/no,
    // enable(d)/disable(d), true/false, on/off, set/unset (any case); "no" or the empty value
    // turns the option off (back to its default), and any number turns a flag on. Compile-time
    // flags take no value at all, not even an empty one.
    std::optional<std::string> set(std::string_view name, std::optional<std::string_view> value);
    // setopt() while tracing, by DTrace's rules: run-time options are fixed
    // ("Operation illegal when tracing is active"); the others are set as set() does.
    std::optional<std::string> set_while_tracing(std::string_view name, std::string_view value);
    bool is_set(std::string_view name) const;
    // Whether `name` is an option at all (dtrace's own or one declared).
    bool knows(std::string_view name) const { return find(name) != nullptr; }
    int64_t number(std::string_view name) const; // 0 when unset
    const std::string *text(std::string_view name) const;
    const std::vector<std::string> &list(std::string_view name) const;
    // Adds an option a plugin declares (its name is copied; its default, if
    // any, is applied at once). Returns false, changing nothing, when an
    // option of that name exists.
    bool declare(const OptionSpec &spec);

  private:
    const OptionSpec *find(std::string_view name) const;
    void unset(const OptionSpec &spec);
    std::vector<OptionSpec> specs_;
    std::map<std::string, OptionValue, std::less<>> values_;
    std::deque<std::string> owned_names_; // stable storage for the names of declared plugin options
};

// "4m" -> 4194304; nullopt when malformed.
std::optional<int64_t> parse_size(std::string_view text);
// "10hz" -> 100000000 ns; "1s" -> 1000000000; a bare number is hz. nullopt when malformed.
std::optional<int64_t> parse_rate(std::string_view text);

} // namespace dtrace::engine
