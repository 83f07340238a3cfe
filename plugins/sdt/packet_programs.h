// packet_programs.h: the programs of ip, tcp and udp send and receive
// (bpf/sdt_packets.bpf.c), loaded when the first such probe is enabled,
// sharing the sdt object's maps (one ring, one table of probe
// configurations for every sdt probe). Each direction's program is attached
// while a probe of that direction is enabled; a probe is armed by its
// slot in sdt_packet_slots (kind + SDT_PACKET_KINDS * direction).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "bpf_program_set.h"
#include "probe_family.h"
#include "result.h"

namespace dtrace::sdt {

class PacketPrograms {
  public:
    // Whether the row's events are packets (EventSource::SendPacket, ReceivePacket).
    static bool serves(const StableProbe &row);

    // Arms probe `slot` for the row's packets and attaches the row's
    // direction's program, loading the object first (its maps are `events`',
    // its settings `settings`).
    live::Status enable(const StableProbe &row, uint32_t slot, const live::BpfProgramSet &events,
                        const live::BpfLoadSettings &settings);
    // Disarms the row's slot; the direction's program goes with its last probe.
    void disable(const StableProbe &row);
    // Removes every attachment: no packet program runs after this returns.
    void detach_all();

  private:
    std::unique_ptr<live::BpfProgramSet> programs_;
    std::array<std::optional<size_t>, 2> attachments_; // per direction
    std::array<uint32_t, 2> users_{};
};

} // namespace dtrace::sdt
