#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# QEMU VMs as hosts of the h=1 Dragonfly over vhost-user (issue 26): one dfly-switch runs the six
# routers; nodes 0 (group 0) and 5 (group 2) are net_vhost host ports whose sockets two QEMU
# guests attach their virtio-net to. The guests boot the machine's Debian kernel
# (linux-image-amd64) with an initramfs built here from busybox-static and the virtio-net
# modules, KVM when it works, TCG otherwise. Checks:
#  1. both guests boot and bring their virtio-net up (boot time reported);
#  2. guest 0 pings guest 5 (10 requests across a global link), ARP answered by the switch's
#     proxy ARP; the round-trip times reported;
#  2b. with iperf3 on the machine (its libraries copied in), a 3 s TCP test from guest 0 to
#     guest 5's server across the same global link; the rates reported;
#  3. the routers account for every frame: at each host port, frames in = injected + ARP
#     replies + edge drops, frames ejected = frames sent to the guest; no fabric drop; the
#     frames from node 0 to node 5 took global hops.
# Needs root, qemu-system-x86_64, a kernel in /boot with its modules, busybox (static) and
# python3; skipped (exit 77) with the reason only where QEMU cannot start at all. Every process,
# socket, image and file it makes is removed, also on failure.
#
#   vm.sh DFLY_SWITCH SOURCE_DIR
set -u
sw="${1:?usage: vm.sh DFLY_SWITCH SOURCE_DIR}"
src="${2:?usage: vm.sh DFLY_SWITCH SOURCE_DIR}"
pfx="dflyvm$$"
tmp=$(mktemp -d /tmp/dflyvm.XXXXXX)
swpid=""
vmpid=()
checks=0

skip() {
	echo "SKIP: $*"
	exit 77
}
cleanup() {
	local p
	set +e
	for p in "${vmpid[@]}"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	if [ -n "$swpid" ]; then
		kill -INT "$swpid" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$swpid" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$swpid" 2>/dev/null
		wait "$swpid" 2>/dev/null
	fi
	rm -rf /var/run/dpdk/"$pfx"
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/sw.log "$tmp"/vm*.log; do
		[ -s "$f" ] && sed "s|^|  $(basename "$f"): |" "$f" | tail -15
	done
	exit 1
}
ok() {
	checks=$((checks + 1))
	echo "ok: $*"
}

[ "$(id -u)" = 0 ] || skip "needs root (vhost-user sockets of dfly-switch, QEMU)"
qemu=$(command -v qemu-system-x86_64) || skip "qemu-system-x86_64 not installed (scripts/deps.sh)"
kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
[ -n "$kernel" ] || skip "no kernel in /boot (linux-image-amd64, scripts/deps.sh)"
kver=${kernel#/boot/vmlinuz-}
[ -d "/lib/modules/$kver" ] || skip "no modules for $kver"
busybox=$(command -v busybox) || skip "busybox not installed (busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q "statically linked" || [ ! -x /usr/bin/file ] ||
	skip "$busybox is not statically linked (busybox-static)"
command -v python3 >/dev/null || skip "python3 not installed"

# --- the initramfs: busybox, the virtio-net modules in dependency order, an init --------------
root="$tmp/root"
mkdir -p "$root"/{bin,proc,sys,dev,tmp,lib/modules}
cp "$busybox" "$root/bin/busybox"
declare -A seen=()
order=()
add_mod() { # depth first: a module after its dependencies
	local m=$1 d
	[ -n "${seen[$m]:-}" ] && return
	seen[$m]=1
	for d in $(modinfo -k "$kver" -F depends "$m" 2>/dev/null | tr ',' ' '); do
		add_mod "$d"
	done
	local f
	f=$(modinfo -k "$kver" -n "$m" 2>/dev/null) || return
	case "$f" in
	*.ko) cp "$f" "$root/lib/modules/$m.ko" ;;
	*.ko.xz) xz -dc "$f" >"$root/lib/modules/$m.ko" ;;
	*.ko.zst) zstd -qdc "$f" >"$root/lib/modules/$m.ko" ;;
	*) return ;; # built in
	esac
	order+=("$m")
}
add_mod virtio_pci
add_mod virtio_net
printf '%s\n' "${order[@]}" >"$root/modules.order"
# iperf3 and the libraries it loads, at their paths (ldd), when the machine has it
iperf=""
if ip3=$(command -v iperf3); then
	for f in "$ip3" $(ldd "$ip3" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f" || fail "cannot copy $f into the initramfs"
	done
	[ -e "$root/lib64/ld-linux-x86-64.so.2" ] || fail "no dynamic loader in the initramfs"
	iperf="iperf3 $(iperf3 --version | head -1 | cut -d' ' -f2)"
fi
cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules.order); do insmod /lib/modules/$m.ko; done
arg() { sed -n "s/.*dfly\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
ip=$(arg ip)
peer=$(arg peer)
n=0
while ! ip link show eth0 >/dev/null 2>&1 && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
ip link set lo up
ip addr add "$ip/16" dev eth0
ip link set eth0 up
echo "DFLY-UP $(cut -d' ' -f1 /proc/uptime)"
[ -z "$peer" ] && command -v iperf3 >/dev/null && iperf3 -s -D -1
if [ -n "$peer" ]; then
	# the peer's guest may still be booting: wait for its first answer, then measure
	n=0
	until ping -c 1 -W 1 "$peer" >/dev/null 2>&1 || [ $n -ge 120 ]; do n=$((n + 1)); done
	ping -c 10 -i 0.2 -W 2 "$peer" >/tmp/ping 2>&1
	rc=$?
	cat /tmp/ping
	echo "DFLY-PING rc=$rc"
	if command -v iperf3 >/dev/null; then
		# TCP across the global link, 3 s (the server took its one test: -s -1)
		iperf3 -c "$peer" -t 3 -f m >/tmp/iperf 2>&1
		rc=$?
		cat /tmp/iperf
		echo "DFLY-IPERF rc=$rc"
	fi
	poweroff -f
fi
sleep 600
poweroff -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"$tmp/initrd.gz") ||
	fail "cannot build the initramfs"
