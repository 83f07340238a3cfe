// parser_probe.cpp: probe descriptions, as DTrace's dt_node_pdesc_by_name()
// and dt_node_pdesc_by_id() build them while parsing.
//
// A description's fields are taken from the right (name, function, module,
// provider; the first field named by dtrace -P/-m/-f otherwise) and each
// may hold one macro reference: $n or $$n for a macro argument (no
// -x defaultargs here), $name for a macro variable (its decimal value),
// followed by more text after an argument's digits. Errors carry DTrace's
// messages for EDT_BADSPCV, EDT_BADSPEC and ENAMETOOLONG.
#include "compiler/parser_impl.h"

#include <array>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <string>

namespace dtrace::compiler {

namespace {

// DTRACE_PROVNAMELEN, DTRACE_MODNAMELEN, DTRACE_FUNCNAMELEN, DTRACE_NAMELEN.
constexpr std::array<size_t, 4> kFieldLimits = {64, 64, 192, 64};
constexpr std::array<const char *, 3> kSpecNames = {"providers", "modules", "functions"};
constexpr int kBase10 = 10;

constexpr const char *kBadVariable = "Undefined macro variable in probe description";
constexpr const char *kOverspecified = "Overspecified probe description";
constexpr const char *kTooLong = "File name too long";

std::vector<std::string> split_colons(std::string_view s) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t colon = s.find(':', start);
        parts.emplace_back(s.substr(start, colon == std::string_view::npos ? colon : colon - start));
        if (colon == std::string_view::npos)
            return parts;
        start = colon + 1;
    }
}

} // namespace

ProbeSpecifier Parser::probe_specifier(const Token &t) {
    ProbeSpecifier ps;
    ps.line = t.line;
    if (t.kind == Tok::IntLit) {
        ps.text = t.text;
        if (t.int_value > UINT32_MAX)
            fail(Tag::D_PDESC_INVAL, t.line, "identifier " + std::to_string(t.int_value) + " exceeds maximum probe id");
        if (opts_.probe_spec != ProbeSpecKind::Name)
            fail(Tag::D_PDESC_INVAL, t.line,
                 "probe identifier " + std::to_string(t.int_value) + " not permitted when specifying " +
                     kSpecNames[static_cast<size_t>(opts_.probe_spec)]);
        ps.by_id = true;
        ps.probe_id = static_cast<uint32_t>(t.int_value);
        return ps;
    }

    const std::string &spec = t.value;
    auto invalid = [&](const char *why) {
        fail(Tag::D_PDESC_INVAL, t.line, "invalid probe description \"" + spec + "\": " + why);
    };
    // DTrace's right-to-left scan never starts a field before a leading ':'.
    std::vector<std::string> parts = split_colons(spec);
    const size_t first = parts.size() > 1 && parts.front().empty() ? 1 : 0;
    std::array<std::string *, 4> slots = {&ps.provider, &ps.module, &ps.function, &ps.name};
    int slot = static_cast<int>(opts_.probe_spec);
    for (size_t i = parts.size(); i-- > first;) {
        const std::string field = parts[i];
        std::string_view before = field, value, after;
        const std::string_view text = field;
        std::string storage;
        if (size_t dollar = text.find('$'); dollar != std::string_view::npos) {
            before = text.substr(0, dollar);
            std::string_view var = text.substr(dollar);
            if (var.size() > 2 && var[1] == '$')
                var.remove_prefix(1); // $$ means $ here
            if (var.size() > 1 && std::isdigit(static_cast<unsigned char>(var[1]))) {
                size_t end = 1;
                long index = 0;
                bool overflow = false;
                for (; end < var.size() && std::isdigit(static_cast<unsigned char>(var[end])); ++end) {
                    overflow = overflow || index > (LONG_MAX - (var[end] - '0')) / kBase10;
                    if (!overflow)
                        index = index * kBase10 + (var[end] - '0');
                }
                if (overflow || index >= static_cast<long>(opts_.macro_args.size()))
                    invalid(kBadVariable);
                lexer_.mark_referenced(static_cast<int>(index));
                value = opts_.macro_args[static_cast<size_t>(index)];
                after = var.substr(end);
            } else if (var.size() > 1) {
                auto it = opts_.macro_vars.find(std::string(var.substr(1)));
                if (it == opts_.macro_vars.end())
                    invalid(kBadVariable);
                const auto id = static_cast<uint32_t>(std::strtoll(it->second.c_str(), nullptr, kBase10));
                storage = std::to_string(static_cast<int32_t>(id));
                value = storage;
            } else {
                invalid(kBadVariable);
            }
        }
        if (slot < 0)
            invalid(kOverspecified);
        if (before.size() + value.size() >= kFieldLimits[static_cast<size_t>(slot)])
            invalid(kTooLong);
        parts[i] = std::string(before) + std::string(value) + std::string(after);
        *slots[static_cast<size_t>(slot--)] = parts[i];
    }
    for (size_t i = 0; i < parts.size(); ++i)
        ps.text += (i == 0 ? "" : ":") + parts[i];
    return ps;
}

} // namespace dtrace::compiler
