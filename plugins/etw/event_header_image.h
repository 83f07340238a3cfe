// event_header_image.h: an event's EVENT_HEADER as Windows' consumer API shows it.
//
// Microsoft's etw probes hand scripts a pointer to the event's EVENT_HEADER
// followed by its payload, and scripts cast it (`((hdr_t *)arg0)->...`).
// Only EVENT_HEADER records have that header in the file; kernel, classic and
// WPP records have others. Windows presents every record with the same
// header (EVENT_RECORD.EventHeader), and so does this: written from the
// normalized Event, with the timestamp as a FILETIME (as a consumer that
// does not ask for raw timestamps sees it) and the size of header plus
// payload. Layout: evntcons.h (etw-formats.md 1.5).
#pragma once

#include <cstdint>

#include "reader/event.h"
#include "reader/event_header_record.h"

namespace dtrace::etw::plugin {

inline constexpr size_t kEventHeaderImageSize = event_header_layout::kHeaderSize;

// Writes kEventHeaderImageSize bytes, little-endian, at out.
void write_event_header_image(const Event &event, uint8_t *out);

} // namespace dtrace::etw::plugin
