#!/usr/bin/env bash
# Builds and analyzes the applications of Portend+'s evaluation (its Table
# III) from their public sources, and prints augur's figures beside the
# paper's (scripts/apptable). Not part of `make test`: the sources are not
# in this repository. Fetch them, then give each one's directory:
#
#   scripts/apps.sh [-o OUTDIR] [-t TIMEOUT] [-s RUNS] [-x] NAME=DIR...
#
#   pbzip2=DIR  pbzip2 0.9.4: the directory of pbzip2.cpp (needs bzip2=DIR)
#   bzip2=DIR   bzip2 (libbz2): blocksort.c ... bzlib.c, compiled in with
#               pbzip2; a bz_version.h missing there (bzip2 1.1) is made
#               from bz_version.h.in
#   ocean=DIR   SPLASH-2 ocean (contiguous partitions), a pthreads port:
#               the directory of main.c, slave1.c, ...
#   fmm=DIR     SPLASH-2 fmm, a pthreads port: the directory of fmm.c, ...
#   memcached=DIR  memcached 1.4.5: the directory of memcached.c (needs
#               libevent=DIR); serves a client program of ours
#               (scripts/apps/memcached_client.c, run with --client)
#   libevent=DIR   libevent 1.4 (release-1.4.15-stable): event.c, ...
#   sqlite=DIR  SQLite 3.6: the directory of the amalgamation (sqlite3.c,
#               sqlite3.h); run by a two-thread driver of ours
#               (scripts/apps/sqlite_driver.c)
#   ctrace=DIR, bbuf=DIR  SCTBench's benchmarks/inspect_examples (the
#               directory of ctrace-test.c and bbuf.c)
#
# For each application NAME this writes to
# OUTDIR (default apps-out): NAME.json, the `augur analyze --format json`
# report; NAME.seconds, the analysis's wall time; NAME.run-seconds, a
# plain `augur run`'s; NAME-evidence/, the evidence of its harmful races
# and failures, each replayed (NAME.replayed: how many reproduced, of how
# many); NAME.log, what augur printed. Inputs are made here, the same
# every time, so that runs compare.
#
# -s RUNS also builds each application natively with ThreadSanitizer
# (clang -fsanitize=thread -g -O0, the same sources, macros and include
# directories) and runs it RUNS times on the same inputs, writing each
# run's reports to NAME.tsan.K; apptable then compares the races
# ThreadSanitizer reported with augur's. -x skips augur (the plain run and
# the analysis), keeping the NAME.json an earlier run left in OUTDIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
augur=${AUGUR:-$root/bin/augur}
out=apps-out
timeout=20m
tsan_runs=0
analyze=1
while getopts "o:t:s:x" opt; do
	case $opt in
	o) out=$OPTARG ;;
	t) timeout=$OPTARG ;;
	s) tsan_runs=$OPTARG ;;
	x) analyze=0 ;;
	*) sed -n '2,39p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	sed -n '2,39p' "$0" >&2
	exit 2
fi
declare -A src
for arg in "$@"; do
	name=${arg%%=*}
	dir=${arg#*=}
	if [ "$name" = "$arg" ] || [ ! -d "$dir" ]; then
		echo "apps.sh: $arg: want NAME=DIR with an existing directory" >&2
		exit 2
	fi
	src[$name]=$(cd "$dir" && pwd)
done
if [ ! -x "$augur" ]; then
	echo "apps.sh: $augur not found: run make build first (or set AUGUR)" >&2
	exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$out/work
mkdir -p "$work"

# shellcheck source=scripts/measure.sh
. "$root/scripts/measure.sh"

# measure NAME ANALYZE-ARGS... -- RUN-ARGS...: times a plain run and the
# analysis, in the work directory (inputs are named relative to it), and
# runs ThreadSanitizer's build when asked (-s).
measure() {
	if [ "$tsan_runs" -gt 0 ]; then
		tsan "$@"
	fi
	if [ "$analyze" = 1 ]; then
		analyze "$@"
	fi
}

# tsan NAME ANALYZE-ARGS... -- RUN-ARGS...: builds the application natively
# with ThreadSanitizer from the sources and compile flags among augur's
# arguments, and runs it tsan_runs times in the work directory: standard
# input from --stdin's file, a --client program (built without the
# sanitizer) run beside it until the client exits, then the server
# interrupted. augur's other flags have no native counterpart.
tsan() {
	local name=$1
	shift
	local c=() cxx=() flags=() client="" stdin=/dev/null run=() cc=clang-14 cxxc=clang++-14
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		case $1 in
		*.c) c+=("$1") ;;
		*.cpp | *.cc) cxx+=("$1") ;;
		-I | -D) flags+=("$1" "$2"); shift ;;
		--cflag=*) flags+=("${1#--cflag=}") ;;
		--stdin) stdin=$work/$2; shift ;;
		--client) client=$2; shift ;;
		--file | --max-instructions | --argv0) shift ;;
		esac
		shift
	done
	shift
	run=("$@")
	local dir=$work/tsan-$name
	rm -rf "$dir"
	mkdir -p "$dir"
	echo "apps.sh: $name: ThreadSanitizer build" >&2
	local f objs=()
	for f in "${c[@]}"; do
		objs+=("$dir/$(basename "$f").o")
		"$cc" -fsanitize=thread -g -O0 -w "${flags[@]}" -c "$f" -o "${objs[-1]}"
	done
	for f in "${cxx[@]}"; do
		objs+=("$dir/$(basename "$f").o")
		"$cxxc" -fsanitize=thread -g -O0 -w "${flags[@]}" -c "$f" -o "${objs[-1]}"
	done
	"$cxxc" -fsanitize=thread "${objs[@]}" -o "$dir/$name" -lpthread -lm
	if [ -n "$client" ]; then
		"$cc" -O1 -w "$client" -o "$dir/client"
	fi
	local k pid
	rm -f "$out/$name".tsan.* "$out/$name.tsan-runs"
	for k in $(seq 1 "$tsan_runs"); do
		echo "apps.sh: $name: ThreadSanitizer run $k of $tsan_runs" >&2
		if [ -n "$client" ]; then
			(cd "$work" && TSAN_OPTIONS="log_path=$out/$name.tsan.$k" exec "$dir/$name" "${run[@]}") \
				<"$stdin" >"$dir/run-$k.log" 2>&1 &
			pid=$!
			"$dir/client" >>"$dir/run-$k.log" 2>&1 || true
			kill -INT "$pid" 2>/dev/null || true
			wait "$pid" || true
		else
			(cd "$work" && TSAN_OPTIONS="log_path=$out/$name.tsan.$k" \
				timeout 600 "$dir/$name" "${run[@]}") <"$stdin" >"$dir/run-$k.log" 2>&1 || true
		fi
	done
	# A run without a report writes no log: the count says how many ran.
	echo "$tsan_runs" >"$out/$name.tsan-runs"
}

