#!/usr/bin/env bash
# Installs the Debian 12 packages this project builds and tests with.
# Idempotent: when every package is already installed it only checks and exits.
# Must run as root (or with sudo available) when something is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  thrift-compiler libthrift-dev
  libboost-dev
  liblz4-dev zlib1g-dev
  flatbuffers-compiler libflatbuffers-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsqlite3-dev
  libpq-dev postgresql  # the PostgreSQL metastore: client library, and the server its tests start
  libgflags-dev libgoogle-glog-dev
  nlohmann-json3-dev
  libedit-dev
  libssl-dev openssl  # TLS on every port; openssl makes the test certificates
  clang libclang-rt-14-dev  # the libFuzzer/sanitizer runtimes (clang only recommends them)
  python3 procps
  spin  # the model check of catalogd HA (tests/model/run_model.sh)
  redis-server libhiredis-dev gnuplot-nox
  chromium chromium-driver
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install packages" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
