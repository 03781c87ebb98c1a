#!/usr/bin/env bash
# Installs the Debian packages dbgauge's tests need (engine servers for the
# private instances the tests start, and Chromium for the report test),
# when they are missing and we are root.
# Services are not started: tests run their own instances on loopback.
set -euo pipefail
need=()
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need+=(mariadb-server)
[ -x /usr/sbin/firebird ] || need+=(firebird3.0-server)
# Galera clusters: the provider library, and rsync for the state transfer.
[ -e /usr/lib/galera/libgalera_smm.so ] || need+=(galera-4)
command -v rsync >/dev/null 2>&1 || need+=(rsync)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
# ip (network namespaces, veths, a bridge) for the remote-agent tests.
command -v ip >/dev/null 2>&1 || need+=(iproute2)
# Headless Chromium opens the quickstart report in the browser test.
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "missing Debian packages: ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
  exit 1
fi
echo "installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Keep package scripts from starting system services: tests use private instances.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
