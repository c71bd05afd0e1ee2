#!/usr/bin/env bash
# nginx with the WebDAV module, for the remote-cache tests (BazelHttpCacheNginxTest): they start
# their own nginx as a child process (a config in a temp dir, a free port on 127.0.0.1) and store
# Bazel HTTP-cache entries in it with PUT. On Debian bookworm the `nginx` package is the server
# built with --with-http_dav_module (nginx-light is only a metapackage over it).
#
# Idempotent: does nothing when an nginx with the DAV module is on PATH. Installing needs root;
# the package's own service is kept from starting (no nginx on port 80 is left behind).
set -euo pipefail
log() { echo "setup-nginx: $*" >&2; }
PATH=$PATH:/usr/sbin:/sbin

has_dav() { nginx -V 2>&1 | grep -q -- --with-http_dav_module; }

if command -v nginx >/dev/null && has_dav; then
  log "$(command -v nginx) has the DAV module"
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  log "error: no nginx with the DAV module and installing one needs root"
  exit 1
fi
# Like a container's policy-rc.d: the postinst must not start the system's nginx.
policy=/usr/sbin/policy-rc.d
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod 755 "$policy"
  trap 'rm -f "$policy"' EXIT
fi
log "installing nginx"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >&2
if ! has_dav; then
  log "error: $(command -v nginx || echo nginx) lacks the DAV module (nginx -V shows no --with-http_dav_module)"
  exit 1
fi
log "$(command -v nginx) has the DAV module"
