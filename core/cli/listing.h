// listing.h: dtrace -l / -lv.
#pragma once

#include "engine/engine.h"
#include "host/plugin_host.h"

#include <cstdio>
#include <string>

namespace dtrace::cli {

class Listing {
  public:
    Listing(engine::Engine &engine, host::PluginHost &host, FILE *out, bool verbose)
        : engine_(engine), host_(host), out_(out), verbose_(verbose) {}

    void print_header();
    // The heading and every probe, in id order.
    void list_all();
    // Every probe matching one description; fails when none does.
    Status list_matching(const std::string &description);

  private:
    void print_probe(engine::Probe &probe);

    engine::Engine &engine_;
    host::PluginHost &host_;
    FILE *out_;
    bool verbose_;
};

} // namespace dtrace::cli
