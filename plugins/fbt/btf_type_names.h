// btf_type_names.h: the typedef names of the kernel's BTF, found without
// parsing it whole.
//
// D's lexer asks whether each identifier of a program is a type name, and
// the compiler passes the question to the plugins' lookup_type. Parsing
// vmlinux's BTF with libbpf takes ~40 ms; walking its type headers for the
// typedef names takes a few, so a program that names no kernel type
// (`BEGIN { exit(0); }`) starts as fast with fbt loaded as without it.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace dtrace::fbt {

class BtfTypeNames {
  public:
    explicit BtfTypeNames(std::string path = "/sys/kernel/btf/vmlinux") : path_(std::move(path)) {}
    // Whether BTF may have a typedef or base type of this name (true also
    // when the file cannot be walked: the full parse then decides).
    bool may_name_type(std::string_view name);
    // Walks a BTF image instead of the file (tests, the fuzzer); false when
    // it is malformed (every name then may be a type).
    bool load_from(std::vector<char> image);

  private:
    bool walk(std::vector<char> image);
    std::string path_;
    bool loaded_ = false;
    bool usable_ = false;
    std::vector<char> image_;
    std::unordered_set<std::string_view> names_;
};

} // namespace dtrace::fbt
