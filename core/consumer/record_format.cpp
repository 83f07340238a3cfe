// record_format.cpp: probe lines, -F indentation and trace() records (see record_format.h).
#include "consumer/record_format.h"

#include "consumer/bytes_format.h"
#include "consumer/cformat.h"
#include "consumer/symbol_format.h"

namespace dtrace::consumer {

namespace {

constexpr int kFlowIndentStep = 2;
constexpr std::string_view kEntryName = "entry";
constexpr std::string_view kReturnName = "return";
constexpr std::string_view kSyscallProvider = "syscall";

enum class Flow : uint8_t { None, Entry, Return };

// "entry" or "...-entry" (likewise "return"). Like DTrace, only the first
// occurrence of the word counts.
bool names_flow(std::string_view name, std::string_view word) {
    const size_t at = name.find(word);
    return at != std::string_view::npos && at + word.size() == name.size() && (at == 0 || name[at - 1] == '-');
}

} // namespace

std::string probe_heading(bool quiet, bool flowindent) {
    if (flowindent)
        return c_printf("%3s %-41s\n", "CPU", "FUNCTION");
    if (quiet)
        return {};
    return c_printf("%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
}

std::string probe_line(uint32_t cpu, uint32_t probe_id, std::string_view function, std::string_view name) {
    const std::string fn = std::string(function) + ":" + std::string(name);
    return c_printf("%3d %6d %32s ", static_cast<int>(cpu), static_cast<int>(probe_id), fn.c_str());
}

std::string probe_end(bool quiet) {
    return quiet ? std::string() : std::string("\n");
}

std::string FlowIndenter::probe_line(const FlowFiring &f) {
    const bool syscall = f.provider == kSyscallProvider;
    Flow flow = Flow::None;
    std::string_view prefix = "| ";
    if (names_flow(f.name, kEntryName) && !f.previous_is_other_clause_of_same_probe) {
        flow = Flow::Entry;
        prefix = syscall ? " => " : " -> ";
    } else if (names_flow(f.name, kReturnName) && !f.next_is_other_clause_of_same_probe) {
        flow = Flow::Return;
        prefix = syscall ? " <= " : " <- ";
    }
    if (flow == Flow::Return && indent_ > 0)
        indent_ -= kFlowIndentStep;

    std::string name(static_cast<size_t>(indent_), ' ');
    name += prefix;
    name += f.function;
    if (flow == Flow::None) {
        name += ':';
        name += f.name;
    }
    if (flow == Flow::Entry)
        indent_ += kFlowIndentStep;
    return c_printf("%3d %-41s ", static_cast<int>(f.cpu), name.c_str());
}

std::string format_trace(const Value &value, const TraceOptions &options) {
    const bool quiet = options.quiet;
    if (value.symbolic != Value::Symbolic::None)
        return format_symbol_record(symbolic_text(value, options.resolvers));
    switch (value.kind) {
    case Value::Kind::Integer:
        switch (value.size) {
        case sizeof(uint64_t):
            return c_printf(quiet ? "%lld" : " %16lld", static_cast<long long>(value.as_signed()));
        case sizeof(uint32_t):
            // DTrace hands the 32 bits to %d: a signed view of any 4-byte value.
            return c_printf(quiet ? "%d" : " %8d", static_cast<int>(static_cast<uint32_t>(value.as_unsigned())));
        case sizeof(uint16_t):
            // ...and zero-extends narrower ones.
            return c_printf(quiet ? "%d" : " %5d", static_cast<int>(value.as_unsigned()));
        case sizeof(uint8_t):
            return c_printf(quiet ? "%d" : " %3d", static_cast<int>(value.as_unsigned()));
        default:
            break;
        }
        break;
    case Value::Kind::Stack:
    case Value::Kind::UserStack:
        return format_stack(value, options.resolvers, options.stackindent);
    default:
        break;
    }
    return format_bytes(value.record(), kTraceStringWidth, quiet, options.rawbytes);
}

std::string format_tracemem(std::string_view bytes, bool quiet) {
    return format_bytes(bytes, kTraceStringWidth, quiet, true);
}

std::string format_symbol_record(std::string_view text) {
    return c_printf("  %-50s", std::string(text).c_str());
}

} // namespace dtrace::consumer
