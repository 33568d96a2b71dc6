#!/bin/sh
# SPDX-License-Identifier: MIT
# A real LAVA lab on this machine, in a chroot: lava-server (gunicorn, the
# scheduler), PostgreSQL, one lava-worker with QEMU devices, all on
# 127.0.0.1, without systemd (make check-lab; docs/boards.md, "Your own lab").
# The chroot is made once with mmdebstrap from Debian 12 and cached, keyed by
# its package list: the host's own packages are never touched (lava-server on
# the host would pull systemd-sysv and upgrade systemd).
#
# Usage: scripts/lab/lab.sh setup       build the chroot (once; prints its path)
#        scripts/lab/lab.sh start       mount, start PostgreSQL, server, scheduler,
#                                       worker; provision admin, token, devices
#        scripts/lab/lab.sh stop        stop all by PID, unmount
#        scripts/lab/lab.sh status      what runs
#        scripts/lab/lab.sh shell CMD.. run CMD in the chroot
# Environment: LAB_CACHE (default build/lab-cache), LAB_RUN (default build/lab),
#              LAB_PORT (default 8180), LAB_MIRROR (default deb.debian.org).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
srctree=$(cd "$here/../.." && pwd)
CACHE=${LAB_CACHE:-$srctree/build/lab-cache}
RUN=${LAB_RUN:-$srctree/build/lab}
PORT=${LAB_PORT:-8180}
MIRROR=${LAB_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm

# What the chroot holds. lava-server-doc comes with lava-server: gunicorn
# does not start without its html folder. qemu-system-arm and the archivers
# for the dispatcher's tmpfs deploy (cpio overlays, gz); git for a test
# definition referenced from a repository (lava/jobs/qemu-cortex-a72.yaml).
PACKAGES="lava-server lava-server-doc lava-dispatcher lavacli postgresql postgresql-common
qemu-system-arm cpio gzip xz-utils procps ca-certificates python3-yaml curl git"

die() { echo "lab: $*" >&2; exit 1; }
# Whether anything is mounted at or under DIR: never rm -rf such a folder
# (a bind of /dev under it would take the host's with it).
mounted_under() { awk -v d="$1" '$2 == d || index($2, d "/") == 1 { f = 1 } END { exit !f }' /proc/mounts; }
key() { printf '%s %s %s\n' "$SUITE" "$MIRROR" "$PACKAGES" | tr -s ' \n' ' ' | sha256sum | cut -c1-16; }
root() { echo "$CACHE/root-$(key)"; }

setup() {
	r=$(root)
	if [ -f "$r/.lab-ready" ]; then echo "$r"; return 0; fi
	command -v mmdebstrap >/dev/null || die "mmdebstrap missing: scripts/deps.sh lab"
	[ "$(id -u)" = 0 ] || die "the chroot is built as root (mmdebstrap --mode=root)"
	mkdir -p "$CACHE"
	tmp="$r.tmp"
	rm -rf "$tmp"
	echo "lab: building the chroot $r (Debian $SUITE; minutes, once)" >&2
	# No service starts inside the chroot while packages install:
	# policy-rc.d says no; the servers are started by `start`.
	mmdebstrap --mode=root --variant=apt --format=directory \
		--include="$(echo $PACKAGES | tr ' ' ,)" \
		--essential-hook='printf "#!/bin/sh\nexit 101\n" >"$1/usr/sbin/policy-rc.d"; chmod 755 "$1/usr/sbin/policy-rc.d"' \
		--customize-hook='rm -f "$1/usr/sbin/policy-rc.d"' \
		"$SUITE" "$tmp" "$MIRROR" >&2 || { rm -rf "$tmp"; die "mmdebstrap failed"; }
	[ -d "$tmp/usr/share/doc/lava-server-doc/html" ] || { rm -rf "$tmp"; die "no lava-server-doc html: gunicorn would not start"; }
	touch "$tmp/.lab-ready"
	mv "$tmp" "$r"
	# One chroot in the cache: those of other package lists go.
	for old in "$CACHE"/root-*; do
		[ "$old" = "$r" ] || mounted_under "$old" || rm -rf "$old"
	done
	echo "$r"
}


# ---- the running lab: an overlay on the cached chroot, thrown away at stop ----
ROOT=$RUN/root
PGPORT=${LAB_PGPORT:-55432}
WORKER=lab-worker
# The QEMU devices: the emulated boards of lava/jobs (the job's context
# picks -cpu max or cortex-a72; two devices let two jobs run at once).
DEVICES=${LAB_DEVICES:-qemu-lab-01 qemu-lab-02}

in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 PGPORT="$PGPORT" "$@"; }
manage() { in_root lava-server manage "$@"; }

