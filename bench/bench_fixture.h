// bench_fixture.h: an engine with a synthetic probe and one compiled
// program enabled on it, for the benchmarks.
#pragma once

#include "compiler/compile.h"
#include "compiler/parser.h"
#include "engine/engine.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace dtrace::bench {

struct Fixture {
    engine::Options options;
    engine::Engine engine{options};
    compiler::Program program;
    dtrace_probe_id probe = 0;

    // `setup` may set options before tracing starts.
    explicit Fixture(const char *clause, void (*setup)(engine::Options &) = nullptr) {
        if (setup)
            setup(options);
        dtrace_provider_info info{};
        info.struct_size = sizeof info;
        info.name = "dtrace";
        dtrace_provider_id core = engine.probes().add_provider(nullptr, info).value();
        for (const char *name : {"BEGIN", "END", "ERROR"}) {
            host::ProbeInfo p;
            p.name = name;
            engine.probes().add_probe(core, p);
        }
        engine.set_core_probes(1, 2, 3);
        info.name = "synthetic";
        dtrace_provider_id provider = engine.probes().add_provider(nullptr, info).value();
        host::ProbeInfo p;
        p.module = "bench";
        p.function = "hot_function";
        p.name = "fire";
        probe = engine.probes().add_probe(provider, p);

        compiler::ParseOptions parse_options;
        parse_options.macro_args = {"bench"};
        auto parsed = compiler::parse_program(clause, parse_options);
        if (!parsed.program)
            die("parse", parsed.error->message);
        auto compiled = compiler::compile(*parsed.program, {});
        if (!compiled.program)
            die("compile", compiled.error->message);
        program = std::move(*compiled.program);
        auto enabled = engine.enable(program, false);
        if (!enabled || *enabled < 1)
            die("enable", enabled ? "" : enabled.error().reason);
        engine.go();
    }

    // The context a plugin would fire the synthetic probe with.
    static dtrace_event_ctx context(const uint64_t *args, uint32_t nargs) {
        dtrace_event_ctx ctx{};
        ctx.struct_size = sizeof ctx;
        ctx.cpu = 0;
        ctx.pid = 1;
        ctx.tid = 1;
        ctx.execname = "bench";
        ctx.args = args;
        ctx.nargs = nargs;
        ctx.timestamp = 1;
        ctx.walltimestamp = 1;
        return ctx;
    }

    [[noreturn]] static void die(const char *what, const std::string &why) {
        std::fprintf(stderr, "engine_bench: %s failed: %s\n", what, why.c_str());
        std::exit(1);
    }
};

} // namespace dtrace::bench
