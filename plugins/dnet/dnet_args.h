// dnet_args.h: the arguments of a dnet probe's firing.
//
// args[0] (native arg0) the raw payload, with the twin record of the row's
// translated type before it (dnet_library.h); arg1 the payload's length;
// arg2 0 for a 32-bit process, 1 for a 64-bit one; arg3 the event's version.
// The payload is decoded with the template of the event's own version and
// the trace's pointer size (clr_templates.h), strings made UTF-8; each
// member of the twin is resolved to its template field once, when the
// builder is made (per row and template), never by name per firing.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "clr_templates.h"
#include "dnet_family.h"
#include "event_memory.h"
#include "payload_decoder.h"
#include "reader/event.h"

namespace dtrace::dnet {

inline constexpr size_t kDnetArgs = 4;
using DnetArgValues = std::array<uint64_t, kDnetArgs>;

class DnetArgs {
  public:
    DnetArgs(std::span<const DnetProbe> rows, const ClrTemplates &templates);

    // The arguments of row `row` for `event` (an event of the row's
    // provider and one of its ids), laid out in memory that stays readable
    // until the next call.
    DnetArgValues build(size_t row, const etw::Event &event, etw::plugin::EventMemory &memory);

  private:
    static constexpr int16_t kNoField = -1;
    // A row's members resolved against one template's fields.
    struct Resolved {
        const std::vector<etw::plugin::ManifestField> *fields;
        std::vector<int16_t> field_of_member;
    };
    const Resolved *resolved(size_t row, const std::vector<etw::plugin::ManifestField> *fields) const;

    std::span<const DnetProbe> rows_;
    const ClrTemplates &templates_;
    std::vector<std::vector<Resolved>> resolved_; // by row
    // The last event's layout (events of one id and version come in runs).
    struct LastLayout {
        size_t row = SIZE_MAX;
        uint16_t id = 0;
        uint8_t version = 0;
        const std::vector<etw::plugin::ManifestField> *fields = nullptr;
        const Resolved *members = nullptr;
    } last_;
    etw::plugin::DecodedPayload decoded_;
    std::vector<uint8_t> buffer_;
};

} // namespace dtrace::dnet