# daemon NAME CMD...: start CMD in the chroot, in the background; its PID
# (chroot execs the command: the same process) goes to $RUN/pids/NAME.
daemon() {
	name=$1; shift
	chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@" \
		>"$RUN/logs/$name.log" 2>&1 </dev/null &
	echo $! >"$RUN/pids/$name"
}

mounts() {
	mkdir -p "$RUN/upper" "$RUN/work" "$ROOT" "$RUN/pids" "$RUN/logs"
	mount -t overlay selfmon-lab -o "lowerdir=$1,upperdir=$RUN/upper,workdir=$RUN/work" "$ROOT"
	echo "$ROOT" >>"$RUN/mounts"
	mount -t proc proc "$ROOT/proc" && echo "$ROOT/proc" >>"$RUN/mounts"
	mount --bind /dev "$ROOT/dev" && echo "$ROOT/dev" >>"$RUN/mounts"
	mount --bind /dev/pts "$ROOT/dev/pts" && echo "$ROOT/dev/pts" >>"$RUN/mounts"
	mount -t tmpfs -o size=256m shm "$ROOT/dev/shm" && echo "$ROOT/dev/shm" >>"$RUN/mounts"
}

wait_for() { # SECONDS WHAT CMD...: until CMD succeeds
	t=$1 what=$2; shift 2
	while ! "$@" >/dev/null 2>&1; do
		t=$((t - 1))
		[ "$t" -gt 0 ] || { echo "lab: $what did not come up: see $RUN/logs/" >&2; return 1; }
		sleep 1
	done
}

provision() {
	# PostgreSQL on 127.0.0.1 only, on a port of its own.
	conf=$ROOT/etc/postgresql/15/main/postgresql.conf
	printf "port = %s\nlisten_addresses = '127.0.0.1'\n" "$PGPORT" >>"$conf"
	in_root pg_ctlcluster 15 main start
	pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	cat >"$ROOT/etc/lava-server/settings.d/00-database.yaml" <<-YAML
	DATABASES:
	  default:
	    ENGINE: "django.db.backends.postgresql"
	    NAME: "lavaserver"
	    USER: "lavaserver"
	    PASSWORD: "$pw"
	    HOST: "127.0.0.1"
	    PORT: $PGPORT
	YAML
	cat >"$ROOT/etc/lava-server/settings.d/01-lab.yaml" <<-YAML
	ALLOWED_HOSTS: ["127.0.0.1", "localhost"]
	YAML
	in_root python3 /usr/share/lava-server/postinst.py --config --db --fixup >"$RUN/logs/postinst.log" 2>&1 ||
		{ tail -20 "$RUN/logs/postinst.log" >&2; die "postinst.py failed"; }
	token=$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
	manage users add admin --superuser --staff --passwd "$token" >/dev/null
	manage tokens add --user admin --secret "$token" >/dev/null
	wtoken=$(manage workers add "$WORKER" | sed -n 's/^Token: //p')
	manage device-types add qemu >/dev/null
	for d in $DEVICES; do
		cp "$srctree/lava/devices/qemu-selfmon.jinja2" "$ROOT/etc/lava-server/dispatcher-config/devices/$d.jinja2"
		manage devices add --device-type qemu --worker "$WORKER" "$d" >/dev/null
	done
	cat >"$RUN/lab.env" <<-EOF
	LAB_URL=http://127.0.0.1:$PORT
	LAB_USER=admin
	LAB_TOKEN=$token
	LAB_ROOT=$ROOT
	EOF
	echo "$wtoken" >"$RUN/worker-token"
}

