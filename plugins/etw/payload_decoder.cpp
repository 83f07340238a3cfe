// payload_decoder.cpp: walking a payload field by field.
#include "payload_decoder.h"

#include <optional>

#include "reader/le_bytes.h"
#include "reader/utf16.h"

namespace dtrace::etw::plugin {

namespace {

constexpr size_t kUtf16Unit = 2;
constexpr size_t kCountPrefix16 = 2;
constexpr size_t kCountPrefix32 = 4;
constexpr size_t kSidFixed = 8;
constexpr size_t kSidSubAuthority = 4;
constexpr size_t kSidCountAt = 1;
constexpr size_t kBitsPerByte = 8;

class Walker {
  public:
    Walker(std::span<const uint8_t> payload, uint8_t pointer_size, DecodedPayload &out)
        : rest_(payload), pointer_size_(pointer_size), out_(out) {}

    // Decodes one field; false when it (and so every later field) cannot be.
    bool field(const ManifestField &f);

  private:
    std::optional<uint64_t> size_value(uint32_t fixed, const std::optional<size_t> &field) const;
    // Bytes one element of the type takes at the front of rest_.
    std::optional<size_t> element_size(const TypeInfo &type, uint32_t length) const;
    // Bytes one struct of these members takes at the front of rest_.
    std::optional<size_t> struct_size(std::span<const ManifestField> members) const;
    uint64_t keep_name(const ManifestMap &map, uint64_t value);
    uint64_t keep(std::span<const uint8_t> bytes, bool terminate);
    uint64_t keep_text(std::span<const uint8_t> element, const TypeInfo &type);
    uint64_t integer(std::span<const uint8_t> bytes, bool is_signed) const;

