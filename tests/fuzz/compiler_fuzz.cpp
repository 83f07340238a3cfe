// compiler_fuzz.cpp: libFuzzer entry point for the D front end and compiler.
//
// The input is a D program. It is parsed as a script with macro arguments
// and variables defined, compiled with a D library (types and a translator)
// and an args[] hook, and every DIF object produced must pass the validator:
// the compiler may reject a program, but what it accepts must be well formed
// (an invalid DIFO is a compiler bug and aborts). The clauses then run once
// on the VM, so that generated code meets the VM's checks too.
//
// Build with -DDTRACE_BUILD_FUZZERS=ON and clang, then e.g.
//   compiler_fuzzer -max_total_time=600 corpus/ ${PROJECT_SOURCE_DIR}/tests/fuzz/d_corpus
#include "compiler/compile.h"
#include "compiler/parser.h"
#include "dif/validator.h"
#include "dif/vm.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

using namespace dtrace;

constexpr const char *kLibrary = "typedef struct fz { int a; uint64_t b; string s; } fz_t;\n"
                                 "translator fz_t < uint64_t v > { a = v; b = v * 2; s = \"fz\"; };\n";

// A fixed firing: a few arguments, everything else zero.
class Env : public dif::Environment {
  public:
    uint64_t builtin(dif::VarId id) override {
        auto n = uint32_t(id) - uint32_t(dif::VarId::Arg0);
        return n < kArgs ? n + 1 : 0;
    }
    uint64_t builtin_array(dif::VarId, uint64_t index, dif::Fault &) override { return index; }
    int64_t read_target(uint64_t, void *, size_t) override { return dif::kTargetNoAccess; }

  private:
    static constexpr uint32_t kArgs = 10;
};

void check(const dif::Difo &d) {
    auto r = dif::validate(d);
    if (r.errors.empty())
        return;
    std::fprintf(stderr, "compiler produced an invalid DIFO: %s\n", r.errors.front().to_string().c_str());
    std::abort();
}

void run(const compiler::Program &p) {
    dif::Vm vm;
    Env env;
    for (const auto &c : p.clauses) {
        vm.begin_clause();
        dif::Fault f;
        if (c.predicate) {
            check(*c.predicate);
            if (vm.run(*c.predicate, env, f) == 0 || f.kind != dif::FaultKind::None)
                continue;
        }
        for (const auto &a : c.actions) {
            if (a.value) {
                check(*a.value);
                vm.run(*a.value, env, f);
            }
            for (const auto *list : {&a.args, &a.agg_args}) {
                for (const auto &d : *list) {
                    check(d);
                    vm.run(d, env, f);
                }
            }
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string_view source(reinterpret_cast<const char *>(data), size);
    compiler::ParseOptions po;
    po.from_file = true;
    po.macro_args = {"fuzz.d", "1", "two"};
    po.macro_vars = {{"pid", "1"}, {"target", "2"}};
    po.allow_unreferenced_args = true;
    po.allow_empty = true;
    std::vector<compiler::LibrarySource> libraries = {{"fuzz.lib", kLibrary}};
    compiler::CompileOptions co;
    co.library_sources = libraries;
    co.probe_arg_types = [](const std::vector<std::string> &, int) {
        compiler::ProbeArgTypes t;
        t.types = {"int", "char *", "uint64_t", "fz_t"};
        t.native_types = {"", "", "", "uint64_t"};
        return t;
    };
    compiler::Compiler compiler(co);
    po.is_type_name = [&compiler](std::string_view n) { return compiler.is_type_name(n); };
    compiler::ParseResult parsed = compiler::parse_program(source, po);
    if (!parsed.program)
        return 0;
    compiler::CompileResult compiled = compiler.compile(*parsed.program);
    if (compiled.program)
        run(*compiled.program);
    return 0;
}