start() {
	base=$(setup)
	[ ! -s "$RUN/mounts" ] || die "a lab is up (or was not stopped): $0 stop"
	for p in "$PORT" "$PGPORT"; do
		if ss -ltn 2>/dev/null | grep -q "127.0.0.1:$p "; then
			die "port $p on 127.0.0.1 is taken: LAB_PORT or LAB_PGPORT chooses others"
		fi
	done
	mounted_under "$RUN" && die "still mounted under $RUN: $0 stop"
	rm -rf "$RUN" && mkdir -p "$RUN"
	mounts "$base"
	t0=$(date +%s)
	provision
	daemon gunicorn gunicorn3 lava_server.wsgi --bind "127.0.0.1:$PORT" --workers 3 --timeout 120 \
		-u lavaserver -g lavaserver --log-level info
	daemon scheduler setpriv --reuid lavaserver --regid lavaserver --init-groups \
		lava-server manage lava-scheduler --level INFO --log-file -
	wait_for 120 "lava-server (gunicorn on 127.0.0.1:$PORT)" \
		chroot "$ROOT" curl -fsS "http://127.0.0.1:$PORT/api/v0.2/system/version/"
	daemon worker lava-worker --name "$WORKER" --url "http://127.0.0.1:$PORT/" \
		--token "$(cat "$RUN/worker-token")" --level INFO --log-file -
	sleep 2
	kill -0 "$(cat "$RUN/pids/scheduler")" 2>/dev/null || { tail -5 "$RUN/logs/scheduler.log" >&2; die "the scheduler died"; }
	wait_for 120 "the worker (online)" sh -c "chroot '$ROOT' lava-server manage workers details '$WORKER' | grep -q 'state *: Online'"
	. "$RUN/lab.env"
	# lavacli's identity, inside the lab's tree: the host's ~/.config stays as it was.
	mkdir -p "$RUN/home/.config" "$ROOT/root/.config"
	printf 'lab:\n  uri: %s/RPC2\n  username: %s\n  token: %s\n' "$LAB_URL" "$LAB_USER" "$LAB_TOKEN" \
		| tee "$ROOT/root/.config/lavacli.yaml" >"$RUN/home/.config/lavacli.yaml"
	echo "lab: up in $(( $(date +%s) - t0 )) s: $LAB_URL (user $LAB_USER), worker $WORKER online, devices: $DEVICES" >&2
}

# Stop every process by its PID (TERM, then KILL), then any other process
# whose root is the lab's tree (a job's lava-run, its QEMU), then PostgreSQL;
# unmount in reverse order; drop the overlay's upper layer.
stop_pid() {
	pid=$1
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
	kill -KILL "$pid" 2>/dev/null || true
}

in_lab() { # PIDs whose root directory is the lab's tree
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] && echo "${p#/proc/}"
	done
	return 0
}

stop() {
	for n in worker scheduler gunicorn; do
		if [ -f "$RUN/pids/$n" ]; then stop_pid "$(cat "$RUN/pids/$n")"; fi
	done
	if [ -d "$ROOT/usr" ]; then
		in_root pg_ctlcluster 15 main stop -m fast 2>/dev/null || true
		for pid in $(in_lab); do stop_pid "$pid"; done
		left=$(in_lab)
		[ -z "$left" ] || echo "lab: still in the chroot after KILL: $left" >&2
	fi
	if [ -f "$RUN/mounts" ]; then
		tac "$RUN/mounts" | while read -r m; do
			! mountpoint -q "$m" || umount "$m" || umount -l "$m"
		done
		rm -f "$RUN/mounts"
	fi
	if mounted_under "$RUN"; then
		die "still mounted under $RUN: $(awk -v d="$RUN/" 'index($2, d) == 1 { print $2 }' /proc/mounts)"
	fi
	[ -n "${LAB_KEEP:-}" ] || rm -rf "$RUN/upper" "$RUN/work" "$ROOT"
}

status() {
	for n in gunicorn scheduler worker; do
		pid=$(cat "$RUN/pids/$n" 2>/dev/null || true)
		if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$n: running ($pid)"; else echo "$n: stopped"; fi
	done
}

case "${1:-}" in
setup) setup ;;
start) start ;;
stop) stop ;;
status) status ;;
shell) shift; in_root "$@" ;;
*) die "usage: $0 setup|start|stop|status|shell" ;;
esac