ok "initramfs: busybox${iperf:+, $iperf} and ${#order[@]} modules (${order[*]}) of $kver"

# --- dfly-switch: the six routers, hosts 0 and 5 on vhost-user sockets ------------------------
cat >"$tmp/vm.cfg" <<EOF
network = "$src/configs/h1.cfg";
instance = "";
firmware = "thread";
routers = [0, 1, 2, 3, 4, 5];
hosts = (
	{ node = 0; mac = "02:df:00:00:00:00"; ip = "10.77.0.1";
	  dev = "net_vhost0"; args = "iface=$tmp/vm0.sock,queues=1"; },
	{ node = 5; mac = "02:df:00:00:00:05"; ip = "10.77.0.6";
	  dev = "net_vhost1"; args = "iface=$tmp/vm5.sock,queues=1"; }
);
generators = "none";
EOF
sets=(--set packet.phit_bytes=64 --set buffers.local=64 --set buffers.output=64
	--set clock.cycle_ns=2000)
eal=(--no-huge -m 512 --no-pci --no-shconf --file-prefix "$pfx" -l 0 --log-level=error)
"$sw" "${eal[@]}" -- "$tmp/vm.cfg" "${sets[@]}" --counters "$tmp/ctr" --quiet >"$tmp/sw.log" 2>&1 &
swpid=$!
for _ in $(seq 50); do
	[ -S "$tmp/vm0.sock" ] && [ -S "$tmp/vm5.sock" ] && break
	kill -0 "$swpid" 2>/dev/null || fail "dfly-switch exited"
	sleep 0.2
done
[ -S "$tmp/vm0.sock" ] && [ -S "$tmp/vm5.sock" ] || fail "no vhost-user sockets"

# --- the guests --------------------------------------------------------------------------------
accel="tcg"
if [ -w /dev/kvm ] && grep -qw -e vmx -e svm /proc/cpuinfo; then accel="kvm"; fi
# vectors=0: no MSI-X. QEMU 7.2 (Debian 12) under TCG crashes in msix_set_vector_notifiers()
# when vhost_net_start() sets up the guest notifiers of an MSI-X virtio-net (seen here: SIGSEGV
# as the guest's virtio_net probes); with INTx, vhost-user runs under TCG and KVM alike.
boot_vm() { # node ip peer
	local n=$1 ip=$2 peer=$3
	"$qemu" -accel "$accel" -machine q35 -cpu max -m 256 -smp 1 -nodefaults -no-reboot \
		-display none -serial "file:$tmp/vm$n.log" \
		-object memory-backend-memfd,id=mem,size=256M,share=on -numa node,memdev=mem \
		-chardev "socket,id=c0,path=$tmp/vm$n.sock" \
		-netdev vhost-user,id=n0,chardev=c0 \
		-device "virtio-net-pci,netdev=n0,mac=02:df:00:00:00:0$n,vectors=0" \
		-kernel "$kernel" -initrd "$tmp/initrd.gz" \
		-append "console=ttyS0 panic=-1 dfly.ip=$ip dfly.peer=$peer" \
		>"$tmp/qemu$n.log" 2>&1 &
	vmpid+=($!)
}
t0=$(date +%s.%N)
boot_vm 5 10.77.0.6 ""
boot_vm 0 10.77.0.1 10.77.0.6
sleep 2
for p in "${vmpid[@]}"; do
	kill -0 "$p" 2>/dev/null || { cat "$tmp"/qemu*.log; skip "QEMU cannot start here ($accel)"; }
done
# guest 0 powers off after its pings (TCG boots a 6.1 kernel in tens of seconds on 2 cores)
done_mark="DFLY-PING"
[ -n "$iperf" ] && done_mark="DFLY-IPERF"
for _ in $(seq 900); do
	grep -q -e "$done_mark" -e "DFLY-PING rc=[1-9]" "$tmp/vm0.log" 2>/dev/null && break
	kill -0 "${vmpid[1]}" 2>/dev/null || break
	sleep 0.2
