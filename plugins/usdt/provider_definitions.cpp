// provider_definitions.cpp: installed provider definitions (see
// provider_definitions.h).
#include "provider_definitions.h"

#include <cstddef>
#include <string_view>
#include <sys/stat.h>

namespace dtrace::usdt {

namespace {

constexpr const char *kSystemDirs[] = {"/usr/local/share/dtrace/providers", "/usr/share/dtrace/providers"};

bool is_regular_file(const std::string &path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

} // namespace

std::vector<std::string> InstalledDefinitions::candidates(const std::string &path, const std::string &provider) const {
    std::vector<std::string> out{path + ".d"};
    const char *dirs = ops_->get_option(host_, "usdtpath");
    for (std::string_view rest = dirs ? dirs : ""; !rest.empty();) {
        const size_t colon = std::min(rest.find(':'), rest.size());
        if (colon > 0)
            out.push_back(std::string(rest.substr(0, colon)) + "/" + provider + ".d");
        rest.remove_prefix(std::min(colon + 1, rest.size()));
    }
    for (const char *dir : kSystemDirs)
        out.push_back(std::string(dir) + "/" + provider + ".d");
    return out;
}

const DefinitionTypes *InstalledDefinitions::table_of(const std::string &definition) {
    auto known = tables_.find(definition);
    if (known == tables_.end()) {
        std::optional<DefinitionTypes> table;
        if (is_regular_file(definition)) {
            const char *answer = nullptr;
            if (ops_->struct_size <= offsetof(dtrace_host_ops, read_provider_types) ||
                ops_->read_provider_types == nullptr) {
                ops_->report_error(host_, ("warning: cannot read provider definition " + definition +
                                           ": this dtrace reads no provider definitions")
                                              .c_str());
            } else if (ops_->read_provider_types(host_, definition.c_str(), &answer) != 0) {
                ops_->report_error(host_, ("warning: ignoring provider definition " + std::string(answer)).c_str());
            } else {
                table = parse_definition_types(answer);
            }
        }
        known = tables_.emplace(definition, std::move(table)).first;
    }
    return known->second ? &*known->second : nullptr;
}

const std::vector<DefinedType> *InstalledDefinitions::types_for(const std::string &path, const std::string &provider,
                                                                const std::string &written) {
    for (const std::string &definition : candidates(path, provider)) {
        const DefinitionTypes *table = table_of(definition);
        if (!table)
            continue;
        if (auto found = table->find(provider + "\t" + written); found != table->end())
            return &found->second;
    }
    return nullptr;
}

} // namespace dtrace::usdt
