// replay_families.cpp: the probe families of other plugin folders that the
// etw plugin's replay fires (replay_family.h): the .NET runtime's dnet
// probes (plugins/dnet), on the runtime's events of .etl and .nettrace files.
#include "dnet_probes.h"
#include "replay_family.h"

namespace dtrace::etw::plugin {

ReplayFamilies make_replay_families(dtrace_host *, const dtrace_host_ops *) {
    ReplayFamilies families;
    families.push_back(std::make_unique<dnet::DnetProbes>());
    return families;
}

} // namespace dtrace::etw::plugin
