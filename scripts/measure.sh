# Helpers that scripts/apps.sh and scripts/sctbench.sh source: timing, and
# replaying the evidence an analysis wrote. They run $augur, which the
# sourcing script sets.

# now prints the time in seconds with nanoseconds; elapsed START END the
# seconds between two of them.
now() { date +%s.%N; }
elapsed() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.3f\n", e - s }'; }

# replay_evidence DIR GLOB replays each evidence file DIR/GLOB with
# `augur replay`, writing what it printed to FILE.replay, and prints how
# many reproduced and how many there were. A failure's NAME-inputs.json
# (its inputs for `augur run --inputs`) is not evidence and is skipped.
replay_evidence() {
	local ok=0 all=0 ev
	for ev in "$1"/$2; do # GLOB unquoted: expanded here
		case $ev in *-inputs.json) continue ;; esac
		[ -e "$ev" ] || continue
		all=$((all + 1))
		if "$augur" replay "$ev" >"$ev.replay" 2>&1; then
			ok=$((ok + 1))
		fi
	done
	echo "$ok $all"
}
