// pragma_targets.h: the identifiers `#pragma D attributes` and `#pragma D
// binding` name. DTrace applies such a pragma to a global identifier that
// exists, or keeps it until the program declares one of that name (a
// variable declaration, an inline, an enumerator); a pragma still kept when
// the program's declarations have been read is an error (D_PRAGMA_UNUSED).
#pragma once

#include "compiler/ast.h"

#include <functional>
#include <string>

namespace dtrace::compiler {

// Raises D_PRAGMA_UNUSED for the first such pragma of `ast` whose identifier
// neither `is_defined` (defined before the program) nor the program declares.
void check_pragma_targets(const ProgramAst &ast, const std::function<bool(const std::string &)> &is_defined);

} // namespace dtrace::compiler
