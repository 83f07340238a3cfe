// A property test of aggregations end to end: random programs aggregate
// random data embedded in their BEGIN clauses (and may normalize() or
// trunc() the first aggregation at the end), and what printa() prints
// (values and order) must equal a straightforward computation of the same
// data here. Seeds are fixed, so every run checks the same programs.
#include "compiler/compile.h"
#include "compiler/parser.h"
#include "engine/engine.h"
#include "session/record_printer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace dtrace;

namespace {

enum class KeyKind { Int, String, Tuple };
enum class Func { Count, Sum, Min, Max, Avg };

const char *func_name(Func f) {
    switch (f) {
    case Func::Count:
        return "count";
    case Func::Sum:
        return "sum";
    case Func::Min:
        return "min";
    case Func::Max:
        return "max";
    case Func::Avg:
        return "avg";
    }
    return "";
}

// A key as the test knows it: an int, a string, or both (the tuple).
struct Key {
    int32_t number = 0;
    std::string text;
    bool operator<(const Key &o) const { return std::tie(number, text) < std::tie(o.number, o.text); }
    bool operator==(const Key &o) const { return number == o.number && text == o.text; }
};

struct Stats {
    int64_t count = 0, sum = 0, min = INT64_MAX, max = INT64_MIN;
    // The value entries sort by (avg() signed, unlike its printa() value;
    // normalize() does not change the order).
    int64_t sort_value(Func f) const {
        switch (f) {
        case Func::Count:
            return count;
        case Func::Sum:
            return sum;
        case Func::Min:
            return min;
        case Func::Max:
            return max;
        case Func::Avg:
            return sum / count;
        }
        return 0;
    }
    // What printa()'s %@d prints, divided by normalize()'s `normal` as DTrace
    // divides: count() and avg() as unsigned numbers, the others signed.
    int64_t value(Func f, int64_t normal = 1) const {
        const uint64_t n = static_cast<uint64_t>(normal);
        switch (f) {
        case Func::Count:
            return static_cast<int64_t>(static_cast<uint64_t>(count) / n);
        case Func::Avg:
            return static_cast<int64_t>(static_cast<uint64_t>(sum) / n / static_cast<uint64_t>(count));
        default:
            return sort_value(f) / normal;
        }
    }
};

struct RandomProgram {
    KeyKind kind = KeyKind::Int;
    std::vector<Func> funcs;
    bool sort_by_key = false;
    bool reverse = false;
    int64_t normal = 1; // normalize(@a0, normal) before printa()
    size_t printed = 0; // how many aggregations printa() prints (@a0 alone after trunc())
    std::string source;
    std::map<Key, Stats> expected;
};

std::string key_expr(KeyKind kind, const Key &k) {
    switch (kind) {
    case KeyKind::Int:
        return std::to_string(k.number);
    case KeyKind::String:
        return "\"" + k.text + "\"";
    case KeyKind::Tuple:
        return std::to_string(k.number) + ", \"" + k.text + "\"";
    }
    return "";
}

// DTrace's key order: integers as unsigned numbers of their size, strings bytewise.
bool key_less(const Key &a, const Key &b) {
    const uint32_t ua = static_cast<uint32_t>(a.number), ub = static_cast<uint32_t>(b.number);
    if (ua != ub)
        return ua < ub;
    return a.text < b.text;
}

// trunc(@a0, keep): DTrace walks @a0 by value (then key) in its sort order,
// descending to keep the largest, ascending (negative `keep`) the smallest;
// aggsortrev reverses both walks.
void truncate_expected(RandomProgram &p, int64_t keep) {
    std::vector<Key> order;
    for (const auto &[key, stats] : p.expected)
        order.push_back(key);
    const Func f = p.funcs[0];
    std::sort(order.begin(), order.end(), [&](const Key &a, const Key &b) {
        const int64_t va = p.expected[a].sort_value(f), vb = p.expected[b].sort_value(f);
        return va != vb ? va < vb : key_less(a, b);
    });
    if ((keep >= 0) != p.reverse)
        std::reverse(order.begin(), order.end());
    const size_t n = static_cast<size_t>(keep < 0 ? -keep : keep);
    for (size_t i = n; i < order.size(); i++)
        p.expected.erase(order[i]);
}

RandomProgram make_program(uint32_t seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
    RandomProgram p;
    p.kind = static_cast<KeyKind>(pick(3));
    std::vector<Func> all = {Func::Count, Func::Sum, Func::Min, Func::Max, Func::Avg};
    std::shuffle(all.begin(), all.end(), rng);
    p.funcs.assign(all.begin(), all.begin() + 1 + pick(5));
    p.sort_by_key = pick(2) == 1;
    p.reverse = pick(2) == 1;

    std::ostringstream src;
    src << "#pragma D option quiet\n";
    if (p.sort_by_key)
        src << "#pragma D option aggsortkey\n";
    if (p.reverse)
        src << "#pragma D option aggsortrev\n";
    const int keys = 1 + pick(12);
    const int firings = 1 + pick(60);
    // Several clauses, so that data accumulates across firings of the program.
    for (int clause = 0, done = 0; done < firings; clause++) {
        src << "BEGIN\n{\n";
        for (int i = 0; i < 20 && done < firings; i++, done++) {
            Key k;
            k.number = pick(keys) - keys / 2; // negative keys too
            k.text = "k" + std::to_string(pick(keys));
            if (p.kind == KeyKind::Int)
                k.text.clear();
            if (p.kind == KeyKind::String)
                k.number = 0;
            const int64_t v = static_cast<int64_t>(pick(2001)) - 1000;
            Stats &s = p.expected[k];
            s.count++;
            s.sum += v;
            s.min = std::min(s.min, v);
            s.max = std::max(s.max, v);
            for (size_t f = 0; f < p.funcs.size(); f++) {
                src << "\t@a" << f << "[" << key_expr(p.kind, k) << "] = " << func_name(p.funcs[f]) << "("
                    << (p.funcs[f] == Func::Count ? "" : std::to_string(v)) << ");\n";
            }
        }
        src << "}\n";
    }
    // Then, at random, normalize() or trunc() of @a0 before printing.
    src << "END\n{\n";
    p.printed = p.funcs.size();
    switch (pick(3)) {
    case 0:
        p.normal = 1 + pick(7);
        src << "\tnormalize(@a0, " << p.normal << ");\n";
        break;
    case 1: {
        const int64_t keep = pick(2 * keys + 1) - keys;
        src << "\ttrunc(@a0, " << keep << ");\n";
        p.printed = 1;
        truncate_expected(p, keep);
        break;
    }
    default:
        break;
    }
    src << "\tprinta(\"";
    src << (p.kind == KeyKind::Int ? "%d" : p.kind == KeyKind::String ? "%s" : "%d %s");
    for (size_t f = 0; f < p.printed; f++)
        src << " %@d";
    src << "\\n\"";
    for (size_t f = 0; f < p.printed; f++)
        src << ", @a" << f;
    src << ");\n}\n";
    p.source = src.str();
    return p;
}

// Runs a program through compiler, engine and consumer; returns its output.
std::string run(const std::string &source) {
    engine::Options options;
    engine::Engine engine(options);
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = "dtrace";
    dtrace_provider_id core = engine.probes().add_provider(nullptr, info).value();
    for (const char *name : {"BEGIN", "END", "ERROR"}) {
        host::ProbeInfo probe;
        probe.name = name;
        engine.probes().add_probe(core, probe);
    }
    engine.set_core_probes(1, 2, 3);
    auto parsed = compiler::parse_program(source, {});
    EXPECT_TRUE(parsed.program) << parsed.error->message << "\n" << source;
    if (!parsed.program)
        return {};
    auto compiled = compiler::compile(*parsed.program, {});
    EXPECT_TRUE(compiled.program) << compiled.error->message << "\n" << source;
    if (!compiled.program)
        return {};
    for (const auto &[name, value] : compiled.program->pragma_options)
        options.set(name, value.empty() ? std::nullopt : std::optional<std::string_view>(value));
    auto enabled = engine.enable(*compiled.program, false);
    EXPECT_TRUE(enabled) << enabled.error().reason;
    EXPECT_GT(enabled ? *enabled : -1, 0);
    char *text = nullptr;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    {
        session::RecordPrinter printer(engine, out, options, "dtrace");
        engine.go();
        engine.stop();
        printer.consume(engine.take_buffers());
    }
    std::fclose(out);
    std::string result(text, size);
    std::free(text);
    return result;
}

struct Row {
    Key key;
    std::vector<int64_t> values;
};

std::vector<Row> parse_rows(const std::string &output, KeyKind kind, size_t nfuncs) {
    std::vector<Row> rows;
    std::istringstream in(output);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty())
            continue; // printa()'s leading newline is the format's business; none here
        std::istringstream fields(line);
        Row r;
        if (kind != KeyKind::String)
            fields >> r.key.number;
        if (kind != KeyKind::Int)
            fields >> r.key.text;
        int64_t v;
        while (fields >> v)
            r.values.push_back(v);
        EXPECT_EQ(r.values.size(), nfuncs) << line;
        rows.push_back(r);
    }
    return rows;
}

