#!/usr/bin/env bash
# Runs augur's detection, with default settings, on the buggy programs of
# SCTBench (mc-imperial/sctbench) that build from one or two source files,
# and says for each whether it exposed the program's bug (a failure: an
# assert, crash, deadlock or memory error), how long it took, and whether
# `augur replay` reproduces each failure from its evidence. Not part of
# `make test`: the benchmarks are not in this repository. Fetch them, then
#
#   scripts/sctbench.sh [-o OUTDIR] [-t TIMEOUT] BENCHMARKS_DIR
#
# BENCHMARKS_DIR is the repository's benchmarks/ directory. The programs:
# concurrent-software-benchmarks' *_bad and *_sat, chess's four work-
# stealing queues, safestack, inspect_benchmarks/qsort_mt and conc-bugs'
# stringbuffer. A program's arguments are its first line's `args:` with
# {NUMTHREADS} as 2, as SCTBench's runner gives them. Also SPLASH-2's
# fft, lu and barnes (their sources made with m4 from the null macros, as
# SCTBench's makefiles make them; the script needs m4 for them and skips
# them without it) and PARSEC's three streamclusters, with the arguments
# of SCTBench's runners, and conc-bugs' aget, given the two files its
# download reads. ctrace, bbuf and pbzip2 are scripts/apps.sh's;
# radbench (SpiderMonkey, NSPR) and PARSEC's ferret need builds of their
# own and are not run.
#
# OUTDIR (default sctbench-out) gets NAME.json (the report), NAME.log,
# NAME-evidence/ (each replayed: NAME-evidence/*.replay) and summary.txt,
# the table printed at the end: program, seconds, failures, replayed of
# failures with evidence, and the first failure's message.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
augur=${AUGUR:-$root/bin/augur}
out=sctbench-out
timeout=5m
while getopts "o:t:" opt; do
	case $opt in
	o) out=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) sed -n '2,23p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ] || [ ! -d "$1/concurrent-software-benchmarks" ]; then
	sed -n '2,23p' "$0" >&2
	exit 2
fi
bench=$(cd "$1" && pwd)
if [ ! -x "$augur" ]; then
	echo "sctbench.sh: no augur at $augur (make build, or set AUGUR)" >&2
	exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/summary.txt"

# shellcheck source=scripts/measure.sh
. "$root/scripts/measure.sh"

# run NAME DIR FLAGS FILE... runs detection on the files in DIR, with the
# augur flags FLAGS (split at spaces) and the first file's `args:`, and
# replays every failure's evidence.
run() {
	local name=$1 dir=$2 flags=$3
	shift 3
	local args=${ARGS:-}
	if [ -z "$args" ]; then
		args=$(head -1 "$dir/$1" | sed -n 's/.*args: *//p' | sed 's/{NUMTHREADS}/2/g')
	fi
	local s e
	s=$(now)
	rm -rf "$out/$name-evidence"
	# shellcheck disable=SC2086 # flags and args split as SCTBench's runner splits them
	(cd "$dir" && timeout "$timeout" "$augur" analyze --detect-only --format json -o "$out/$name.json" \
		--evidence-dir "$out/$name-evidence" $flags "$@" -- $args) >"$out/$name.log" 2>&1 || true
	e=$(now)
	local ok all
	read -r ok all < <(replay_evidence "$out/$name-evidence" 'failure-*.json')
	local failures first
	failures=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("failures") or []))' "$out/$name.json" 2>/dev/null || echo "-")
	first=$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1])).get("failures") or []; print(f[0]["kind"]+": "+f[0]["message"][:70] if f else "")' "$out/$name.json" 2>/dev/null || echo "no report")
	printf '%-40s %7.1f s  failures %-3s replayed %d of %d  %s\n' "$name" "$(elapsed "$s" "$e")" "$failures" "$ok" "$all" "$first" |
		tee -a "$out/summary.txt"
}