done
t1=$(date +%s.%N)
up0=$(sed -n 's/.*DFLY-UP \([0-9.]*\).*/\1/p' "$tmp/vm0.log")
up5=$(sed -n 's/.*DFLY-UP \([0-9.]*\).*/\1/p' "$tmp/vm5.log")
[ -n "$up0" ] && [ -n "$up5" ] || fail "a guest did not bring its virtio-net up"
ok "two guests ($accel) booted, virtio-net up at ${up0} s and ${up5} s of guest uptime"
grep -q "DFLY-PING rc=0" "$tmp/vm0.log" || fail "guest 0 could not ping guest 5"
rtt=$(sed -n 's/.*round-trip min\/avg\/max = \([0-9./]*\) ms.*/\1/p' "$tmp/vm0.log")
loss=$(sed -n 's/.* \([0-9]*\)% packet loss.*/\1/p' "$tmp/vm0.log")
[ "$loss" = 0 ] || fail "ping: $loss% loss"
ok "guest 0 -> guest 5: 10 pings, 0% loss, rtt min/avg/max $rtt ms ($(echo "$t1 - $t0" | bc 2>/dev/null || echo ?) s from the first boot)"
if [ -n "$iperf" ]; then
	grep -q "DFLY-IPERF rc=0" "$tmp/vm0.log" || fail "iperf3 from guest 0 to guest 5 failed"
	snd=$(sed -n 's/.* \([0-9.]*\) Mbits\/sec .*sender.*/\1/p' "$tmp/vm0.log")
	rcv=$(sed -n 's/.* \([0-9.]*\) Mbits\/sec .*receiver.*/\1/p' "$tmp/vm0.log")
	[ -n "$rcv" ] || fail "iperf3 reported no receiver rate"
	ok "guest 0 -> guest 5: iperf3 TCP 3 s, $snd Mbit/s sent, $rcv Mbit/s received"
fi

# --- stop; every frame accounted ----------------------------------------------------------------
kill -KILL "${vmpid[@]}" 2>/dev/null
wait "${vmpid[@]}" 2>/dev/null
vmpid=()
kill -INT "$swpid"
rc=0
wait "$swpid" || rc=$?
swpid=""
[ "$rc" -eq 0 ] || fail "dfly-switch exited with status $rc"
python3 - "$tmp/ctr" <<'EOF' >"$tmp/acct.out" || { cat "$tmp/acct.out"; fail "accounting"; }
import re, sys
R, r = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"router (\d+) cycle", line)
    if m:
        r = int(m.group(1)); R[r] = {}; continue
    m = re.match(r"\s+(\S+) (-?\d+)$", line)
    if m and r is not None:
        R[r][m.group(1)] = int(m.group(2))
c = lambda r, k: R[r].get(k, 0)
vcsum = lambda r, what: sum(v for k, v in R[r].items() if re.fullmatch(rf"port0\.vc\d+\.{what}", k))
EDGE = ["host_spoof", "host_unknown_dst", "host_non_unicast", "host_bad_frame", "inj_full"]
FABRIC = ["bad_dst", "bad_vc", "bad_port", "no_room"]
fails = []
for r in (0, 5):
    rx, tx, arp = c(r, "port0.host_rx"), c(r, "port0.host_tx"), c(r, "port0.arp_replies")
    inj, ej = vcsum(r, "enq_pkts"), vcsum(r, "out_vc_pkts")
    edge = sum(c(r, "drop." + d) for d in EDGE)
    print(f"  router {r}: host_rx {rx} = injected {inj} + arp_replies {arp} + edge drops {edge}; "
          f"ejected {ej} = host_tx {tx} + host_tx_full {c(r, 'drop.host_tx_full')}")
    if rx != inj + arp + edge:
        fails.append(f"router {r}: host_rx {rx} != {inj} + {arp} + {edge}")
    if ej != tx + c(r, "drop.host_tx_full"):
        fails.append(f"router {r}: ejected {ej} != host_tx {tx} + host_tx_full")
    if inj < 10 or tx < 10:
        fails.append(f"router {r}: fewer than the 10 pings' frames (injected {inj}, host_tx {tx})")
fab = sum(c(r, "drop." + d) for r in R for d in FABRIC)
ghops = sum(c(r, "route.hop_global") for r in R)
print(f"  fabric drops {fab}, global hops {ghops}")
if fab:
    fails.append(f"{fab} fabric drops")
if ghops < c(0, "port0.host_rx") - c(0, "port0.arp_replies"):
    fails.append(f"global hops {ghops} < frames of node 0")
for f in fails:
    print("  " + f)
sys.exit(1 if fails else 0)
EOF
cat "$tmp/acct.out"
ok "the routers account for every frame of the guests"
echo "$checks checks passed"
