// make_fixtures.cpp: writes the ETL files the etw plugin's tests replay.
//
//     etw_plugin_fixtures <directory>
//
// The tests run the real dtrace binary over these files and compare its
// output with expected bytes; the files are made at build time with the test
// tree's ETL writer, so nothing depends on ../shared/data.
#include <cstdio>
#include <string>

#include "etl_file_builder.h"
#include "metadata_trace.h"
#include "named_trace.h"
#include "replay_traces.h"
#include "sample_traces.h"
#include "zip_builder.h"

using namespace dtrace::etw::fixture;

namespace {

constexpr size_t kNotAnEtlSize = 0x1000;
constexpr uint8_t kNotAnEtlByte = 0x5A;

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <directory>\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const Bytes replay = replay_trace();
    write_file(dir + "/replay.etl", replay);
    write_file(dir + "/replay.etl.zip", build_zip({{"replay.etl", replay}}));
    write_file(dir + "/every_kind.etl", sample_every_kind());
    write_file(dir + "/kernel.etl", kernel_trace(8));
    write_file(dir + "/kernel32.etl", kernel_trace(4));
    write_file(dir + "/corrupt.etl", corrupt_trace());
    write_file(dir + "/not_an_etl.etl", Bytes(kNotAnEtlSize, kNotAnEtlByte));
    write_file(dir + "/metadata.etl", metadata_trace());
    write_file(dir + "/stack_keys.etl", stack_key_trace());
    write_file(dir + "/jit_stacks.etl", jit_stack_trace());
    write_file(dir + "/intervals.etl", interval_trace());
    write_file(dir + "/late_names.etl", late_names_trace());
    write_file(dir + "/pmc.etl", pmc_trace());
    write_file(dir + "/named.etl", named_trace());
    const std::string_view manifest = named_manifest();
    write_file(dir + "/named.man", Bytes(manifest.begin(), manifest.end()));
    const SessionFiles session = session_traces();
    write_file(dir + "/session_kernel.etl", session.kernel);
    write_file(dir + "/session_user.etl", session.user);
    write_file(dir + "/session.zip", build_zip({{"kernel.etl", session.kernel}, {"user.etl", session.user}}));
    return 0;
}
