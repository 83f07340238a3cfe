// result.h: errors as values for the live-support library (plugin_result.h).
#pragma once

#include "plugin_result.h"

namespace dtrace::live {

using plugin_common::Done;
using plugin_common::Error;
using plugin_common::Result;
using plugin_common::Status;

} // namespace dtrace::live
