// kernel_btf.h: the kernel's BTF (/sys/kernel/btf/vmlinux, and a module's
// /sys/kernel/btf/<module> on top of it), read when first asked and indexed
// by name once, so that typing one function or naming one struct costs a
// hash lookup.
//
// What fbt asks of it: a function's prototype as D spells its types
// ("struct file *", "size_t", "loff_t *": the names stay the kernel's, and
// the compiler asks for each through lookup_type when a program uses it),
// the type of a kernel variable, and the BTF id behind a D spelling for
// btf_type_graph.h.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "result.h"

struct btf;

namespace dtrace::fbt {

struct FunctionPrototype {
    std::vector<std::string> params; // D spellings, in order
    std::string return_type;         // "void" when it returns nothing
};

// One BTF object (vmlinux, or a module's split over it) and its name index.
class BtfSet {
  public:
    // base: the vmlinux set a module's split BTF extends (its ids come first).
    explicit BtfSet(btf *handle, const BtfSet *base = nullptr);
    ~BtfSet();
    BtfSet(const BtfSet &) = delete;
    BtfSet &operator=(const BtfSet &) = delete;

    const btf *handle() const { return btf_; }
    // The id of a named type of one kind (BTF_KIND_*), or 0.
    uint32_t find(uint16_t kind, std::string_view name) const;
    // The D spelling of a type ("struct file *"); "" when D cannot spell it.
    std::string spell(uint32_t id) const;
    std::optional<FunctionPrototype> prototype(std::string_view function) const;
    // How many arguments the function takes and whether it returns a value
    // (what registering a probe needs, without spelling any type).
    struct Shape {
        uint32_t params = 0;
        bool returns_value = true;
    };
    std::optional<Shape> shape(std::string_view function) const;

  private:
    btf *btf_;
    const BtfSet *base_;
    // Per BTF kind, its named types; the names live in the BTF's strings.
    std::unordered_map<uint16_t, std::unordered_map<std::string_view, uint32_t>> index_;
};

class KernelBtf {
  public:
    // Paths are the kernel's except in tests.
    explicit KernelBtf(std::string directory = "/sys/kernel/btf") : directory_(std::move(directory)) {}

    // The kernel's own BTF (loaded at the first call); the error says why not.
    live::Result<const BtfSet *> vmlinux();
    // A module's (split over vmlinux's); the kernel's for "vmlinux" or "".
    live::Result<const BtfSet *> module(const std::string &name);
    // The modules' own sets read so far (by module()), in name order.
    std::vector<const BtfSet *> modules_read() const;
    // Reads every module's BTF the directory holds (a type no typed
    // function led to: `struct p9_fid` in a BEGIN clause); then modules_read().
    std::vector<const BtfSet *> read_all_modules();

  private:
    std::string directory_;
    std::unique_ptr<BtfSet> vmlinux_;
    std::string vmlinux_error_;
    std::map<std::string, std::unique_ptr<BtfSet>> modules_;
};

} // namespace dtrace::fbt
