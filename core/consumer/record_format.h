// record_format.h: the default output of a probe firing (no printf).
//
// dtrace(1M) prints a heading once, then for each firing a probe line (CPU,
// probe ID, "function:name") followed by each traced record and a newline;
// -q drops the heading, the probe line and the newline. With -F (flowindent)
// the probe line instead shows the function indented by call depth, with
// "->" on entry and "<-" on return ("=>"/"<=" for system calls), which is
// state carried from one firing to the next: FlowIndenter keeps it.
#pragma once

#include "consumer/printf_format.h"
#include "consumer/stack_format.h"
#include "consumer/value.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace dtrace::consumer {

// The heading printed before the first firing's output: "CPU     ID
// FUNCTION:NAME" (nothing with -q), or "CPU FUNCTION" with -F (even with -q).
std::string probe_heading(bool quiet, bool flowindent);

// The probe line without -F: "%3d %6d %32s " of CPU, ID and "function:name".
std::string probe_line(uint32_t cpu, uint32_t probe_id, std::string_view function, std::string_view name);

// The newline that ends a firing's output (nothing with -q).
std::string probe_end(bool quiet);

// One firing as -F sees it. DTrace's heuristics need to know whether the
// previous firing (for an entry) or the next one (for a return) is another
// clause of the same probe, in which case the indentation does not change.
struct FlowFiring {
    uint32_t cpu = 0;
    std::string_view provider;
    std::string_view function;
    std::string_view name;
    bool previous_is_other_clause_of_same_probe = false;
    bool next_is_other_clause_of_same_probe = false;
};

class FlowIndenter {
  public:
    // "%3d %-41s " of the CPU and the indented "-> function" (or "| func:name").
    std::string probe_line(const FlowFiring &firing);

  private:
    int indent_ = 0;
};

struct TraceOptions {
    bool quiet = false;    // -q
    bool rawbytes = false; // -x rawbytes: data always as a hex dump
    int stackindent = kDefaultStackIndent;
    Resolvers resolvers;
};

// trace() of one record: integers by size (" %16lld", " %8d", " %5d",
// " %3d"; unpadded with -q), strings and other data through format_bytes(),
// stacks one frame a line.
std::string format_trace(const Value &value, const TraceOptions &options = {});

// tracemem(): always a hex dump.
std::string format_tracemem(std::string_view bytes, bool quiet);

// sym()/mod()/usym()-style records print as "  %-50s" of the name.
std::string format_symbol_record(std::string_view text);

} // namespace dtrace::consumer
