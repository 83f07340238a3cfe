// provider_definitions.h: argument types for a program's static probes from
// provider definitions installed as D files (`provider python { probe
// gc__start(int); ... };`), for the programs that do not carry their own
// (those not linked with our dtrace -G object: sys/sdt.h users, Debian's).
//
// For provider P of the file F, the first of these files that defines P's
// probe gives its types:
//   F.d, beside the file (/usr/bin/prog.d for /usr/bin/prog);
//   DIR/P.d for each DIR of -x usdtpath (repeatable, or directories joined
//   with ':'), in order;
//   /usr/local/share/dtrace/providers/P.d, /usr/share/dtrace/providers/P.d.
// Each file is compiled once a session by dtrace's own compiler (the host's
// read_provider_types: dtrace -h's rules and messages); one that fails is
// reported once, as a warning naming it and the line, and is not used.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "stapsdt_notes.h"

namespace dtrace::usdt {

class InstalledDefinitions {
  public:
    InstalledDefinitions(dtrace_host *host, const dtrace_host_ops *ops) : host_(host), ops_(ops) {}

    // The types of probe `written` ("gc__start") of `provider` in the file
    // at `path`, or nullptr when no definition names it.
    const std::vector<DefinedType> *types_for(const std::string &path, const std::string &provider,
                                              const std::string &written);

  private:
    std::vector<std::string> candidates(const std::string &path, const std::string &provider) const;
    // A definition file's table, or nullptr when it is absent or fails (reported once).
    const DefinitionTypes *table_of(const std::string &definition);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    std::map<std::string, std::optional<DefinitionTypes>> tables_; // by definition file
};

} // namespace dtrace::usdt