    std::span<const uint8_t> rest_;
    uint8_t pointer_size_;
    DecodedPayload &out_;
};

std::optional<uint64_t> Walker::size_value(uint32_t fixed, const std::optional<size_t> &field) const {
    if (!field) {
        return fixed;
    }
    const DecodedField &from = out_.fields[*field];
    return from.present && !from.by_address ? std::optional<uint64_t>(from.value) : std::nullopt;
}

std::optional<size_t> Walker::element_size(const TypeInfo &type, uint32_t length) const {
    switch (type.layout) {
    case Layout::Fixed:
        return type.fixed_size != 0 ? type.fixed_size : pointer_size_;
    case Layout::Utf16z:
        if (length != 0) {
            return size_t{length} * kUtf16Unit;
        }
        return read_utf16z(rest_).bytes;
    case Layout::Ansiz: {
        if (length != 0) {
            return length;
        }
        size_t n = 0;
        while (n < rest_.size() && rest_[n] != 0) {
            ++n;
        }
        return n < rest_.size() ? n + 1 : n;
    }
    case Layout::Counted16:
    case Layout::CountedAnsi:
    case Layout::CountedBytes:
        if (rest_.size() < kCountPrefix16) {
            return std::nullopt;
        }
        return kCountPrefix16 + load_u16(rest_.data());
    case Layout::LengthBytes:
        return length;
    case Layout::Sid:
        if (rest_.size() < kSidFixed) {
            return std::nullopt;
        }
        return kSidFixed + kSidSubAuthority * rest_[kSidCountAt];
    case Layout::U32CountedBytes:
        if (rest_.size() < kCountPrefix32) {
            return std::nullopt;
        }
        return kCountPrefix32 + size_t{load_u32(rest_.data())};
    }
    return std::nullopt;
}

std::optional<size_t> Walker::struct_size(std::span<const ManifestField> members) const {
    DecodedPayload inner_fields; // the members' values, for counts and lengths naming a member
    Walker inner(rest_, pointer_size_, inner_fields);
    for (const ManifestField &m : members) {
        if (!inner.field(m)) {
            return std::nullopt;
        }
    }
    return rest_.size() - inner.rest_.size();
}

uint64_t Walker::keep_name(const ManifestMap &map, uint64_t value) {
    const std::string name = map_value_name(map, value);
    return keep({reinterpret_cast<const uint8_t *>(name.data()), name.size()}, true);
}

uint64_t Walker::keep(std::span<const uint8_t> bytes, bool terminate) {
    const uint64_t offset = out_.bytes.size();
    out_.bytes.insert(out_.bytes.end(), bytes.begin(), bytes.end());
    if (terminate) {
        out_.bytes.push_back(0);
    }
    return offset;
}

uint64_t Walker::keep_text(std::span<const uint8_t> element, const TypeInfo &type) {
    switch (type.layout) {
    case Layout::Utf16z:
    case Layout::Counted16: {
        const size_t skip = type.layout == Layout::Counted16 ? kCountPrefix16 : 0;
        const std::string utf8 = read_utf16z(element.subspan(skip)).utf8;
        return keep({reinterpret_cast<const uint8_t *>(utf8.data()), utf8.size()}, true);
    }
    case Layout::Ansiz:
    case Layout::CountedAnsi: {
        std::span<const uint8_t> text = element.subspan(type.layout == Layout::CountedAnsi ? kCountPrefix16 : 0);
        size_t n = 0;
        while (n < text.size() && text[n] != 0) {
            ++n;
        }
        return keep(text.first(n), true);
    }
    case Layout::CountedBytes:
        return keep(element.subspan(kCountPrefix16), false);
    default:
        return keep(element, false);
    }
}

uint64_t Walker::integer(std::span<const uint8_t> bytes, bool is_signed) const {
    uint64_t value = 0;
    for (size_t i = bytes.size(); i-- > 0;) {
        value = (value << kBitsPerByte) | bytes[i];
    }
    const size_t bits = bytes.size() * kBitsPerByte;
    if (is_signed && bits < 64 && bits > 0 && (value >> (bits - 1)) & 1) {
        value |= ~uint64_t{0} << bits;
    }
    return value;
}

bool Walker::field(const ManifestField &f) {
    const TypeInfo *type = f.opaque || f.is_struct ? nullptr : type_info(f.type);
    std::optional<uint64_t> count = f.is_array ? size_value(f.count, f.count_field) : 1;
    std::optional<uint64_t> length = size_value(f.length, f.length_field);
    if (f.opaque || (!type && !f.is_struct) || !count || !length) {
        return false;
    }
    if (f.count_in_data) {
        if (rest_.size() < kCountPrefix16) {
            return false;
        }
        count = load_u16(rest_.data());
        rest_ = rest_.subspan(kCountPrefix16);
    }
    // Walk the elements to find where the field ends.
    size_t total = 0;
    std::span<const uint8_t> start = rest_;
    for (uint64_t i = 0; i < *count; ++i) {
        std::optional<size_t> size =
            type ? element_size(*type, static_cast<uint32_t>(*length)) : struct_size(f.members);
        if (!size || *size > rest_.size()) {
            return false;
        }
        if (*size == 0) {
            break; // empty elements: the rest are empty too (and a huge count costs nothing)
        }
        rest_ = rest_.subspan(*size);
        total += *size;
    }
    const std::span<const uint8_t> bytes = start.first(total);
    DecodedField &d = out_.fields.emplace_back();
    d.present = true;
    if (f.is_array || f.is_struct) {
        d.by_address = true;
        d.value = keep(bytes, false);
    } else if (type->by_address) {
        d.by_address = true;
        d.value = keep_text(bytes, *type);
    } else if (f.map) {
        d.by_address = true;
        d.value = keep_name(*f.map, integer(bytes, type->is_signed));
    } else {
        d.value = integer(bytes, type->is_signed);
    }
    return true;
}

} // namespace

void decode_payload(std::span<const uint8_t> payload, std::span<const ManifestField> fields, uint8_t pointer_size,
                    DecodedPayload &out) {
    out.fields.clear();
    out.bytes.clear();
    Walker walker(payload, pointer_size, out);
    for (const ManifestField &f : fields) {
        if (!walker.field(f)) {
            break;
        }
    }
    out.fields.resize(fields.size());
}

std::optional<std::string_view> field_d_type(const ManifestField &field) {
    const TypeInfo *type = field.opaque || field.is_struct ? nullptr : type_info(field.type);
    if (field.opaque || (!type && !field.is_struct)) {
        return std::nullopt;
    }
    if (field.is_array || field.is_struct || field.map) {
        return "uintptr_t";
    }
    return type->d_type;
}

} // namespace dtrace::etw::plugin