cs=$bench/concurrent-software-benchmarks
for f in "$cs"/*_bad.c "$cs"/*_sat.c; do
	run "$(basename "$f" .c)" "$cs" "" "$(basename "$f")"
done
for q in InterlockedWorkStealQueue InterlockedWorkStealQueueWithState StateWorkStealQueue WorkStealQueue; do
	run "chess-$q" "$bench/chess" "" "$q.cpp"
done
run safestack "$bench/safestack" "" SafeStack.cpp
# SCTBench builds with gcc: qsort_mt has `return;` in a function that
# returns a value, an error to clang unless its warning is off, and calls
# asprintf, which glibc declares under _GNU_SOURCE; stringbuffer's thread
# function falls off its end, which clang's build traps at and gcc's
# does not (docs/cxx.md).
run qsort_mt "$bench/inspect_benchmarks" "--cflag=-Wno-return-type --cflag=-D_GNU_SOURCE" qsort_mt.c
run stringbuffer "$bench/conc-bugs/stringbuffer-jdk1.4" "--cflag=-fno-strict-return" main.cpp stringbuffer.cpp
# aget as SCTBench runs it: its copy "downloads" from files of a recorded
# reply, one per thread, named by the thread's starting offset (its
# socket_m opens them), and its SIGINT handler runs at once in a thread of
# its own. augur gives a program only the files it is told to, so they
# are given; main.c's directory completes the program.
ARGS="-l dl.txt http://www.gnu.org/licenses/gpl.txt" run aget "$bench/conc-bugs/aget-bug2/aget-devel" "--file 0 --file 17573" main.c

# splash NAME DIR: SPLASH-2's sources in DIR made into C with m4 and the
# null macros (SCTBench's own build), in $out/NAME-src. SCTBench built
# them for a 32-bit or non-PIE address space; two adaptations make them
# 64-bit clean, as a position-independent build needs too (natively,
# fft crashes under gcc's default PIE without the second): main's
# `char *argv;` of K&R style becomes `char **argv;` (clang refuses the
# first in a hosted build), and (below) the page alignment of fft's
# arrays casts pointers to `unsigned long` where it cast them to
# `unsigned`, which drops the address's upper half.
splash() {
	local name=$1 dir=$2 m4dir=$bench/splash2/null_macros src=$out/$1-src
	rm -rf "$src"
	mkdir -p "$src"
	local f
	for f in "$dir"/*.C "$dir"/*.H; do
		[ -e "$f" ] || continue
		local base=${f##*/} ext=c
		[ "${base##*.}" = H ] && ext=h
		m4 -s -Ulen -Uindex "$m4dir/c.m4.null" "$f" >"$src/${base%.*}.$ext"
	done
	sed -i 's/^char \*argv;/char **argv;/' "$src"/*.c
	echo "$src"
}

if command -v m4 >/dev/null; then
	# `return;` in functions of implicit int: an error to clang unless its
	# warning is off, as qsort_mt's below.
	s2=$bench/splash2
	src=$(splash fft "$s2/kernels/fft")
	sed -i 's/((unsigned) \(x\|trans\|umain2\))/((unsigned long) \1)/g' "$src/fft.c"
	ARGS="-p2 -m2 -n4 -l4" run splash2-fft "$src" "--cflag=-Wno-return-type" fft.c
	src=$(splash lu "$s2/kernels/lu/non_contiguous_blocks")
	ARGS="-p2 -n2 -b1" run splash2-lu "$src" "--cflag=-Wno-return-type" lu.c
	src=$(splash barnes "$s2/apps/barnes")
	cp "$s2/apps/barnes/input" "$src/input"
	# barnes reads its parameters from standard input; ARGS is empty.
	ARGS=" " run splash2-barnes "$src" "--cflag=-Wno-return-type --stdin input" code.c code_io.c load.c grav.c getparam.c util.c
else
	echo "sctbench.sh: no m4, so SPLASH-2's fft, lu and barnes are not run" >&2
fi
# PARSEC 2.0's streamcluster kernels, each with one of its three missing
# barriers, as SCTBench runs them: the `test` input, two threads.
for k in streamcluster streamcluster2 streamcluster3; do
	ARGS="2 5 1 10 10 5 none output.txt 2" run "parsec-$k" "$bench/parsec-2.0/pkgs/kernels/$k/src" \
		"-D ENABLE_THREADS" streamcluster.cpp parsec_barrier.cpp
done
found=$(awk '$5 != "0" && $5 != "-"' "$out/summary.txt" | wc -l)
echo "sctbench.sh: $found of $(wc -l <"$out/summary.txt") programs exposed a failure ($out/summary.txt)"
