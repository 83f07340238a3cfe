// aggregation_store.h: the aggregations of a tracing session, updated in
// probe context and read by the consumer.
//
// Each aggregation is a hash table from its key tuple (encoded as bytes:
// integers in their type's size, strings with a terminating NUL, other data by size)
// to the data of its aggregating function (layouts in aggdata/agg_data.h).
// The engine binds each aggregating action to its table once, at enable
// time, so a firing costs one hash lookup; the binding also notes the
// commonest key shapes (no key, one integer), whose firings hash the key's
// bytes where they are instead of encoding a key string first. The table's memory is bounded by
// the aggsize option; a new tuple that does not fit is dropped and counted.
#pragma once

#include "aggdata/agg_data.h"
#include "compiler/program.h"
#include "dif/vm.h"
#include "engine/aggregation_table.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtrace::engine {

class AggregationStore {
  public:
    struct Aggregation {
        const compiler::AggregationDecl *decl = nullptr;
        const compiler::Program *program = nullptr;
        uint32_t order = 0; // printing order: by first appearance across programs
        AggregationTable table;
    };
    struct Snapshot {
        const compiler::AggregationDecl *decl;
        const compiler::Program *program;
        std::vector<std::pair<std::string, std::vector<int64_t>>> entries; // encoded key, data
    };

    // How a firing of one aggregating action makes its key.
    enum class KeyShape : uint8_t {
        None,    // @ = count(): the empty key
        Integer, // @[pid]: one integer, `key_size` low-order bytes of it
        Tuple,   // anything else: encoded by encode_key()
    };
    struct Binding {
        const compiler::Action *action = nullptr;
        Aggregation *aggregation = nullptr; // nullptr: the action names no known aggregation
        KeyShape shape = KeyShape::Tuple;
        uint8_t key_size = 0;
        std::optional<dif::VarId> key_builtin; // Integer: the builtin the key DIFO only reads (@[arg0], @[cpu])
        // The key and the function's arguments are builtins or absent (@ = count(),
        // @[arg0] = sum(arg1)): apply_direct() aggregates it, no DIFO to run.
        bool direct = false;
        std::optional<dif::VarId> value_builtin, increment_builtin; // direct: the arguments, if any
        // Direct, without a key or arguments (@ = count()): apply_constant()
        // aggregates it, with no context to read.
        bool constant = false;
    };

    // Registers the aggregations of a program (call before resolve()); one
    // named as an earlier program's is that aggregation.
    void add_program(const compiler::Program &program);
    void set_limit(size_t bytes) { limit_ = bytes; }
    Aggregation *resolve(const compiler::Program &program, uint32_t aggregation_id);
    // The binding of an Aggregate action of `program`.
    Binding bind(const compiler::Program &program, const compiler::Action &action);

    // Runs the action's key and argument DIFOs and aggregates. False: a fault.
    bool apply(const Binding &binding, dif::Vm &vm, dif::Environment &env, dif::Fault &fault);
    // apply() of a direct binding (no fault is possible), inline: a replayed
    // `@ = count()` firing is little more than this.
    [[gnu::always_inline]] void apply_direct(const Binding &binding, dif::Environment &env) {
        uint64_t integer_key = 0;
        std::string_view key;
        uint64_t hash = kEmptyKeyHash;
        if (binding.shape == KeyShape::Integer) {
            integer_key = env.builtin(*binding.key_builtin);
            key = std::string_view(reinterpret_cast<const char *>(&integer_key), binding.key_size);
            hash = AggregationTable::hash_short(key.data(), key.size());
        }
        const auto value = static_cast<int64_t>(binding.value_builtin ? env.builtin(*binding.value_builtin) : 0);
        const auto increment =
            static_cast<int64_t>(binding.increment_builtin ? env.builtin(*binding.increment_builtin) : 1);
        aggregate(*binding.aggregation, key, hash, value, increment);
    }

    // apply_direct() of a constant binding (Binding::constant): the one
    // entry of the empty key counts one more firing.
    void apply_constant(const Binding &binding) { aggregate(*binding.aggregation, {}, kEmptyKeyHash, 0, 1); }

    std::vector<Snapshot> snapshot() const;
    // The consumer's clear(): every value zeroed (as DTrace does, min() and
    // max() included), the keys kept.
    void clear(Aggregation &aggregation);
    // The consumer's trunc(): the entries of `keys` removed.
    void remove(Aggregation &aggregation, const std::vector<std::string> &keys);
    uint64_t take_drops() { return std::exchange(drops_, 0); }
    // Folds `data` (the function's layout) into the entry of `key`, made
    // when absent (aggsize permitting; otherwise a drop): what the in-kernel
    // fast path aggregated (core/fastpath/aggregation_merge.h).
    void merge(Aggregation &aggregation, std::string_view key, std::span<const int64_t> data);

  private:
    static const uint64_t kEmptyKeyHash;

    // The last step of apply(): the entry of `key` (made when absent) takes
    // the value. Inline at each firing's call: out of line it costs a frame.
    [[gnu::always_inline]] void aggregate(Aggregation &aggregation, std::string_view key, uint64_t hash, int64_t value,
                                          int64_t increment) {
        AggregationTable::Entry *entry = aggregation.table.find(key, hash);
        if (!entry)
            entry = add_entry(aggregation, key, hash);
        if (entry)
            aggdata::aggregate_add(aggregation.decl->func, aggregation.decl->params, entry->data, value, increment);
    }
    bool encode_key(const compiler::Action &action, dif::Vm &vm, dif::Environment &env, dif::Fault &fault);
    // A new entry for `key`; nullptr when aggsize leaves no room (a drop).
    AggregationTable::Entry *add_entry(Aggregation &aggregation, std::string_view key, uint64_t hash);

    std::deque<Aggregation> aggregations_;
    std::map<std::pair<const compiler::Program *, uint32_t>, Aggregation *> by_program_id_;
    std::map<std::string, Aggregation *> by_name_;
    std::string key_; // reused for every firing
    size_t limit_ = 0;
    size_t used_ = 0;
    uint64_t drops_ = 0;
};

// Decodes an encoded key back into its values, by the declared key types.
struct DecodedKey {
    enum class Kind { Integer, String, Bytes } kind;
    uint64_t integer = 0;
    std::string_view bytes;
};
std::vector<DecodedKey> decode_key(const compiler::AggregationDecl &decl, std::string_view key);

} // namespace dtrace::engine
