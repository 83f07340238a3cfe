// packet_programs.cpp: loading, arming and attaching the packet programs.
#include "packet_programs.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include <bpf/bpf.h>

#include "bpf/sdt_packet.h"

extern "C" {
extern const unsigned char sdt_packets_bpf_object[];
extern const size_t sdt_packets_bpf_object_size;
}

namespace dtrace::sdt {

namespace {

constexpr const char *kPrograms[] = {"sdt_packet_send", "sdt_packet_receive"}; // by SDT_PACKET_SEND, _RECEIVE

uint32_t direction_of(const StableProbe &row) {
    return row.source == EventSource::SendPacket ? SDT_PACKET_SEND : SDT_PACKET_RECEIVE;
}

// The row's index in sdt_packet_slots: its provider names the packets.
uint32_t slot_index(const StableProbe &row) {
    const uint32_t kind = row.provider == "tcp"   ? SDT_PACKET_TCP
                          : row.provider == "udp" ? SDT_PACKET_UDP
                                                  : SDT_PACKET_IP;
    return kind + SDT_PACKET_KINDS * direction_of(row);
}

} // namespace

bool PacketPrograms::serves(const StableProbe &row) {
    return row.source == EventSource::SendPacket || row.source == EventSource::ReceivePacket;
}

live::Status PacketPrograms::enable(const StableProbe &row, uint32_t slot, const live::BpfProgramSet &events,
                                    const live::BpfLoadSettings &settings) {
    if (!programs_) {
        live::Result<std::unique_ptr<live::BpfProgramSet>> loaded =
            live::BpfProgramSet::load(std::span<const uint8_t>(sdt_packets_bpf_object, sdt_packets_bpf_object_size),
                                      "sdt (packets)", settings, &events);
        if (!loaded)
            return live::Error{std::string(row.provider) + ":::" + std::string(row.name) + ": " + loaded.error()};
        programs_ = std::move(loaded.value());
    }
    const uint32_t index = slot_index(row), value = slot + 1;
    if (bpf_map_update_elem(programs_->map_fd("sdt_packet_slots"), &index, &value, BPF_ANY) != 0)
        return live::Error{"cannot arm the packet programs: " + std::string(std::strerror(errno))};
    const uint32_t direction = direction_of(row);
    if (!attachments_[direction]) {
        live::Result<size_t> attached = programs_->attach_program(kPrograms[direction]);
        if (!attached)
            return live::Error{attached.error()};
        attachments_[direction] = attached.value();
    }
    users_[direction]++;
    return plugin_common::Done{};
}

void PacketPrograms::disable(const StableProbe &row) {
    if (!programs_)
        return;
    const uint32_t index = slot_index(row), none = 0, direction = direction_of(row);
    bpf_map_update_elem(programs_->map_fd("sdt_packet_slots"), &index, &none, BPF_ANY);
    if (users_[direction] > 0 && --users_[direction] == 0 && attachments_[direction]) {
        programs_->detach(*attachments_[direction]);
        attachments_[direction].reset();
    }
}

void PacketPrograms::detach_all() {
    if (programs_)
        programs_->detach_all();
    attachments_ = {};
    users_ = {};
}

} // namespace dtrace::sdt
