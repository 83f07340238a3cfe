// library_actions.cpp: the actions the consumer carries out when it reads
// their record (DTrace's "library actions"): clear(), trunc(), normalize(),
// denormalize() and setopt(). Doing them here, in record order, keeps their
// effect in step with the output around them, as in DTrace.
#include "session/record_printer.h"

namespace dtrace::session {

namespace {

// trunc()'s count, read as DTrace reads it: signed, by its recorded size.
int64_t signed_count(const consumer::Value &v) {
    consumer::Value copy = v;
    copy.is_signed = true;
    return copy.as_signed();
}

// normalize()'s divisor: unsigned, by its recorded size.
uint64_t unsigned_count(const consumer::Value &v) {
    consumer::Value copy = v;
    copy.is_signed = false;
    return copy.as_unsigned();
}

} // namespace

void RecordPrinter::run_library_action(const engine::Ecb &ecb, const compiler::Action &action,
                                       const std::vector<consumer::Value> &args) {
    const compiler::Program &program = *ecb.program;
    const uint32_t id = action.aggregation;
    switch (action.library) {
    case compiler::LibraryAction::Clear:
        aggregations_.clear(program, id);
        return;
    case compiler::LibraryAction::Trunc:
        aggregations_.trunc(program, id, args.empty() ? 0 : signed_count(args[0]));
        return;
    case compiler::LibraryAction::Normalize:
        if (!args.empty())
            aggregations_.normalize(program, id, unsigned_count(args[0]));
        return;
    case compiler::LibraryAction::Denormalize:
        aggregations_.normalize(program, id, 1);
        return;
    case compiler::LibraryAction::Setopt:
        break;
    }
    if (args.empty())
        return;
    // setopt("name") means "name" set to "1", as in DTrace.
    const std::string &name = args[0].bytes;
    const std::string value = args.size() > 1 ? args[1].bytes : "1";
    std::optional<std::string> error = options_.set_while_tracing(name, value);
    if (!error)
        return;
    // DTrace reports it as a library error of the enabled probe; its message
    // ends in a newline of its own, hence the blank line after it.
    report(probe_error(ecb) + "couldn't set option \"" + name + "\" to \"" + value + "\": " + *error + "\n");
}

} // namespace dtrace::session
