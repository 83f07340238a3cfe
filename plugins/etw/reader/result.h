// result.h: errors as values for the trace readers (plugin_result.h). Problems
// found while reading do not stop a reader: they are counted in ReaderStats.
#pragma once

#include "plugin_result.h"

namespace dtrace::etw {

using plugin_common::Error;
using plugin_common::Result;

} // namespace dtrace::etw
