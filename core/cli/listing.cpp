// listing.cpp: probe rows and, with -v, their attributes and argument types.
#include "cli/listing.h"

#include "cli/probe_args.h"
#include "consumer/probe_list_format.h"

namespace dtrace::cli {

void Listing::print_header() {
    std::fputs(consumer::probe_list_heading().c_str(), out_);
}

void Listing::print_probe(engine::Probe &probe) {
    consumer::ProbeListing row;
    row.id = probe.id;
    row.provider = probe.provider->name;
    row.module = probe.module;
    row.function = probe.function;
    row.name = probe.name;
    row.attributes = probe.provider->attributes;
    std::fputs(consumer::probe_list_row(row).c_str(), out_);
    if (!verbose_)
        return;
    ensure_arg_types(probe, host_);
    for (const host::ArgType &arg : probe.args)
        row.args.push_back({arg.translated_type.empty() ? arg.native_type : arg.translated_type, false, arg.name});
    std::fputs(consumer::probe_list_details(row).c_str(), out_);
}

void Listing::list_all() {
    print_header();
    engine::ProbeTable &table = engine_.probes();
    for (size_t id = 1; id <= table.probe_count(); id++)
        print_probe(*table.probe(static_cast<dtrace_probe_id>(id)));
}

Status Listing::list_matching(const std::string &description) {
    auto desc = engine::parse_probe_description(description, engine::SpecKind::Name);
    if (!desc)
        return Failure{desc.reason()};
    int matched = 0;
    engine_.probes().for_each_match(*desc, [&](engine::Probe &probe) {
        print_probe(probe);
        matched++;
    });
    if (matched == 0)
        return Failure{"failed to match " + desc->to_string() + ": No probe matches description"};
    return {};
}

} // namespace dtrace::cli
