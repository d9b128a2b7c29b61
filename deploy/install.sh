#!/bin/sh
# `make install [PREFIX=/usr/local]`: puts two commands in PREFIX/bin that run this checkout's build.
#
#   clinetrail           runs dist/src/cli/main.js with the node that ran make install (cron and systemd start
#                        jobs with a short PATH, which may not hold it), MALLOC_ARENA_MAX=2 unless set (as
#                        `make load` does: docs/CLI.md, Memory)
#   clinetrail-nightly   runs deploy/nightly.sh (docs/NIGHTLY.md) with that clinetrail first on PATH
#
# Both name the checkout, so `git pull && make build` updates what they run; run make install again after
# moving the checkout or changing node. DESTDIR, for packagers, is put before PREFIX where the files are
# written, not in what they run.
#   Usage: deploy/install.sh PREFIX
set -eu
prefix=${1:?usage: deploy/install.sh PREFIX}
case $prefix in
/*) ;;
*) echo "clinetrail install: PREFIX must be an absolute path, got '$prefix'" >&2; exit 2 ;;
esac
checkout=$(cd "$(dirname "$0")/.." && pwd -P)
node=$(command -v node || true)
case $node in
/*) ;;
*) echo "clinetrail install: no node on PATH (Node 20 or later)" >&2; exit 1 ;;
esac
if [ ! -f "$checkout/dist/src/cli/main.js" ]; then
  echo "clinetrail install: $checkout/dist/src/cli/main.js not found: run make build first" >&2
  exit 1
fi
bindir=${DESTDIR:-}$prefix/bin
mkdir -p "$bindir"

# A word for sh: 'text', each ' in it written '\''
quote() {
  printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# install NAME TEXT: the script NAME in bindir, written beside it and renamed into place whole
install_script() {
  tmp="$bindir/.$1.$$"
  printf '%s\n' "$2" >"$tmp"
  chmod 755 "$tmp"
  mv -f "$tmp" "$bindir/$1"
  echo "installed $bindir/$1"
}

install_script clinetrail "#!/bin/sh
# clinetrail, written by make install (deploy/install.sh): the checkout's build, run by the node named here.
: \"\${MALLOC_ARENA_MAX:=2}\"
export MALLOC_ARENA_MAX
exec $(quote "$node") $(quote "$checkout/dist/src/cli/main.js") \"\$@\""

install_script clinetrail-nightly "#!/bin/sh
# clinetrail-nightly, written by make install (deploy/install.sh): the checkout's deploy/nightly.sh, run with
# the clinetrail installed beside this script.
PATH=$(quote "$prefix/bin"):\$PATH
export PATH
exec /bin/sh $(quote "$checkout/deploy/nightly.sh") \"\$@\""
