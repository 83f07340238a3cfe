// probe_naming.h: the names of the etw plugin's probes.
//
// Both Windows ports name ETW probes, and scripts written for them should run
// here unchanged, so the names follow them exactly:
//
//   etw:<provider-guid>:0xLL_0xKKKKKKKKKKKKKKKK:<event-id>|generic_event
//       (Microsoft's DTrace on Windows): lower-case GUID, then the level and
//       keyword as an ETW session enables a provider (level <= LL, keyword
//       & KK), two and sixteen hex digits. 0xff_0xffffffffffffffff matches
//       every event; it is the function field of the probes we list.
//   <provider-name>:::events (the Dtrace-ETW port): the provider's name in
//       lower case.
//
// The level/keyword test is ETW's own (evntprov.h): an event of level 0 or
// keyword 0 passes any filter, and a filter level or keyword mask of 0
// lets every level or keyword through.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtrace::etw::plugin {

inline constexpr std::string_view kEtwProvider = "etw";
inline constexpr std::string_view kDiagProvider = "diag";
inline constexpr std::string_view kGenericEvent = "generic_event";
inline constexpr std::string_view kProviderEvents = "events";
inline constexpr std::string_view kDiagEvents = "events";
inline constexpr std::string_view kDiagLostEvent = "lostevent";
inline constexpr std::string_view kDiagMissedStack = "missed-stack";

struct LevelKeywordFilter {
    uint8_t level = 0xFF;
    uint64_t keyword = ~uint64_t{0};

    bool passes(uint8_t event_level, uint64_t event_keyword) const;
};

inline constexpr LevelKeywordFilter kMatchEverything{};

// "0xLL_0xKKKKKKKKKKKKKKKK", lower case.
std::string format_filter(const LevelKeywordFilter &filter);
// Accepts exactly that shape, hex digits in either case; nothing otherwise
// (globs, other widths).
std::optional<LevelKeywordFilter> parse_filter(std::string_view text);

// The name of the etw probe of one event id.
std::string event_id_name(uint16_t id);

// The SDK's rule for the fields of a probe spec: fnmatch(3) globs, and an
// empty or absent field matches anything.
bool spec_field_matches(const char *pattern, const std::string &value);

// What a provider's name becomes as a D provider name: lower case.
std::string provider_probe_name(std::string_view provider_name);

// A probe spec field that names one thing: not empty, no glob characters.
bool is_plain_name(const char *field);
// Windows compares provider names (and GUIDs) without regard to case.
bool same_ignoring_case(std::string_view a, std::string_view b);

// Whether an event's name can be the name of its etw probe: not empty, not
// generic_event, not a number (the probes of event ids).
bool usable_event_name(std::string_view name);

} // namespace dtrace::etw::plugin