# analyze NAME ANALYZE-ARGS... -- RUN-ARGS...: the plain run and the
# analysis (measure).
analyze() {
	local name=$1
	shift
	local analyze=() run=()
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		analyze+=("$1")
		shift
	done
	shift
	if [ $# -gt 0 ]; then
		run=(-- "$@")
	fi
	echo "apps.sh: $name: augur run" >&2
	local s e
	s=$(now)
	(cd "$work" && "$augur" run "${analyze[@]}" "${run[@]}") >"$out/$name.run.log" 2>&1 || true
	e=$(now)
	elapsed "$s" "$e" >"$out/$name.run-seconds"
	echo "apps.sh: $name: augur analyze (budget $timeout)" >&2
	s=$(now)
	rm -rf "$out/$name-evidence"
	(cd "$work" && "$augur" analyze --format json -o "$out/$name.json" --timeout "$timeout" \
		--evidence-dir "$out/$name-evidence" "${analyze[@]}" "${run[@]}") >"$out/$name.log" 2>&1 || true
	e=$(now)
	elapsed "$s" "$e" >"$out/$name.seconds"
	# Every harmful race's and failure's evidence must replay.
	replay_evidence "$out/$name-evidence" '*.json' >"$out/$name.replayed"
}

# text BYTES writes BYTES of compressible, deterministic text.
text() { { seq 1 1000000 || :; } | head -c "$1"; }

pbzip2() {
	local p=${src[pbzip2]} b=${src[bzip2]:-}
	if [ -z "$b" ]; then
		echo "apps.sh: pbzip2 needs bzip2=DIR (libbz2's sources)" >&2
		return
	fi
	local inc=$work/pbzip2-include
	mkdir -p "$inc"
	if [ ! -f "$b/bz_version.h" ] && [ -f "$b/bz_version.h.in" ]; then
		sed 's/@BZ_VERSION@/1.1.0/' "$b/bz_version.h.in" >"$inc/bz_version.h"
	fi
	text 200000 >"$work/pbzip2-input.txt"
	# Two blocks of 100 kB (-b1), one per consumer (-p2); runs with
	# preemption at every shared access need more than the default 200
	# million instructions.
	measure pbzip2 "$p/pbzip2.cpp" "$b"/{blocksort,huffman,crctable,randtable,compress,decompress,bzlib}.c \
		-I "$b" -I "$inc" --max-instructions 1000000000 --file "pbzip2-input.txt" \
		-- -k -f -p2 -b1 pbzip2-input.txt
}

ocean() {
	# A 18x18 grid (2^4+2) on two threads.
	measure ocean "${src[ocean]}"/*.c -- -n18 -p2
}

fmm() {
	# 64 particles in two Plummer clusters, two threads, five steps.
	printf 'two cluster\nplummer\n64\n1e-6\n2\n5\n.025\n0.0\ncost zones\n' >"$work/fmm-input"
	measure fmm "${src[fmm]}"/*.c --stdin fmm-input --
}

# memcached: the autoconf results both builds would have on Linux, written
# here (there is no configure run), and a wrapper that renames its main so
# that our client's main runs it beside a client thread.
memcached() {
	local mc=${src[memcached]} le=${src[libevent]:-}
	if [ -z "$le" ]; then
		echo "apps.sh: memcached needs libevent=DIR (libevent 1.4's sources)" >&2
		return
	fi
	local inc=$work/memcached-include
	mkdir -p "$inc"
	cat >"$inc/config.h" <<-'EOF'
		#define HAVE_EPOLL 1
		#define HAVE_POLL 1
		#define HAVE_SELECT 1
		#define HAVE_FCNTL_H 1
		#define HAVE_SETFD 1
		#define HAVE_SIGACTION 1
		#define HAVE_SIGIGNORE 1
		#define HAVE_STDARG_H 1
		#define HAVE_STDLIB_H 1
		#define HAVE_STRTOLL 1
		#define HAVE_SYS_IOCTL_H 1
		#define HAVE_SYS_SELECT_H 1
		#define HAVE_SYS_SOCKET_H 1
		#define HAVE_SYS_TIME_H 1
		#define HAVE_UNISTD_H 1
		#define HAVE_VASPRINTF 1
		#define HAVE_GETTIMEOFDAY 1
		#define HAVE_CLOCK_GETTIME 1
		#define HAVE_MLOCKALL 1
		#define HAVE_GCC_ATOMICS 1
		#define ENDIAN_LITTLE 1
		#define VERSION "1.4.5"
		#define PACKAGE "memcached"
		#include <stdbool.h>
		#include <inttypes.h>
	EOF
	cat >"$inc/event-config.h" <<-'EOF'
		#define _EVENT_HAVE_FD_MASK 1
		#define _EVENT_HAVE_GETEGID 1
		#define _EVENT_HAVE_GETEUID 1
		#define _EVENT_HAVE_GETTIMEOFDAY 1
		#define _EVENT_HAVE_INTTYPES_H 1
		#define _EVENT_HAVE_STDINT_H 1
		#define _EVENT_HAVE_SYS_TIME_H 1
		#define _EVENT_HAVE_SYS_TYPES_H 1
		#define _EVENT_HAVE_TIMERADD 1
		#define _EVENT_HAVE_TIMERCLEAR 1
		#define _EVENT_HAVE_TIMERISSET 1
		#define _EVENT_HAVE_UINT8_T 1
		#define _EVENT_HAVE_UINT16_T 1
		#define _EVENT_HAVE_UINT32_T 1
		#define _EVENT_HAVE_UINT64_T 1
		#define _EVENT_SIZEOF_INT 4
		#define _EVENT_SIZEOF_LONG 8
		#define _EVENT_SIZEOF_LONG_LONG 8
		#define _EVENT_SIZEOF_SHORT 2
	EOF
	# The server runs unmodified, with two worker threads, TCP only, on
	# the loopback (-u root: memcached refuses to run as root without it);
	# our client program talks to it and its exit ends the run.
	measure memcached "$mc/memcached.c" \
		"$le"/{event,buffer,evbuffer,log,evutil,epoll,poll,select,signal}.c \
		"$mc"/{assoc,cache,daemon,hash,items,slabs,stats,thread,util}.c \
		--client "$root/scripts/apps/memcached_client.c" --argv0 memcached \
		-D _GNU_SOURCE -D HAVE_CONFIG_H -I "$inc" -I "$le" -I "$le/compat" -I "$mc" \
		-- -p 11311 -U 0 -t 2 -l 127.0.0.1 -u root
}

# sqlite: the amalgamation as its own build compiles it on Linux
# (threadsafe, no extension loading: the sandbox has no dlopen), driven by
# two threads that insert into one database file over two connections.
sqlite() {
	local s=${src[sqlite]}
	measure sqlite "$root/scripts/apps/sqlite_driver.c" "$s/sqlite3.c" -I "$s" \
		-D _GNU_SOURCE -D SQLITE_THREADSAFE=1 -D SQLITE_OMIT_LOAD_EXTENSION -- driver.db 4
}

# ctrace and bbuf: the versions in SCTBench's repository
# (mc-imperial/sctbench, benchmarks/inspect_examples), one file each.
ctrace() {
	# ctrace's library and its test driver in one file; the argument's
	# first character decides whether the second thread ends tracing too
	# ('b'), and `2` is the suite's: only the first does.
	measure ctrace "${src[ctrace]}/ctrace-test.c" -- 2
}

bbuf() {
	# Its main is `int main(int, char *)`, which gcc accepts and clang
	# refuses in a hosted build; freestanding, main is an ordinary
	# function. One producer and one consumer, ten items each.
	measure bbuf "${src[bbuf]}/bbuf.c" --cflag=-ffreestanding --
}

for name in pbzip2 ocean fmm memcached sqlite ctrace bbuf; do
	if [ -n "${src[$name]:-}" ]; then
		$name
	fi
done
for name in "${!src[@]}"; do
	case $name in
	pbzip2 | bzip2 | ocean | fmm | memcached | libevent | sqlite | ctrace | bbuf) ;;
	*) echo "apps.sh: $name: no recipe yet (docs/apps.md)" >&2 ;;
	esac
done
(cd "$root" && go run ./scripts/apptable "$out")
