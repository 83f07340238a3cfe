// dnet_args.cpp: decoding a runtime event into a twin record and its memory.
#include "dnet_args.h"

#include <cstring>

#include "dnet_library.h"

namespace dtrace::dnet {

namespace {

using etw::plugin::ManifestField;

size_t align8(size_t n) {
    return (n + 7) & ~size_t{7};
}

std::vector<int16_t> resolve(const DnetType &type, const std::vector<ManifestField> &fields) {
    std::vector<int16_t> out;
    for (const DnetMember &m : type.members) {
        int16_t index = -1;
        for (size_t i = 0; i < fields.size(); ++i) {
            if (fields[i].name == m.field) {
                index = static_cast<int16_t>(i);
                break;
            }
        }
        out.push_back(index);
    }
    return out;
}

} // namespace

DnetArgs::DnetArgs(std::span<const DnetProbe> rows, const ClrTemplates &templates)
    : rows_(rows), templates_(templates), resolved_(rows.size()) {
    for (size_t row = 0; row < rows.size(); ++row) {
        const DnetProbe &p = rows[row];
        for (const ClrEvent &e : clr_events()) {
            bool fires = false;
            for (uint16_t id : p.ids) {
                fires = fires || (id != 0 && id == e.id);
            }
            if (!fires || e.provider != p.provider) {
                continue;
            }
            const std::vector<ManifestField> *fields = templates.fields(e.provider, e.id, e.version);
            if (resolved(row, fields) == nullptr) {
                resolved_[row].push_back({fields, resolve(*p.type, *fields)});
            }
        }
    }
}

const DnetArgs::Resolved *DnetArgs::resolved(size_t row, const std::vector<ManifestField> *fields) const {
    for (const Resolved &r : resolved_[row]) {
        if (r.fields == fields) {
            return &r;
        }
    }
    return nullptr;
}

DnetArgValues DnetArgs::build(size_t row, const etw::Event &event, etw::plugin::EventMemory &memory) {
    if (last_.row != row || last_.id != event.id || last_.version != event.version) {
        const std::vector<ManifestField> *layout = templates_.fields(rows_[row].provider, event.id, event.version);
        last_ = {row, event.id, event.version, layout, layout != nullptr ? resolved(row, layout) : nullptr};
    }
    const std::vector<ManifestField> *fields = last_.fields;
    const Resolved *members = last_.members;
    if (members != nullptr) {
        decode_payload(event.payload, *fields, event.pointer_size, decoded_);
    } else {
        decoded_.fields.clear();
        decoded_.bytes.clear();
    }
    // [decoded bytes][NUL: absent strings][twin][prefix][payload]
    const size_t empty_text = decoded_.bytes.size();
    const size_t twin = align8(empty_text + 1);
    const size_t slots = rows_[row].type->members.size();
    const size_t prefix = twin + slots * sizeof(uint64_t);
    const size_t payload = prefix + kPayloadPrefixSize;
    buffer_.assign(payload + event.payload.size(), 0);
    std::memcpy(buffer_.data(), decoded_.bytes.data(), decoded_.bytes.size());
    const uint64_t base = memory.bytes(buffer_);
    for (size_t m = 0; m < slots; ++m) {
        const int16_t f = members != nullptr ? members->field_of_member[m] : kNoField;
        const bool present = f != kNoField && static_cast<size_t>(f) < decoded_.fields.size() &&
                             decoded_.fields[static_cast<size_t>(f)].present;
        uint64_t value = 0;
        if (present) {
            const etw::plugin::DecodedField &d = decoded_.fields[static_cast<size_t>(f)];
            value = d.by_address ? base + d.value : d.value;
        } else if (rows_[row].type->members[m].d_type == "string") {
            value = base + empty_text;
        }
        std::memcpy(buffer_.data() + twin + m * sizeof(uint64_t), &value, sizeof value);
    }
    const uint8_t prefix_bytes[kPayloadPrefixSize] = {static_cast<uint8_t>(event.id),
                                                      static_cast<uint8_t>(event.id >> 8), event.version,
                                                      static_cast<uint8_t>(event.pointer_size == 8)};
    std::memcpy(buffer_.data() + prefix, prefix_bytes, sizeof prefix_bytes);
    if (!event.payload.empty()) {
        std::memcpy(buffer_.data() + payload, event.payload.data(), event.payload.size());
    }
    return {base + payload, event.payload.size(), event.pointer_size == 8 ? 1u : 0u, event.version};
}

} // namespace dtrace::dnet
