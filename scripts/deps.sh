#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Install the Debian 12 packages dfly needs, if they are missing. Run as root (or with sudo).
# With --tests, also those only the test suite needs (QEMU, a guest kernel, busybox).
set -euo pipefail

PKGS=(
    build-essential meson ninja-build pkg-config   # build
    libdpdk-dev dpdk-dev                           # DPDK 22.11 (dataplane)
    libpcap-dev libconfig-dev                      # capture, configuration
    libcmocka-dev                                  # unit tests
    clang libclang-rt-14-dev                       # libFuzzer harnesses (tests/fuzz)
    clang-format                                   # tests/unit/check_format.sh
    gnuplot-nox tshark                             # plots, trace dissection
    help2man                                       # man pages from --help (man/)
    iproute2 iperf3 iputils-ping                   # namespaces, TCP and ping for integration tests
    ethtool procps python3                         # veth offloads, sysctl, test helpers
)
# --tests (scripts/test.sh): also what only the tests need, QEMU guests as hosts over vhost-user
# (tests/integration/vm.sh boots the machine's kernel with an initramfs it builds)
if [ "${1:-}" = "--tests" ]; then
    PKGS+=(qemu-system-x86 linux-image-amd64 busybox-static cpio kmod)
fi

missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all ${#PKGS[@]} packages present"
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "deps: installing ${missing[*]}"
# Never ask: DEBIAN_FRONTEND passed through sudo (which resets the environment), and the one
# question of these packages answered beforehand: wireshark-common (pulled in by tshark) asks
# whether non-root users may capture packets; no, dfly only reads capture files.
apt_get() { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }
echo "wireshark-common wireshark-common/install-setuid boolean false" |
    $SUDO debconf-set-selections
apt_get update -qq
apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
