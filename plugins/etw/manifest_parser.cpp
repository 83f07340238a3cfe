// manifest_parser.cpp: instrumentation manifest XML (tinyxml2) into ManifestProvider.
//
// Element names are matched without their namespace prefix, as manifests
// exported by different tools prefix them differently. Only malformed XML
// and a provider without a name or GUID are errors; an unknown level, opcode,
// keyword or type costs only what depends on it (see manifest.h).
#include "manifest.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include <tinyxml2.h>

namespace dtrace::etw::plugin {

namespace {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;

// The names winmeta.xml defines for every provider.
constexpr std::array<std::pair<std::string_view, uint8_t>, 6> kWinLevels = {{
    {"win:LogAlways", 0},
    {"win:Critical", 1},
    {"win:Error", 2},
    {"win:Warning", 3},
    {"win:Informational", 4},
    {"win:Verbose", 5},
}};
constexpr std::array<std::pair<std::string_view, uint8_t>, 11> kWinOpcodes = {{
    {"win:Info", 0},
    {"win:Start", 1},
    {"win:Stop", 2},
    {"win:DC_Start", 3},
    {"win:DC_Stop", 4},
    {"win:Extension", 5},
    {"win:Reply", 6},
    {"win:Resume", 7},
    {"win:Suspend", 8},
    {"win:Send", 9},
    {"win:Receive", 240},
}};

std::string_view local_name(const XMLElement *e) {
    std::string_view name = e->Name();
    size_t colon = name.find(':');
    return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

template <typename Visit> void for_each_child(const XMLElement *parent, std::string_view name, Visit visit) {
    for (const XMLElement *e = parent ? parent->FirstChildElement() : nullptr; e; e = e->NextSiblingElement()) {
        if (local_name(e) == name) {
            visit(e);
        }
    }
}

const XMLElement *first_child(const XMLElement *parent, std::string_view name) {
    const XMLElement *found = nullptr;
    for_each_child(parent, name, [&](const XMLElement *e) { found = found ? found : e; });
    return found;
}

std::string attribute(const XMLElement *e, const char *name) {
    const char *value = e->Attribute(name);
    return value ? value : "";
}

// Decimal or 0x-prefixed hex, the whole text.
std::optional<uint64_t> parse_number(std::string_view text) {
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
        base = 16;
    }
    uint64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// The manifest's <stringTable> (of its first <resources>): message ids to text.
using StringTable = std::map<std::string, std::string, std::less<>>;

class ProviderParser {
  public:
    ProviderParser(const XMLElement *provider, const std::string &file, const StringTable &strings)
        : provider_(provider), file_(file), strings_(strings) {}

    Result<ManifestProvider> parse();

  private:
    Error error(const XMLElement *at, const std::string &what) const {
        return Error{file_ + ": line " + std::to_string(at->GetLineNum()) + ": " + what};
    }
    void read_tables();
    void read_maps();
    // "$(string.Id)" from the string table; other text as it is.
    std::string message(const std::string &text) const;
    // The <data> and <struct> children of a template or struct.
    std::vector<ManifestField> read_fields(const XMLElement *parent) const;
    ManifestEvent read_event(const XMLElement *e) const;
    uint8_t opcode_of(const std::string &name, const std::string &task) const;

    const XMLElement *provider_;
    const std::string &file_;
    const StringTable &strings_;
    std::map<std::string, std::shared_ptr<const ManifestMap>, std::less<>> maps_;
    std::map<std::string, uint8_t, std::less<>> levels_;
    std::map<std::string, uint8_t, std::less<>> opcodes_;
    std::map<std::string, std::map<std::string, uint8_t, std::less<>>, std::less<>> task_opcodes_;
    std::map<std::string, uint16_t, std::less<>> tasks_;
    std::map<std::string, uint64_t, std::less<>> keywords_;
    std::map<std::string, const XMLElement *, std::less<>> templates_;
};

void ProviderParser::read_tables() {
    for (auto [name, value] : kWinLevels) {
        levels_.emplace(name, value);
    }
    for (auto [name, value] : kWinOpcodes) {
        opcodes_.emplace(name, value);
    }
    for_each_child(first_child(provider_, "levels"), "level", [&](const XMLElement *e) {
        levels_[attribute(e, "name")] = static_cast<uint8_t>(parse_number(attribute(e, "value")).value_or(0));
    });
    for_each_child(first_child(provider_, "opcodes"), "opcode", [&](const XMLElement *e) {
        opcodes_[attribute(e, "name")] = static_cast<uint8_t>(parse_number(attribute(e, "value")).value_or(0));
    });
    for_each_child(first_child(provider_, "tasks"), "task", [&](const XMLElement *task) {
        const std::string name = attribute(task, "name");
        tasks_[name] = static_cast<uint16_t>(parse_number(attribute(task, "value")).value_or(0));
        for_each_child(first_child(task, "opcodes"), "opcode", [&](const XMLElement *e) {
            task_opcodes_[name][attribute(e, "name")] =
                static_cast<uint8_t>(parse_number(attribute(e, "value")).value_or(0));
        });
    });
    for_each_child(first_child(provider_, "keywords"), "keyword", [&](const XMLElement *e) {
        keywords_[attribute(e, "name")] = parse_number(attribute(e, "mask")).value_or(0);
    });
    for_each_child(first_child(provider_, "templates"), "template",
                   [&](const XMLElement *e) { templates_[attribute(e, "tid")] = e; });
    read_maps();
}

std::string ProviderParser::message(const std::string &text) const {
    constexpr std::string_view kPrefix = "$(string.";
    if (text.size() > kPrefix.size() && text.compare(0, kPrefix.size(), kPrefix) == 0 && text.back() == ')') {
        const std::string_view id = std::string_view(text).substr(kPrefix.size(), text.size() - kPrefix.size() - 1);
        if (auto it = strings_.find(id); it != strings_.end()) {
            return it->second;
        }
    }
    return text;
}

void ProviderParser::read_maps() {
    const XMLElement *maps = first_child(provider_, "maps");
    for (const XMLElement *e = maps ? maps->FirstChildElement() : nullptr; e; e = e->NextSiblingElement()) {
        const std::string_view kind = local_name(e);
        if (kind != "valueMap" && kind != "bitMap") {
            continue;
        }
        auto map = std::make_shared<ManifestMap>();
        map->is_bitmap = kind == "bitMap";
        for_each_child(e, "map", [&](const XMLElement *entry) {
            if (std::optional<uint64_t> value = parse_number(attribute(entry, "value"))) {
                map->entries.emplace_back(*value, message(attribute(entry, "message")));
            }
        });
        maps_[attribute(e, "name")] = std::move(map);
    }
}

std::vector<ManifestField> ProviderParser::read_fields(const XMLElement *parent) const {
    std::vector<ManifestField> fields;
    // count= and length= give a number or the name of an earlier field.
    auto size_from = [&](const XMLElement *e, const char *attr, uint32_t &fixed, std::optional<size_t> &field) {
        const std::string text = attribute(e, attr);
        if (text.empty()) {
            return false;
        }
        if (std::optional<uint64_t> n = parse_number(text)) {
            fixed = static_cast<uint32_t>(*n);
            return true;
        }
        for (size_t i = 0; i < fields.size(); ++i) {
            if (fields[i].name == text) {
                field = i;
                return true;
            }
        }
        return false; // a name that is no earlier field
    };
    for (const XMLElement *e = parent->FirstChildElement(); e; e = e->NextSiblingElement()) {
        const std::string_view kind = local_name(e);
        if (kind != "data" && kind != "struct") {
            continue;
        }
        ManifestField f;
        f.name = attribute(e, "name");
        f.is_array = !attribute(e, "count").empty();
        const bool count_ok = !f.is_array || size_from(e, "count", f.count, f.count_field);
        const bool has_length = !attribute(e, "length").empty();
        const bool length_ok = !has_length || size_from(e, "length", f.length, f.length_field);
        f.is_struct = kind == "struct";
        std::optional<InType> type = kind == "data" ? in_type_from_name(attribute(e, "inType")) : std::nullopt;
        f.type = type.value_or(InType::Null);
        bool members_ok = true;
        if (f.is_struct) {
            f.members = read_fields(e);
            members_ok = !f.members.empty() && std::none_of(f.members.begin(), f.members.end(),
                                                            [](const ManifestField &m) { return m.opaque; });
        }
        if (auto map = maps_.find(attribute(e, "map")); map != maps_.end()) {
            f.map = map->second;
        }
        f.opaque = (!f.is_struct && (!type || !type_info(*type))) || !members_ok || !count_ok || !length_ok;
        fields.push_back(std::move(f));
    }
    return fields;
}

uint8_t ProviderParser::opcode_of(const std::string &name, const std::string &task) const {
    if (auto t = task_opcodes_.find(task); t != task_opcodes_.end()) {
        if (auto o = t->second.find(name); o != t->second.end()) {
            return o->second;
        }
    }
    if (auto o = opcodes_.find(name); o != opcodes_.end()) {
        return o->second;
    }
    return static_cast<uint8_t>(parse_number(name).value_or(0));
}

ManifestEvent ProviderParser::read_event(const XMLElement *e) const {
    ManifestEvent ev;
    ev.id = static_cast<uint16_t>(parse_number(attribute(e, "value")).value_or(0));
    ev.version = static_cast<uint8_t>(parse_number(attribute(e, "version")).value_or(0));
    ev.name = attribute(e, "symbol");
    if (auto level = levels_.find(attribute(e, "level")); level != levels_.end()) {
        ev.level = level->second;
    }
    const std::string task = attribute(e, "task");
    if (auto t = tasks_.find(task); t != tasks_.end()) {
        ev.task = t->second;
    }
    ev.opcode = opcode_of(attribute(e, "opcode"), task);
    std::istringstream names(attribute(e, "keywords"));
    for (std::string name; names >> name;) {
        if (auto k = keywords_.find(name); k != keywords_.end()) {
            ev.keywords |= k->second;
        }
    }
    if (auto t = templates_.find(attribute(e, "template")); t != templates_.end()) {
        ev.fields = read_fields(t->second);
    }
    return ev;
}

Result<ManifestProvider> ProviderParser::parse() {
    ManifestProvider p;
    p.name = attribute(provider_, "name");
    std::optional<Guid> guid = Guid::parse(attribute(provider_, "guid"));
    if (p.name.empty() || !guid) {
        return error(provider_, "a provider needs a name and a GUID");
    }
    p.guid = *guid;
    read_tables();
    for (const auto &[name, mask] : keywords_) {
        p.keywords.push_back({name, mask});
    }
    for_each_child(first_child(provider_, "events"), "event",
                   [&](const XMLElement *e) { p.events.push_back(read_event(e)); });
    return p;
}

// <instrumentationManifest><instrumentation><events><provider>, at any depth
// so that manifests wrapped differently are read too.
void find_providers(const XMLElement *e, std::vector<const XMLElement *> &out) {
    for (const XMLElement *c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
        if (local_name(c) == "provider" && c->Attribute("guid")) {
            out.push_back(c);
        } else {
            find_providers(c, out);
        }
    }
}

StringTable read_string_table(const XMLElement *root) {
    StringTable strings;
    const XMLElement *resources = first_child(first_child(root, "localization"), "resources");
    for_each_child(first_child(resources, "stringTable"), "string",
                   [&](const XMLElement *e) { strings.emplace(attribute(e, "id"), attribute(e, "value")); });
    return strings;
}

Result<std::vector<ManifestProvider>> parse_document(XMLDocument &doc, const std::string &name) {
    if (doc.Error()) {
        return Error{name + ": line " + std::to_string(doc.ErrorLineNum()) + ": malformed XML (" +
                     XMLDocument::ErrorIDToName(doc.ErrorID()) + ")"};
    }
    const XMLElement *root = doc.RootElement();
    if (!root || local_name(root) != "instrumentationManifest") {
        return Error{name + ": not an instrumentation manifest (no <instrumentationManifest>)"};
    }
    std::vector<const XMLElement *> elements;
    find_providers(root, elements);
    const StringTable strings = read_string_table(root);
    std::vector<ManifestProvider> providers;
    for (const XMLElement *e : elements) {
        Result<ManifestProvider> p = ProviderParser(e, name, strings).parse();
        if (!p) {
            return Error{p.error()};
        }
        providers.push_back(std::move(p.value()));
    }
    return providers;
}

} // namespace

Result<std::vector<ManifestProvider>> parse_manifest_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return Error{path + ": " + std::strerror(errno)};
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_manifest_text(text.str(), path);
}

Result<std::vector<ManifestProvider>> parse_manifest_text(const std::string &text, const std::string &name) {
    XMLDocument doc;
    doc.Parse(text.c_str(), text.size());
    return parse_document(doc, name);
}

} // namespace dtrace::etw::plugin
