// record_printer.cpp: from buffer bytes to dtrace(1)'s output.
#include "session/record_printer.h"

#include "consumer/record_format.h"
#include "session/aggregation_view.h"

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
        out = integer_value(type, bits);
        return true;
    }
    std::string_view bytes;
    if (!reader.bytes(bytes))
        return false;
    out = consumer::Value{};
    out.kind = type.kind == dif::TypeDesc::Kind::String ? consumer::Value::Kind::String : consumer::Value::Kind::Bytes;
    out.size = type.size;
    out.bytes = std::string(bytes);
    return true;
}

} // namespace

RecordPrinter::RecordPrinter(engine::Engine &engine, FILE *out, const engine::Options &options,
                             std::string program_name)
    : engine_(engine), out_(out), options_(options), program_name_(std::move(program_name)),
      aggregations_(engine, options) {}

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
    for (const Located &r : records)
        print_record(r.cpu, r.header, r.fields, r.header.size - sizeof r.header);
    for (const engine::Engine::CpuData &cpu : buffers) {
        if (cpu.drops != 0)
            report(std::to_string(cpu.drops) + " drop" + (cpu.drops == 1 ? "" : "s") + " on CPU " +
                   std::to_string(cpu.cpu));
    }
    if (uint64_t drops = engine_.take_aggregation_drops())
        report(std::to_string(drops) + " aggregation drop" + (drops == 1 ? "" : "s") + " on CPU 0");
    if (uint64_t drops = engine_.take_corrupt_drops())
        report(std::to_string(drops) + " drop" + (drops == 1 ? "" : "s") + " of corrupt input skipped by the replay");
    if (uint64_t drops = engine_.take_dynvar_drops())
        report(std::to_string(drops) + " dynamic variable drop" + (drops == 1 ? "" : "s"));
}

const consumer::Format *RecordPrinter::format_of(const compiler::Action &action) {
    auto it = formats_.find(&action);
    if (it != formats_.end())
        return &it->second;
    auto parsed = consumer::parse_format(action.format);
    if (!parsed.has_value())
        return nullptr; // the compiler checked it; nothing sensible to print
    return &formats_.emplace(&action, parsed.value()).first->second;
}

void RecordPrinter::print_record(uint32_t cpu, const engine::RecordHeader &header, const uint8_t *fields,
                                 size_t length) {
    if (header.epid == engine::kErrorEpid) {
        print_fault(fields, length);
        return;
    }
    const engine::Ecb *ecb = engine_.ecb(header.epid);
    if (!ecb)
        return;
    const bool quiet = options_.is_set("quiet");
    const bool flow = options_.is_set("flowindent");
    if (!heading_printed_) {
        std::fputs(consumer::probe_heading(quiet, flow).c_str(), out_);
        heading_printed_ = true;
    }
    if (!quiet)
        std::fputs(consumer::probe_line(cpu, ecb->probe->id, ecb->probe->function, ecb->probe->name).c_str(), out_);
    engine::RecordReader reader(fields, length);
    for (const compiler::Action &action : ecb->clause->actions) {
        switch (action.kind) {
        case compiler::ActionKind::Trace: {
            consumer::Value v;
            consumer::TraceOptions trace_options;
            trace_options.quiet = quiet;
            trace_options.rawbytes = options_.is_set("rawbytes");
            trace_options.stackindent = static_cast<int>(options_.number("stackindent"));
            if (read_value(reader, action.value->rtype, v))
                std::fputs(consumer::format_trace(v, trace_options).c_str(), out_);
            break;
        }
        case compiler::ActionKind::Exit: {
            uint64_t status = 0;
            if (reader.integer(status))
                exit_status_ = static_cast<int32_t>(status);
            break;
        }
        case compiler::ActionKind::Printf: {
            std::vector<consumer::Value> args(action.args.size());
            bool complete = true;
            for (size_t i = 0; i < action.args.size() && complete; i++)
                complete = read_value(reader, action.args[i].rtype, args[i]);
            const consumer::Format *format = format_of(action);
            if (!complete || !format)
                break;
            auto text = consumer::format(*format, args);
            if (text.has_value())
                std::fwrite(text.value().data(), 1, text.value().size(), out_);
            else
                report("failed to print: " + text.error().message);
            break;
        }
        case compiler::ActionKind::Printa:
            print_printa(*ecb->program, action);
            break;
        case compiler::ActionKind::Expression:
        case compiler::ActionKind::Aggregate:
        case compiler::ActionKind::Default:
            break;
        }
    }
    std::fputs(consumer::probe_end(quiet).c_str(), out_);
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
    const engine::Probe &p = *ecb->probe;
    auto fault = static_cast<dif::FaultKind>(kind);
    std::string details;
    if (fault == dif::FaultKind::BadAddr || fault == dif::FaultKind::BadAlign || fault == dif::FaultKind::BadStack) {
        char text[32];
        std::snprintf(text, sizeof text, " (0x%llx)", static_cast<unsigned long long>(address));
        details = text;
    }
    std::string where = action == 0 ? "predicate" : "action #" + std::to_string(action);
    report("error on enabled probe ID " + std::to_string(epid) + " (ID " + std::to_string(p.id) + ": " +
           p.provider->name + ":" + p.module + ":" + p.function + ":" + p.name + "): " + dif::fault_message(fault) +
           details + " in " + where + " at DIF offset " + std::to_string(pc * sizeof(uint64_t)));
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
