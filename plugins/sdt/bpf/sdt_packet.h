/*
 * sdt_packet.h: what the packet programs (sdt_packets.bpf.c) and the sdt
 * plugin's C++ side share: the slots of ip, tcp and udp send and receive,
 * and how much of a packet's headers a record carries.
 */
#ifndef DTRACE_SDT_PACKET_H
#define DTRACE_SDT_PACKET_H

/* Which packets a slot takes: every IP packet, TCP's, UDP's. */
#define SDT_PACKET_IP 0
#define SDT_PACKET_TCP 1
#define SDT_PACKET_UDP 2
#define SDT_PACKET_KINDS 3
/* The direction, as the first index of sdt_packet_slots: kind + 3 * direction. */
#define SDT_PACKET_SEND 0
#define SDT_PACKET_RECEIVE 1
#define SDT_PACKET_SLOTS (2 * SDT_PACKET_KINDS)

/* The bytes copied from the IP header on: an IPv4 header with options (60)
 * or an IPv6 header (40), then a TCP header with options (60). */
#define SDT_PACKET_HEADERS_MAX 128

#endif /* DTRACE_SDT_PACKET_H */
