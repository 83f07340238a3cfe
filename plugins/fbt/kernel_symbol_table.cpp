// kernel_symbol_table.cpp: finding one symbol in kallsyms' text.
#include "kernel_symbol_table.h"

#include <charconv>

#include "tracefs.h"

namespace dtrace::fbt {

std::optional<KallsymsEntry> find_kallsyms(std::string_view text, std::string_view module, std::string_view name) {
    for (size_t pos = text.find(name); pos != std::string_view::npos; pos = text.find(name, pos + 1)) {
        // The name must be the line's third field: "<address> <type> <name>[\t[module]]".
        if (pos < 3 || text[pos - 1] != ' ' || text[pos - 3] != ' ')
            continue;
        const size_t after = pos + name.size();
        if (after < text.size() && text[after] != '\n' && text[after] != '\t' && text[after] != ' ')
            continue;
        const size_t line_start = text.rfind('\n', pos) == std::string_view::npos ? 0 : text.rfind('\n', pos) + 1;
        const size_t line_end = std::min(text.find('\n', after), text.size());
        std::string_view rest = text.substr(after, line_end - after);
        std::string_view symbol_module = "vmlinux";
        if (size_t open = rest.find('[');
            open != std::string_view::npos && rest.find(']', open) != std::string_view::npos)
            symbol_module = rest.substr(open + 1, rest.find(']', open) - open - 1);
        if (!module.empty() && module != symbol_module)
            continue;
        KallsymsEntry entry;
        const char *first = text.data() + line_start;
        if (std::from_chars(first, text.data() + pos - 3, entry.address, 16).ec != std::errc())
            continue;
        entry.type = text[pos - 2];
        return entry;
    }
    return std::nullopt;
}

std::optional<KallsymsEntry> find_kernel_symbol(const std::string &path, std::string_view module,
                                                std::string_view name) {
    live::Result<std::string> text = live::read_text_file(path);
    if (!text)
        return std::nullopt;
    return find_kallsyms(text.value(), module, name);
}

} // namespace dtrace::fbt
