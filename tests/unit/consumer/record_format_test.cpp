// Default output of probe firings: the heading, the probe line, trace() of
// each record size and kind (dt_consume_cpu()), and -F indentation
// (dt_flowindent() and the CLI's chew()).
#include "test_support.h"

#include "consumer/record_format.h"

namespace dtrace::consumer {
namespace {

using test::spaces;

TEST(RecordFormat, Heading) {
    // "%3s %6s %32s\n": the heading the Guide shows above every default trace.
    EXPECT_EQ(probe_heading(false, false), "CPU     ID" + spaces(20) + "FUNCTION:NAME\n");
    EXPECT_EQ(probe_heading(true, false), "");
    // -F prints its own heading, quiet or not.
    EXPECT_EQ(probe_heading(false, true), "CPU FUNCTION" + spaces(33) + "\n");
    EXPECT_EQ(probe_heading(true, true), probe_heading(false, true));
}

TEST(RecordFormat, ProbeLine) {
    // The Guide's "  0      1                           :BEGIN" ("%3d %6d %32s ").
    EXPECT_EQ(probe_line(0, 1, "", "BEGIN"), "  0      1" + spaces(27) + ":BEGIN ");
    EXPECT_EQ(probe_line(12, 34567, "write", "entry"), " 12  34567" + spaces(22) + "write:entry ");
    // Longer names are not truncated.
    const std::string fn(40, 'f');
    EXPECT_EQ(probe_line(1, 2, fn, "x"), "  1      2 " + fn + ":x ");
}

TEST(RecordFormat, EndOfFiring) {
    EXPECT_EQ(probe_end(false), "\n");
    EXPECT_EQ(probe_end(true), "");
}

TEST(RecordFormat, TraceIntegersBySize) {
    const TraceOptions loud;
    TraceOptions quiet;
    quiet.quiet = true;
    EXPECT_EQ(format_trace(Value::integer(static_cast<uint64_t>(-42), 8, true), loud), " " + spaces(13) + "-42");
    EXPECT_EQ(format_trace(Value::integer(static_cast<uint64_t>(-42), 8, true), quiet), "-42");
    EXPECT_EQ(format_trace(Value::integer(~0ULL, 8, false), quiet), "-1"); // printed with %lld
    EXPECT_EQ(format_trace(Value::integer(123456, 4, true), loud), "   123456");
    EXPECT_EQ(format_trace(Value::integer(0xffffffffU, 4, false), loud), "       -1"); // %d of 32 bits
    // 2- and 1-byte records are zero-extended before %d.
    EXPECT_EQ(format_trace(Value::integer(static_cast<uint64_t>(-1), 2, true), loud), " 65535");
    EXPECT_EQ(format_trace(Value::integer(static_cast<uint64_t>(-1), 2, true), quiet), "65535");
    EXPECT_EQ(format_trace(Value::integer(static_cast<uint64_t>(-1), 1, true), loud), " 255");
    EXPECT_EQ(format_trace(Value::integer(7, 1, true), quiet), "7");
}

TEST(RecordFormat, TraceStrings) {
    TraceOptions quiet;
    quiet.quiet = true;
    // The width-33 rule: two spaces, then the string left-justified in 33.
    EXPECT_EQ(format_trace(Value::string("hello", 256)), "  hello" + spaces(28));
    EXPECT_EQ(format_trace(Value::string("hello", 256), quiet), "hello");
    EXPECT_EQ(format_trace(Value::string(std::string(40, 'x'), 256)), "  " + std::string(40, 'x'));
    // A string filling its field (no NUL) takes the same layout, even quiet.
    EXPECT_EQ(format_trace(Value::string("abc", 3), quiet), "  abc" + spaces(30));
}

TEST(RecordFormat, TraceOfAnEmptyStringIsAHexDump) {
    const std::string out = format_trace(Value::string("", 16));
    EXPECT_EQ(out.rfind("\n           ", 0), 0u);
    EXPECT_NE(out.find("         0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................\n"),
              std::string::npos);
}

TEST(RecordFormat, TraceStacks) {
    const uint64_t pcs[] = {0xa, 0xb, 0, 0xc};
    TraceOptions options;
    options.resolvers.kernel_symbol = [](uint64_t a) -> std::optional<Symbol> {
        if (a == 0xa)
            return Symbol{"genunix", "read", 4};
        return std::nullopt;
    };
    EXPECT_EQ(format_trace(Value::stack(pcs), options),
              "\n" + spaces(14) + "genunix`read+0x4\n" + spaces(14) + "0xb\n");
    options.stackindent = 2;
    const uint64_t upcs[] = {0x401000};
    EXPECT_EQ(format_trace(Value::user_stack(99, upcs), options), "\n  0x401000\n");
}

TEST(RecordFormat, FlowIndent) {
    FlowIndenter flow;
    auto line = [&](std::string_view provider, std::string_view fn, std::string_view name) {
        FlowFiring f;
        f.cpu = 0;
        f.provider = provider;
        f.function = fn;
        f.name = name;
        return flow.probe_line(f);
    };
    auto padded = [](std::string text) { return "  0 " + text + spaces(41 - text.size()) + " "; };
    EXPECT_EQ(line("fbt", "open", "entry"), padded(" -> open"));
    EXPECT_EQ(line("fbt", "lookup", "entry"), padded("   -> lookup"));
    EXPECT_EQ(line("sdt", "lookup", "hit"), padded("    | lookup:hit"));
    EXPECT_EQ(line("fbt", "lookup", "return"), padded("   <- lookup"));
    EXPECT_EQ(line("fbt", "open", "return"), padded(" <- open"));
    EXPECT_EQ(line("syscall", "read", "entry"), padded(" => read"));
    EXPECT_EQ(line("syscall", "read", "return"), padded(" <= read"));
    // "method-entry" counts, "gentry" does not.
    EXPECT_EQ(line("usdt", "m", "method-entry"), padded(" -> m"));
    EXPECT_EQ(line("usdt", "m", "gentry"), padded("  | m:gentry"));
}

TEST(RecordFormat, FlowIndentHeuristicsForSeveralClausesOfOneProbe) {
    FlowIndenter flow;
    FlowFiring entry{0, "fbt", "f", "entry"};
    EXPECT_EQ(flow.probe_line(entry), "  0  -> f" + spaces(36) + " ");
    entry.previous_is_other_clause_of_same_probe = true; // second clause: no further indent
    EXPECT_EQ(flow.probe_line(entry), "  0   | f:entry" + spaces(30) + " ");
    FlowFiring ret{0, "fbt", "f", "return"};
    ret.next_is_other_clause_of_same_probe = true; // another clause follows: not yet
    EXPECT_EQ(flow.probe_line(ret), "  0   | f:return" + spaces(29) + " ");
    ret.next_is_other_clause_of_same_probe = false;
    EXPECT_EQ(flow.probe_line(ret), "  0  <- f" + spaces(36) + " ");
}

TEST(RecordFormat, SymbolRecords) {
    EXPECT_EQ(format_symbol_record("unix`foo"), "  unix`foo" + spaces(42));
}

} // namespace
} // namespace dtrace::consumer
