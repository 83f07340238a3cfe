// usdt_header.h: the C header dtrace -h makes from `provider` definitions.
//
// Its macros have DTrace's names (PROVIDER_PROBE(args) and
// PROVIDER_PROBE_ENABLED()); what they expand to is Linux's convention for
// static probes, the one bpftrace, perf and this dtrace read: each probe site
// is a `nop` described by an ELF note in `.note.stapsdt` (provider, name,
// address, semaphore address and where each argument is, as "-4@%eax"), and
// each probe has an is-enabled semaphore, an unsigned short that tracers
// increment while the probe is enabled. The header only declares the
// semaphores: dtrace -G makes the object that defines them (usdt_object.h).
// docs/usdt.md shows a header and says why each part is there.
#pragma once

#include "common/result.h"
#include "compiler/program.h"

#include <string>
#include <vector>

namespace dtrace::cli {

// At most this many arguments per probe: what the stapsdt convention (and
// its readers: libbpf, bpftrace) carry.
constexpr size_t kMaxUsdtArguments = 12;

// The header text for `providers`, its include guard named after `file_name`
// (the output file's base name, as DTrace names it: "_PROV_H" for prov.h).
// Fails naming the probe when an argument cannot travel in a USDT note (a
// struct or floating-point value, more than kMaxUsdtArguments arguments).
Result<std::string> make_usdt_header(const std::vector<compiler::ProviderInterface> &providers,
                                     const std::string &file_name);

// The semaphore's symbol for a probe: "<provider>_<probe as written>_semaphore",
// as the stapsdt convention (sys/sdt.h's users) names it.
std::string usdt_semaphore_symbol(const std::string &provider, const std::string &written_probe);

} // namespace dtrace::cli