class AggregationProperty : public ::testing::TestWithParam<uint32_t> {};

TEST_P(AggregationProperty, PrintaMatchesReferenceComputation) {
    RandomProgram p = make_program(GetParam());
    SCOPED_TRACE(p.source);
    const std::string output = run(p.source);
    SCOPED_TRACE("output:\n" + output);
    std::vector<Row> rows = parse_rows(output, p.kind, p.printed);

    // Every key once, with the values computed here.
    ASSERT_EQ(rows.size(), p.expected.size());
    for (const Row &r : rows) {
        auto it = p.expected.find(r.key);
        ASSERT_NE(it, p.expected.end()) << "unexpected key " << r.key.number << " " << r.key.text;
        for (size_t f = 0; f < p.printed; f++)
            EXPECT_EQ(r.values[f], it->second.value(p.funcs[f], f == 0 ? p.normal : 1))
                << func_name(p.funcs[f]) << " of key " << r.key.number << " " << r.key.text;
    }
    // In DTrace's order: by key, or by each aggregation's value in turn (the
    // first, then the next on a tie...) and then by key; aggsortrev reverses it.
    auto value_then_key_less = [&](const Key &a, const Key &b) {
        for (size_t i = 0; i < p.printed; i++) {
            const Func f = p.funcs[i];
            const int64_t va = p.expected[a].sort_value(f), vb = p.expected[b].sort_value(f);
            if (va != vb)
                return va < vb;
        }
        return key_less(a, b);
    };
    for (size_t i = 1; i < rows.size(); i++) {
        const Key &a = (p.reverse ? rows[i] : rows[i - 1]).key;
        const Key &b = (p.reverse ? rows[i - 1] : rows[i]).key;
        EXPECT_TRUE(p.sort_by_key ? key_less(a, b) : value_then_key_less(a, b)) << "row " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Seeds, AggregationProperty, ::testing::Range(1u, 61u));

} // namespace
