// provider_guid.h: the GUID of a provider that a nettrace stream names.
//
// EventPipe names providers; ETW (and so the etw plugin's probes and
// manifests) knows them by GUID. The .NET runtime's providers have fixed
// GUIDs (ClrEtwAll.man); an EventSource's GUID is derived from its name the
// way .NET derives it (EventSource.GetGuid: SHA-1 over a namespace GUID and
// the upper-cased name in UTF-16BE, made a version-5 GUID), so events of
// System.Runtime or a user's EventSource get the GUID they have in an ETL
// file of the same program on Windows. A V6 stream may give the GUID itself.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "reader/guid.h"

namespace dtrace::etw::nettrace {

// The GUID of the provider of that name.
Guid provider_guid_of(std::string_view name);
// EventSource's derivation, for any name.
Guid eventsource_guid(std::string_view name);
// SHA-1 of bytes (FIPS 180-4).
std::array<uint8_t, 20> sha1(std::span<const uint8_t> bytes);

} // namespace dtrace::etw::nettrace
