// make_dnet_fixtures.cpp: writes the traces the dnet probes' tests replay.
//
//     dnet_fixtures <directory>
//
// runtime.etl and runtime32.etl (a 64- and a 32-bit process), and
// runtime-v4.nettrace, runtime-v5-32.nettrace, runtime-v6.nettrace: the same
// runtime events (dnet_fixture_events.h) in each.
#include <cstdio>
#include <string>

#include "dnet_fixture_events.h"
#include "etl_file_builder.h"

int main(int argc, char **argv) {
    using namespace dtrace::dnet::fixture;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <directory>\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    dtrace::etw::fixture::write_file(dir + "/runtime.etl", runtime_etl(8));
    dtrace::etw::fixture::write_file(dir + "/runtime32.etl", runtime_etl(4));
    dtrace::etw::fixture::write_file(dir + "/runtime-v4.nettrace", runtime_nettrace(4, 8));
    dtrace::etw::fixture::write_file(dir + "/runtime-v5-32.nettrace", runtime_nettrace(5, 4));
    dtrace::etw::fixture::write_file(dir + "/runtime-v6.nettrace", runtime_nettrace(6, 8));
    return 0;
}
