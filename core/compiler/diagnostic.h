// diagnostic.h: a compile error as DTrace reports it.
//
// DTrace's messages have the shape "[TAG] line N: text" (the tag only under
// -xerrtags), or "[TAG] in REGION: text" when no line applies (for example
// "in action list"). The CLI wraps the result in "failed to compile script F:"
// or "invalid probe specifier S:".
#pragma once

#include "compiler/diagnostic_tags.h"

#include <string>

namespace dtrace::compiler {

struct Diagnostic {
    Tag tag = Tag::None; // Tag::D_SYNTAX, Tag::D_IDENT_UNDEF, ... (diagnostic_tags.h)
    int line = 0;        // 0: no line applies
    std::string region;  // used when line == 0, e.g. "action list"
    std::string file;    // set by #line directives or the preprocessor; printed as "\"file\", line N: "
    std::string message; // without trailing newline
};

// The text DTrace prints for a diagnostic, e.g. "[D_SYNTAX] line 1: syntax error near \"}\"".
inline std::string format_diagnostic(const Diagnostic &d, bool with_tags) {
    std::string out;
    if (with_tags && d.tag != Tag::None)
        out += "[" + std::string(tag_name(d.tag)) + "] ";
    if (!d.file.empty())
        out += "\"" + d.file + "\", line " + std::to_string(d.line) + ": ";
    else if (d.line != 0)
        out += "line " + std::to_string(d.line) + ": ";
    else if (!d.region.empty())
        out += "in " + d.region + ": ";
    out += d.message;
    return out;
}

} // namespace dtrace::compiler
