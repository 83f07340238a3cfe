// dwarf_types.h: a module's functions and types as D sees them, from its
// DWARF (the file's own .debug_info, or its separate debug file found by
// build-id; live::ElfFunctions::debug_path says which), read with libdw.
//
// - signature(): the D types of a function's parameters and of its result,
//   for args[] and -lv ("const char *", "struct request *"); C++ functions
//   are found by their linkage (mangled) name, as their probes are named.
// - describe(): the graph of a type a program names that D does not know
//   ("struct request", a typedef, an enum), for the SDK's lookup_type. The
//   structs its members reach are only named (DTRACE_TYPE_NAMED): the host
//   asks for each when a program uses its members.
//
// A type D cannot spell (a C++ class in a namespace, a function type, an
// anonymous struct) becomes uint64_t, or void * behind a pointer.
#pragma once

#include <dtrace/provider.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

typedef struct Dwarf Dwarf;

namespace dtrace::pid {

struct Signature {
    std::vector<std::string> params;
    std::string result; // "void" for none
};

class DwarfTypes {
  public:
    // nullptr when `path` has no DWARF libdw can read.
    static std::unique_ptr<DwarfTypes> open(const std::string &path);
    ~DwarfTypes();
    DwarfTypes(const DwarfTypes &) = delete;
    DwarfTypes &operator=(const DwarfTypes &) = delete;

    std::optional<Signature> signature(const std::string &function) const;
    // The graph of `name` (valid until the next call), or nullptr.
    const dtrace_type_graph *describe(const std::string &name);

  private:
    DwarfTypes() = default;
    void index();

    int fd_ = -1;
    Dwarf *dwarf_ = nullptr;
    std::map<std::string, uint64_t> functions_; // name -> DIE offset
    std::map<std::string, uint64_t> types_;     // "struct x", "enum y", "z" (typedef) -> DIE offset
    // describe()'s answer.
    std::vector<dtrace_type_node> nodes_;
    std::vector<std::vector<dtrace_type_member>> members_;
    std::vector<std::vector<dtrace_type_enumerator>> enumerators_;
    std::vector<std::unique_ptr<std::string>> strings_;
    dtrace_type_graph graph_{};
};

} // namespace dtrace::pid
