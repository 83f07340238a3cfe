#!/bin/sh
# check_net.sh DTRACE NET_WORKLOAD CASE: ip, tcp and udp send and receive
# per packet, live, over loopback, on traffic of our own (net_workload.c).
# The predicates pick the workload's packets by the free port this run
# chose (other work shares the machine); every run is bounded in time. Exit 0:
# passed; 1: failed (saying why); 77: skipped (saying what is missing).
dtrace=$1
workload=$2
case_name=$3
limit=120
. "$(dirname "$0")/live_check.sh" # run, fail, value_of, the skips

need_built "$dtrace" "$workload"
need_root "live tracing needs root (BPF programs)"
need_btf "the packet programs"

# The ports of every TCP and UDP socket here, local and remote, in any
# state (a TIME_WAIT an earlier run left too), as /proc/net writes them.
ports_in_use() {
    awk 'FNR > 1 { split($2, local, ":"); split($3, remote, ":"); print local[2]; print remote[2] }' \
        /proc/net/tcp /proc/net/tcp6 /proc/net/udp /proc/net/udp6 2>/dev/null
}

# The workload's port: the first free one from a start of this run's in
# 20000-32767, below the ephemeral ports connect() hands out (32768 on),
# so that none is taken between this choice and the workload's bind.
used=$(ports_in_use)
port=$((20000 + $$ % 12768))
tried=0
while printf '%s\n' "$used" | grep -qx "$(printf %04X "$port")"; do
    tried=$((tried + 1))
    [ "$tried" -lt 12768 ] || skip "no free port in 20000-32767"
    port=$((port == 32767 ? 20000 : port + 1))
done

expect_value() {
    [ "$(value_of "$1")" = "$2" ] || fail "$1 is not $2"
}

case "$case_name" in
tcp)
    # 5 exchanges of a 100-byte request and a 50-byte reply: each data
    # packet, the handshake's SYN and SYN|ACK, one FIN each way, no reset;
    # every packet sent over loopback is received once; the connection's
    # accept-established and connect-established fire beside them.
    ours="(args[4]->tcp_sport == $port || args[4]->tcp_dport == $port)"
    run -qn "tcp:::send,tcp:::receive /$ours/ {
                 @packets[probename] = count();
                 @payload[probename] = sum(args[2]->ip_plength - args[4]->tcp_offset); }
             tcp:::send,tcp:::receive /$ours && args[2]->ip_plength > args[4]->tcp_offset/ {
                 @data[probename, args[4]->tcp_dport == $port ? \"request\" : \"reply\",
                       args[2]->ip_plength - args[4]->tcp_offset] = count(); }
             tcp:::send,tcp:::receive /$ours && (args[4]->tcp_flags & (TH_SYN | TH_FIN | TH_RST))/ {
                 @flags[probename, args[4]->tcp_flags & (TH_SYN | TH_ACK | TH_FIN | TH_RST)] = count(); }
             tcp:::send /$ours && args[4]->tcp_flags == TH_SYN/ {
                 syn = args[4]->tcp_seq;
                 printf(\"syn %s -> %s:%d header %d payload %d\\n\", args[2]->ip_saddr, args[2]->ip_daddr,
                        args[4]->tcp_dport, args[4]->tcp_offset, args[2]->ip_plength - args[4]->tcp_offset); }
             tcp:::receive /$ours && args[4]->tcp_flags == (TH_SYN | TH_ACK)/ {
                 printf(\"synack acks the syn %d from port %d\\n\", args[4]->tcp_ack == (uint32_t)(syn + 1),
                        args[4]->tcp_sport); }
             tcp:::accept-established /args[3]->tcps_lport == $port/ {
                 printf(\"accept-established %s %d\\n\", args[3]->tcps_raddr, args[3]->tcps_state); }
             tcp:::connect-established /args[3]->tcps_rport == $port/ {
                 printf(\"connect-established %s %d\\n\", args[3]->tcps_raddr, args[3]->tcps_state); }
             END { printa(\"packets %s %@d\\n\", @packets); printa(\"payload %s %@d\\n\", @payload);
                   printa(\"data %s %s %d %@d\\n\", @data); printa(\"flags %s %d %@d\\n\", @flags); }" \
        -c "$workload tcp $port 5"
    expect_status_0
    expect_value "syn 127.0.0.1 -> 127.0.0.1:$port header 40 payload" 0
    expect_value "synack acks the syn 1 from port" "$port"
    expect_value "accept-established 127.0.0.1" 6 # the connection events beside the packets
    expect_value "connect-established 127.0.0.1" 6
    expect_value "payload send" 750
    expect_value "payload receive" 750
    for probe in send receive; do
        expect_value "data $probe request 100" 5
        expect_value "data $probe reply 50" 5
        expect_value "flags $probe 2" 1  # SYN
        expect_value "flags $probe 18" 1 # SYN|ACK
        expect_value "flags $probe 17" 2 # FIN|ACK, one each way
    done
    [ "$(grep -c '^flags' "$out")" = 6 ] || fail "flags other than SYN, SYN|ACK, FIN|ACK (a reset?)"
    sent=$(value_of "packets send")
    [ -n "$sent" ] && [ "$sent" -ge 15 ] || fail "fewer than 15 packets sent (3 handshake, 10 data, 2 FIN)"
    expect_value "packets receive" "$sent"
    ;;
udp)
    # 4 datagrams of 1234 bytes: udp_length and ip_plength count the 8-byte
    # header; ip sees the same packets (by their size: 1242 bytes of IP
    # payload from and to 127.0.0.1).
    run -qn "udp:::send,udp:::receive /args[4]->udp_dport == $port/ {
                 @[probename, args[4]->udp_length, args[2]->ip_plength, args[2]->ip_saddr, args[2]->ip_daddr,
                   args[3]->udps_lport == (probename == \"send\" ? args[4]->udp_sport : $port)] = count(); }
             ip:::send,ip:::receive /args[2]->ip_plength == 1242 && args[2]->ip_daddr == \"127.0.0.1\"/ {
                 @ip[probename, args[2]->ip_ver] = count(); }
             END { printa(\"%s %d %d %s %s %d %@d\\n\", @); printa(\"ip %s %d %@d\\n\", @ip); }" \
        -c "$workload udp $port 4 1234"
    expect_status_0
    expect_value "send 1242 1242 127.0.0.1 127.0.0.1 1" 4
    expect_value "receive 1242 1242 127.0.0.1 127.0.0.1 1" 4
    expect_value "ip send 4" 4
    expect_value "ip receive 4" 4
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo "passed: $case_name"
