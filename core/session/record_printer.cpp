// record_printer.cpp: from buffer bytes to dtrace(1)'s output.
#include "session/record_printer.h"

#include "consumer/json_format.h"
#include "consumer/print_format.h"
#include "consumer/record_format.h"
#include "session/aggregation_view.h"
#include "session/recorded_value.h"

#include <algorithm>
#include <cstring>

namespace dtrace::session {

namespace {

consumer::Value integer_value(const dif::TypeDesc &type, uint64_t bits) {
    consumer::Value v;
    v.kind = consumer::Value::Kind::Integer;
    v.size = type.size;
    v.is_signed = type.is_signed;
    v.bits = bits;
    return v;
}

// Reads the field of one recorded value of type `type`.
bool read_value(engine::RecordReader &reader, const dif::TypeDesc &type, consumer::Value &out) {
    if (type.kind == dif::TypeDesc::Kind::Integer) {
        uint64_t bits = 0;
        if (!reader.integer(bits))
            return false;
        out = shown_value(type, integer_value(type, bits));
        return true;
    }
    std::string_view bytes;
    if (!reader.bytes(bytes))
        return false;
    out = consumer::Value{};
    out.kind = type.kind == dif::TypeDesc::Kind::String ? consumer::Value::Kind::String : consumer::Value::Kind::Bytes;
    out.size = type.size;
    out.bytes = std::string(bytes);
    out = shown_value(type, std::move(out));
    return true;
}

// The values one action recorded (as many as were read before a short record).
std::vector<consumer::Value> read_values(engine::RecordReader &reader, const std::vector<dif::Difo> &difos) {
    std::vector<consumer::Value> values;
    for (const dif::Difo &d : difos) {
        if (!read_value(reader, d.rtype, values.emplace_back()))
            values.pop_back();
    }
    return values;
}

// tracemem()'s record: [the number of bytes to show,] the memory. A shown
// size of 0 or beyond the memory shows all of it, as in DTrace.
std::string tracemem_bytes(const compiler::Action &action, engine::RecordReader &reader) {
    uint64_t shown = 0;
    std::string_view bytes;
    if (action.args.size() > 1 && !reader.integer(shown))
        return {};
    if (!reader.bytes(bytes))
        return {};
    if (shown != 0 && shown < bytes.size())
        bytes = bytes.substr(0, shown);
    return std::string(bytes);
}

// One firing as a JSON line: {"probe": {...}, "output": [{"trace": 1}, ...]}.
class JsonFiring {
  public:
    JsonFiring(const engine::Probe &probe, uint32_t cpu) {
        line_ = "{\"probe\": {\"id\": " + std::to_string(probe.id) + ", \"cpu\": " + std::to_string(cpu) +
                ", \"provider\": " + consumer::json_string(probe.provider->name) +
                ", \"module\": " + consumer::json_string(probe.module) +
                ", \"function\": " + consumer::json_string(probe.function) +
                ", \"name\": " + consumer::json_string(probe.name) + "}, \"output\": [";
    }
    // `value` is JSON already.
    void add(const char *kind, const std::string &value) {
        line_ += std::string(first_ ? "" : ", ") + "{\"" + kind + "\": " + value + "}";
        first_ = false;
    }
    std::string line() const { return line_ + "]}\n"; }

