/*
 * sdt_packets.bpf.c: ip, tcp and udp send and receive, once per packet.
 *
 * Two BTF tracepoints see every packet of every interface, loopback
 * included: net_dev_queue as a packet is handed to a device (send) and
 * netif_receive_skb as a device hands one up to the stack (receive). Their
 * argument is the struct sk_buff, whose IP header is at head +
 * network_header when it is queued, and at data when it is received (the
 * link header was pulled). The program copies the IP header and what
 * follows it (SDT_PACKET_HEADERS_MAX bytes, as far as the linear data
 * goes) as capture 0 served at SDT_RAW_ADDRESS; user space decodes the
 * headers (packet_args.h). One record per enabled kind the packet is (ip:
 * any IPv4 or IPv6 packet; tcp, udp: by the IP protocol), with that kind's
 * slot from sdt_packet_slots (libbpf 1.1 gives BTF tracepoints no cookie)
 * and its filter. args[1] is the sending socket's address and args[2] its
 * state (struct sock_common's skc_state) when the packet has one (send).
 *
 * Loaded after sdt_events.bpf.c, sharing its maps (the ring, the probe
 * configurations): one ring for every sdt probe.
 */
#include "live_context.bpf.h"
#include "live_stacks.bpf.h"
#include "sdt_packet.h"
#include "sdt_raw.h"

char LICENSE[] SEC("license") = "GPL";

#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86DD
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17

/* What the programs read of the kernel's struct sk_buff and struct sock
 * (CO-RE: the ___sdt suffix names the kernel's structs). */
struct sock_common___sdt_packet {
    unsigned char skc_state;
} __attribute__((preserve_access_index));

struct sock___sdt_packet {
    struct sock_common___sdt_packet __sk_common;
} __attribute__((preserve_access_index));

struct sk_buff___sdt {
    struct sock___sdt_packet *sk;
    unsigned int len;
    __u16 protocol;
    __u16 network_header;
    unsigned int tail;
    unsigned char *head;
    unsigned char *data;
} __attribute__((preserve_access_index));

struct sdt_packet_scratch {
    struct live_record record;
    char headers[SDT_PACKET_HEADERS_MAX + LIVE_STACK_TAIL_MAX];
};

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct sdt_packet_scratch);
} sdt_packet_scratch SEC(".maps");

/* Indexed by kind + SDT_PACKET_KINDS * direction: slot + 1 (0: not enabled). */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, SDT_PACKET_SLOTS);
    __type(key, __u32);
    __type(value, __u32);
} sdt_packet_slots SEC(".maps");

/* The IP protocol of the headers copied (IPv6: the first next header). */
static __always_inline __u8 ip_protocol(const char *headers) {
    __u8 version = (__u8)headers[0] >> 4;
    if (version == 4)
        return (__u8)headers[9];
    if (version == 6)
        return (__u8)headers[6];
    return 0;
}

/* One record of the packet for the slot enabled for `kind` (if any). */
static __always_inline void emit_packet(void *ctx, struct sdt_packet_scratch *s, __u32 index, __u32 length,
                                        __u64 socket, __u64 state) {
    __u32 *value = bpf_map_lookup_elem(&sdt_packet_slots, &index);
    if (!value || *value == 0)
        return;
    __u32 slot = *value - 1;
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    if (!cfg || !cfg->armed)
        return;
    __u64 no_args[LIVE_MAX_ARGS] = {};
    if (!live_filter_passes(&cfg->filter, no_args))
        return;
    struct live_record *r = &s->record;
    live_fill_context(r, slot);
#pragma unroll
    for (int i = 0; i < LIVE_MAX_CAPTURES; i++) {
        r->capture_length[i] = 0;
        r->capture_arg[i] = 0;
        r->capture_mode[i] = LIVE_CAPTURE_NONE;
    }
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++)
        r->args[i] = 0;
    r->args[0] = SDT_RAW_ADDRESS;
    r->args[1] = socket;
    r->args[2] = state;
    r->capture_length[0] = length;
    r->capture_mode[0] = LIVE_CAPTURE_BYTES;
    r->error = 0;
    r->syscall_nr = -1;
    __u32 stacks = 0;
    if (cfg->stacks && length <= SDT_PACKET_HEADERS_MAX)
        stacks = live_append_stacks(ctx, s->headers + length, cfg->stacks, cfg->user_stack_bytes,
                                    bpf_get_current_task_btf(), 1);
    __u64 size = sizeof *r + length + stacks;
    r->size = size;
    r->timestamp = bpf_ktime_get_ns();
    if (size > sizeof *s)
        return;
    if (bpf_ringbuf_output(&live_events, s, size, live_submit_flags()) != 0)
        live_count_drop();
}

/* The packet whose IP header is `offset` bytes into skb->head. */
static __always_inline void on_packet(void *ctx, struct sk_buff___sdt *skb, __u32 offset, __u32 direction) {
    __u16 protocol = __builtin_bswap16(skb->protocol);
    if (protocol != ETH_P_IP && protocol != ETH_P_IPV6)
        return;
    __u32 zero = 0;
    struct sdt_packet_scratch *s = bpf_map_lookup_elem(&sdt_packet_scratch, &zero);
    if (!s)
        return;
    /* As far as the linear data goes: a header split into pages is cut.
     * 64-bit arithmetic, so that the register passed is the one bounded. */
    __u64 tail = skb->tail, start = offset;
    __u64 length = tail > start ? tail - start : 0;
    if (length > SDT_PACKET_HEADERS_MAX)
        length = SDT_PACKET_HEADERS_MAX;
    if (length < 20 || bpf_probe_read_kernel(s->headers, length, skb->head + start) != 0)
        return;
    __u64 socket = 0, state = 0;
    struct sock___sdt_packet *sk = skb->sk; /* BTF-typed: plain loads once checked */
    if (direction == SDT_PACKET_SEND && sk) {
        socket = (__u64)sk;
        state = sk->__sk_common.skc_state;
    }
    __u32 base = direction * SDT_PACKET_KINDS;
    emit_packet(ctx, s, base + SDT_PACKET_IP, length, socket, state);
    __u8 transport = ip_protocol(s->headers);
    if (transport == IPPROTO_TCP)
        emit_packet(ctx, s, base + SDT_PACKET_TCP, length, socket, state);
    else if (transport == IPPROTO_UDP)
        emit_packet(ctx, s, base + SDT_PACKET_UDP, length, socket, state);
}

SEC("tp_btf/net_dev_queue")
int sdt_packet_send(__u64 *ctx) {
    struct sk_buff___sdt *skb = (struct sk_buff___sdt *)ctx[0];
    on_packet(ctx, skb, skb->network_header, SDT_PACKET_SEND);
    return 0;
}

SEC("tp_btf/netif_receive_skb")
int sdt_packet_receive(__u64 *ctx) {
    struct sk_buff___sdt *skb = (struct sk_buff___sdt *)ctx[0];
    on_packet(ctx, skb, (__u32)(skb->data - skb->head), SDT_PACKET_RECEIVE);
    return 0;
}
