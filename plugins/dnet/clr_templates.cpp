// clr_templates.cpp: the generated template rows made into decodable fields.
#include "clr_templates.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <tuple>

#include "field_types.h"

namespace dtrace::dnet {

namespace {

using etw::plugin::in_type_from_name;
using etw::plugin::InType;
using etw::plugin::ManifestField;
using etw::plugin::type_info;

// count= or length=: a number, or an earlier field of the same list. False
// for a name that is no earlier field.
bool size_from(std::string_view text, const std::vector<ManifestField> &earlier, uint32_t &fixed,
               std::optional<size_t> &field) {
    uint32_t n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (error == std::errc() && end == text.data() + text.size()) {
        fixed = n;
        return true;
    }
    for (size_t i = 0; i < earlier.size(); ++i) {
        if (earlier[i].name == text) {
            field = i;
            return true;
        }
    }
    return false;
}

// The fields of rows [first, first + count), struct members nested.
std::vector<ManifestField> make_fields(std::span<const ClrTemplateField> rows) {
    std::vector<ManifestField> fields;
    for (size_t i = 0; i < rows.size(); ++i) {
        const ClrTemplateField &row = rows[i];
        ManifestField f;
        f.name = std::string(row.name);
        f.is_array = !row.count.empty();
        const bool count_ok = !f.is_array || size_from(row.count, fields, f.count, f.count_field);
        const bool length_ok = row.length.empty() || size_from(row.length, fields, f.length, f.length_field);
        f.is_struct = row.in_type == "struct";
        const std::optional<InType> type = f.is_struct ? std::nullopt : in_type_from_name(row.in_type);
        f.type = type.value_or(InType::Null);
        bool members_ok = true;
        if (f.is_struct) {
            f.members = make_fields(rows.subspan(i + 1, row.members));
            i += row.members;
            members_ok = !f.members.empty() && std::none_of(f.members.begin(), f.members.end(),
                                                            [](const ManifestField &m) { return m.opaque; });
        }
        f.opaque = (!f.is_struct && (!type || !type_info(*type))) || !members_ok || !count_ok || !length_ok;
        fields.push_back(std::move(f));
    }
    return fields;
}

auto key(ClrProvider provider, uint16_t id, uint8_t version) {
    return std::make_tuple(provider, id, version);
}

} // namespace

std::optional<ClrProvider> clr_provider_of(const etw::Guid &guid) {
    static const std::vector<std::pair<etw::Guid, ClrProvider>> guids = [] {
        std::vector<std::pair<etw::Guid, ClrProvider>> out;
        for (const ClrProviderInfo &p : clr_providers()) {
            out.emplace_back(*etw::Guid::parse(p.guid), p.provider);
        }
        return out;
    }();
    for (const auto &[g, provider] : guids) {
        if (g == guid) {
            return provider;
        }
    }
    return std::nullopt;
}

ClrTemplates::ClrTemplates() {
    const std::span<const ClrTemplate> templates = clr_templates();
    const std::span<const ClrTemplateField> rows = clr_template_fields();
    for (const ClrEvent &e : clr_events()) {
        Layout layout{e.provider, e.id, e.version, {}};
        if (e.template_index != kNoTemplate) {
            const ClrTemplate &t = templates[e.template_index];
            layout.fields = make_fields(rows.subspan(t.first_field, t.field_rows));
        }
        layouts_.push_back(std::move(layout));
    }
    std::sort(layouts_.begin(), layouts_.end(), [](const Layout &a, const Layout &b) {
        return key(a.provider, a.id, a.version) < key(b.provider, b.id, b.version);
    });
}

const std::vector<ManifestField> *ClrTemplates::fields(ClrProvider provider, uint16_t id, uint8_t version) const {
    // The last layout at or before (provider, id, version): that version, or
    // the newest one older than it.
    auto it = std::upper_bound(layouts_.begin(), layouts_.end(), key(provider, id, version),
                               [](const auto &k, const Layout &l) { return k < key(l.provider, l.id, l.version); });
    if (it == layouts_.begin()) {
        return nullptr;
    }
    --it;
    return it->provider == provider && it->id == id ? &it->fields : nullptr;
}

} // namespace dtrace::dnet