  private:
    std::string line_;
    bool first_ = true;
};

} // namespace

RecordPrinter::RecordPrinter(engine::Engine &engine, FILE *out, engine::Options &options, std::string program_name)
    : engine_(engine), output_(out), out_(out), options_(options), program_name_(std::move(program_name)),
      aggregations_(engine, options) {}

void RecordPrinter::set_symbol_lookup(SymbolLookup lookup) {
    symbol_lookup_ = std::move(lookup);
    aggregations_.set_resolvers(plugin_resolvers(symbol_lookup_, nullptr));
}

void RecordPrinter::report(const std::string &message) const {
    std::fprintf(stderr, "%s: %s\n", program_name_.c_str(), message.c_str());
}

// Records are printed in firing order across CPUs (each CPU's buffer is
// already in order), so that a replayed trace prints the same bytes however
// the buffer switches fall.
void RecordPrinter::consume(const std::vector<engine::Engine::CpuData> &buffers) {
    struct Located {
        engine::RecordHeader header;
        uint32_t cpu;
        const uint8_t *fields;
    };
    std::vector<Located> records;
    for (const engine::Engine::CpuData &cpu : buffers) {
        const uint8_t *p = cpu.records.data();
        const uint8_t *end = p + cpu.records.size();
        while (end - p >= static_cast<std::ptrdiff_t>(sizeof(engine::RecordHeader))) {
            Located r{{}, cpu.cpu, p + sizeof(engine::RecordHeader)};
            std::memcpy(&r.header, p, sizeof r.header);
            if (r.header.size < sizeof r.header || r.header.size > static_cast<size_t>(end - p))
                break; // cannot happen with our own writer; never read past the data
            records.push_back(r);
            p += r.header.size;
        }
    }
    std::sort(records.begin(), records.end(),
              [](const Located &a, const Located &b) { return a.header.sequence < b.header.sequence; });
    for (const engine::Engine::CpuData &cpu : buffers) {
        if (cpu.drops != 0)
            report_drop(DropKind::Principal, cpu.drops, cpu.cpu);
    }
    uint64_t trace_logger_lost = 0;
    for (const engine::Engine::CpuData &cpu : buffers)
        trace_logger_lost += cpu.trace_logger_lost;
    for (size_t i = 0; i < records.size(); i++) {
        const Located &r = records[i];
        const uint32_t next = i + 1 < records.size() ? records[i + 1].header.epid : 0;
        print_record(r.cpu, r.header, r.fields, r.header.size - sizeof r.header, last_epid_, next);
        last_epid_ = r.header.epid;
    }
    if (uint64_t drops = engine_.take_aggregation_drops())
        report_drop(DropKind::Aggregation, drops);
    if (uint64_t drops = engine_.take_corrupt_drops())
        report(std::to_string(drops) + " drop" + (drops == 1 ? "" : "s") + " of corrupt input skipped by the replay");
    // Not this session's drops: the recording's own, told as such.
    if (trace_logger_lost != 0)
        report("the trace's logger lost " + std::to_string(trace_logger_lost) +
               (trace_logger_lost == 1 ? " event" : " events"));
}

void RecordPrinter::report_drop(DropKind kind, uint64_t count, uint32_t cpu) const {
    report(drop_message(kind, count, cpu, options_.is_set("droptags")));
}

void RecordPrinter::report_status() {
    if (uint64_t drops = engine_.take_dynvar_drops())
        report_drop(DropKind::Dynamic, drops);
    if (uint64_t drops = engine_.take_speculative_drops())
        report_drop(DropKind::Speculative, drops);
    if (uint64_t failed = engine_.take_failed_speculations())
        report_drop(DropKind::SpeculationUnavailable, failed);
    if (uint64_t errors = engine_.take_double_errors())
        report_drop(DropKind::DoubleError, errors);
}

const consumer::Format *RecordPrinter::format_of(const compiler::Action &action) {
    auto it = formats_.find(&action);
    if (it != formats_.end())
        return &it->second;
    auto parsed = consumer::parse_format(action.format);
    if (!parsed.ok())
        return nullptr; // the compiler checked it; nothing sensible to print
    return &formats_.emplace(&action, parsed.value()).first->second;
}

bool RecordPrinter::same_probe(uint32_t epid, const engine::Ecb &ecb) const {
    const engine::Ecb *other = engine_.ecb(epid);
    return other && other->probe == ecb.probe;
}

// The probe line; with -F the function indented by call depth (printed even
// with -q, as dtrace(1M) does). DTrace's heuristics: an entry right after
// another clause of the same probe, or a return right before one, does not
// move the indentation.
void RecordPrinter::print_probe_line(uint32_t cpu, const engine::Ecb &ecb, uint32_t previous_epid, uint32_t next_epid) {
    const engine::Probe &probe = *ecb.probe;
    if (!options_.is_set("flowindent")) {
        if (!options_.is_set("quiet"))
            std::fputs(consumer::probe_line(cpu, probe.id, probe.function, probe.name).c_str(), out_);
        return;
    }
    consumer::FlowFiring firing;
    firing.cpu = cpu;
    firing.provider = probe.provider->name;
    firing.function = probe.function;
    firing.name = probe.name;
    firing.previous_is_other_clause_of_same_probe = previous_epid != ecb.epid && same_probe(previous_epid, ecb);
    firing.next_is_other_clause_of_same_probe = next_epid != ecb.epid && same_probe(next_epid, ecb);
    std::fputs(flow_.probe_line(firing).c_str(), out_);
}

void RecordPrinter::print_record(uint32_t cpu, const engine::RecordHeader &header, const uint8_t *fields, size_t length,
                                 uint32_t previous_epid, uint32_t next_epid) {
    if (header.epid == engine::kErrorEpid) {
        print_fault(fields, length);
        return;
    }
    const engine::Ecb *ecb = engine_.ecb(header.epid);
    if (!ecb)
        return;
    bool quiet = options_.is_set("quiet"); // setopt() may change it mid-record
    const bool flow = options_.is_set("flowindent");
    const std::string *oformat = options_.text("oformat");
    // -x oformat=json: the firing's output gathers into one JSON line (json_format.h).
    std::optional<JsonFiring> json;
    if (oformat != nullptr && *oformat == "json")
        json.emplace(*ecb->probe, cpu);
    auto emit = [&](const char *kind, const std::string &text) {
        if (json)
            json->add(kind, consumer::json_string(text));
        else
            std::fwrite(text.data(), 1, text.size(), out_);
    };
    if (!heading_printed_ && !json) {
        std::fputs(consumer::probe_heading(quiet, flow).c_str(), out_);
        heading_printed_ = true;
    }
    if (!json)
        print_probe_line(cpu, *ecb, previous_epid, next_epid);
    engine::RecordReader reader(fields, length);
    const consumer::Resolvers resolvers = plugin_resolvers(symbol_lookup_, ecb->probe->provider->owner);
    for (const compiler::Action &action : ecb->clause->actions) {
        switch (action.kind) {
        case compiler::ActionKind::Trace: {
            consumer::Value v;
            consumer::TraceOptions trace_options;
            trace_options.quiet = quiet;
            trace_options.rawbytes = options_.is_set("rawbytes");
            trace_options.stackindent = static_cast<int>(options_.number("stackindent"));
            trace_options.resolvers = resolvers;
            if (!read_value(reader, action.value->rtype, v))
                break;
            if (json)
                json->add("trace", consumer::json_value(v, resolvers));
            else
                std::fputs(consumer::format_trace(v, trace_options).c_str(), out_);
            break;
        }
        case compiler::ActionKind::Tracemem:
            emit("text", consumer::format_tracemem(tracemem_bytes(action, reader), quiet));
            break;
        case compiler::ActionKind::Print: {
            consumer::Value v;
            if (read_value(reader, action.value->rtype, v) && action.type)
                emit("text", consumer::format_print(*action.type, v.record()));
            break;
        }
        case compiler::ActionKind::Exit: {
            uint64_t status = 0;
            if (reader.integer(status))
                exit_status_ = static_cast<int32_t>(status);
            break;
        }
        case compiler::ActionKind::Printf:
            if (std::optional<std::string> text = format_record(action, reader, resolvers))
                emit("printf", *text);
            break;
        case compiler::ActionKind::Printa:
            // Without a format, JSON aggregations are lines of their own.
            if (json && action.has_format)
                emit("printa", aggregations_.printa(*ecb->program, action, format_of(action)));
            else
                print_printa(*ecb->program, action);
            break;
        case compiler::ActionKind::System:
        case compiler::ActionKind::Freopen:
            run_output_action(*ecb, action, reader);
            break;
        case compiler::ActionKind::Ftruncate:
            output_.truncate();
            break;
        case compiler::ActionKind::Library:
            run_library_action(*ecb, action, read_values(reader, action.args));
            quiet = options_.is_set("quiet");
            break;
        case compiler::ActionKind::Plugin: {
            std::vector<consumer::Value> args(action.args.size());
            bool complete = true;
            for (size_t i = 0; i < action.args.size() && complete; i++)
                complete = read_value(reader, action.args[i].rtype, args[i]);
            if (!complete || !plugin_actions_)
                break;
            std::fflush(out_); // what the clause printed before comes first
            std::string error = plugin_actions_(action.plugin_action, cpu, header.timestamp, args);
            if (!error.empty())
                report(error);
            break;
        }
        case compiler::ActionKind::Expression:
        case compiler::ActionKind::Aggregate:
        case compiler::ActionKind::Default:
        case compiler::ActionKind::Speculate:
        case compiler::ActionKind::Commit:
        case compiler::ActionKind::Discard:
        case compiler::ActionKind::Raise:
        case compiler::ActionKind::Stop:
        case compiler::ActionKind::Chill:
            break;
        }
    }
    if (json)
        std::fputs(json->line().c_str(), out_);
    else
        std::fputs(consumer::probe_end(quiet).c_str(), out_);
}

std::optional<std::string> RecordPrinter::format_record(const compiler::Action &action, engine::RecordReader &reader,
                                                        const consumer::Resolvers &resolvers) {
    std::vector<consumer::Value> args(action.args.size());
    bool complete = true;
    for (size_t i = 0; i < action.args.size() && complete; i++)
        complete = read_value(reader, action.args[i].rtype, args[i]);
    const consumer::Format *format = format_of(action);
    if (!complete || !format)
        return std::nullopt;
    auto text = consumer::format(*format, args, consumer::FormatContext{resolvers});
    if (!text.ok()) {
        report("failed to print: " + text.reason());
        return std::nullopt;
    }
    return std::move(text.value());
}

// system() and freopen(): formatted like printf(), then acted on.
void RecordPrinter::run_output_action(const engine::Ecb &ecb, const compiler::Action &action,
                                      engine::RecordReader &reader) {
    const bool restore = action.kind == compiler::ActionKind::Freopen && action.format.empty();
    std::optional<std::string> text =
        restore ? std::string()
                : format_record(action, reader, plugin_resolvers(symbol_lookup_, ecb.probe->provider->owner));
    if (!text)
        return;
    if (action.kind == compiler::ActionKind::System) {
        output_.run(*text);
        return;
    }
    if (std::optional<std::string> why = output_.reopen(*text))
        report(probe_error(ecb) + *why);
    out_ = output_.stream();
}

// "error on enabled probe ID 3 (ID 1: dtrace:::BEGIN): ", as DTrace begins
// the report of an error in a clause.
std::string RecordPrinter::probe_error(const engine::Ecb &ecb) const {
    const engine::Probe &p = *ecb.probe;
    return "error on enabled probe ID " + std::to_string(ecb.epid) + " (ID " + std::to_string(p.id) + ": " +
           p.provider->name + ":" + p.module + ":" + p.function + ":" + p.name + "): ";
}

void RecordPrinter::print_fault(const uint8_t *fields, size_t length) {
    engine::RecordReader reader(fields, length);
    uint64_t epid = 0, action = 0, pc = 0, kind = 0, address = 0;
    if (!reader.integer(epid) || !reader.integer(action) || !reader.integer(pc) || !reader.integer(kind) ||
        !reader.integer(address))
        return;
    const engine::Ecb *ecb = engine_.ecb(static_cast<uint32_t>(epid));
    if (!ecb)
        return;
    auto fault = static_cast<dif::FaultKind>(kind);
    std::string details;
    if (fault == dif::FaultKind::BadAddr || fault == dif::FaultKind::BadAlign || fault == dif::FaultKind::BadStack) {
        char text[32];
        std::snprintf(text, sizeof text, " (0x%llx)", static_cast<unsigned long long>(address));
        details = text;
    }
    std::string where = action == 0 ? "predicate" : "action #" + std::to_string(action);
    std::string offset = pc == engine::kNoDifOffset ? "" : " at DIF offset " + std::to_string(pc * sizeof(uint64_t));
    report(probe_error(*ecb) + dif::fault_message(fault) + details + " in " + where + offset);
}

void RecordPrinter::print_printa(const compiler::Program &program, const compiler::Action &action) {
    std::string text = aggregations_.printa(program, action, action.has_format ? format_of(action) : nullptr);
    std::fwrite(text.data(), 1, text.size(), out_);
}

void RecordPrinter::print_aggregations() {
    std::string text = aggregations_.unprinted();
    std::fwrite(text.data(), 1, text.size(), out_);
}

} // namespace dtrace::session
