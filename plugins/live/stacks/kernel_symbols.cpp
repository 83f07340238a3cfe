// kernel_symbols.cpp: parsing /proc/kallsyms ("ffffffff81000000 T _stext [mod]").
#include "kernel_symbols.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace dtrace::live::stacks {

namespace {

bool is_text(char type) {
    return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

std::string_view next_field(std::string_view &line) {
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos)
        return line = {}, std::string_view{};
    line.remove_prefix(start);
    size_t end = line.find_first_of(" \t");
    std::string_view field = line.substr(0, end);
    line.remove_prefix(end == std::string_view::npos ? line.size() : end);
    return field;
}

} // namespace

void KernelSymbols::load() {
    std::ifstream in(path_);
    std::stringstream text;
    text << in.rdbuf();
    load_from(text.str());
}

void KernelSymbols::load_from(std::string_view text) {
    auto table = std::make_unique<Table>();
    table->modules = {"vmlinux"};
    while (!text.empty()) {
        size_t eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        std::string_view address_text = next_field(line), type = next_field(line), name = next_field(line),
                         module = next_field(line);
        uint64_t address = 0;
        auto parsed = std::from_chars(address_text.data(), address_text.data() + address_text.size(), address, 16);
        if (parsed.ec != std::errc() || type.size() != 1 || !is_text(type[0]) || name.empty() || address == 0)
            continue;
        uint32_t module_index = 0;
        if (module.size() > 2 && module.front() == '[' && module.back() == ']') {
            module = module.substr(1, module.size() - 2);
            auto it = std::find(table->modules.begin(), table->modules.end(), module);
            module_index = static_cast<uint32_t>(it - table->modules.begin());
            if (it == table->modules.end())
                table->modules.emplace_back(module);
        }
        table->entries.push_back({address, static_cast<uint32_t>(table->names.size()), module_index});
        table->names.append(name);
        table->names.push_back('\0');
    }
    std::stable_sort(table->entries.begin(), table->entries.end(),
                     [](const Entry &a, const Entry &b) { return a.address < b.address; });
    tables_.push_back(std::move(table));
    stale_ = false;
}

void KernelSymbols::reload_later() {
    std::lock_guard lock(mutex_);
    stale_ = true;
}

std::optional<KernelSymbol> KernelSymbols::lookup(uint64_t address) {
    std::lock_guard lock(mutex_);
    if (stale_)
        load();
    const Table &table = *tables_.back();
    auto it = std::upper_bound(table.entries.begin(), table.entries.end(), address,
                               [](uint64_t a, const Entry &e) { return a < e.address; });
    if (it == table.entries.begin())
        return std::nullopt;
    --it;
    return KernelSymbol{table.modules[it->module], std::string_view(table.names.c_str() + it->name),
                        address - it->address};
}

} // namespace dtrace::live::stacks
