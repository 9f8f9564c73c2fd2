#!/usr/bin/env bash
# No exec client outlives slidecheck, and an exec run's ends are tidy: a client busy in a
# child process when slidecheck gets SIGINT or SIGKILL leaves no process behind; a grandchild
# that leaves the client's session with setsid is killed when the run completes; SIGINT says
# what was kept and how to resume; SIGINT and SIGTERM leave no temporary scene folder; a refused
# describe leaves no stderr log; a chatty client's stderr log stops at its cap.
# Usage: exec_lifetime.sh SLIDECHECK SOURCE_DIR WORK_DIR
set -euo pipefail
slidecheck=$1 src=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
corpus=$src/corpora/builtin
marker="60$$.5"  # a sleep length no other process uses: finds this test's processes in /proc

# client FILE BODY: a client that describes itself and runs BODY (shell) for each query.
client() {
  cat >"$1" <<EOS
while read l; do
  case "\$l" in
    *describe*) echo '{"format":"slidecheck-exec 1","implementation":"sleepy","precisions":["float"],"tolerances":{}}' ;;
    *) $2 ;;
  esac
done
EOS
}
# Processes whose command line holds the marker (this test's sleeps), by pid.
# (The pattern [.] keeps grep's own command line from matching.)
left() { grep -l -a -- "${marker/./[.]}" /proc/[0-9]*/cmdline 2>/dev/null | cut -d/ -f3 || true; }
# none_left WHAT: fails when a marked process is still there after 3 s.
none_left() {
  for _ in $(seq 1 300); do
    [ -z "$(left)" ] && return 0
    sleep 0.01
  done
  local pids; pids=$(left)
  kill -KILL $pids 2>/dev/null || true
  fail "$1: processes of the client outlived slidecheck: $pids"
}
wait_for_client() {
  for _ in $(seq 1 1000); do
    [ -n "$(left)" ] && return 0
    sleep 0.01
  done
  fail "the client never started its sleep"
}

# 1. A client busy in a child (sleep) when slidecheck is interrupted or killed.
client "$work/busy.sh" "sleep $marker"
set -m  # background jobs get SIGINT (without job control they ignore it)
for sig in INT TERM KILL; do
  # The run's temporary folder for the exec scenes goes to a TMPDIR of its own, to be found.
  tmp=$work/tmp-$sig
  mkdir -p "$tmp"
  TMPDIR=$tmp "$slidecheck" verify --corpus "$corpus" --implementation "exec:sh $work/busy.sh" \
    --out "$work/busy-$sig" --threads 1 --quiet --no-views >/dev/null 2>"$work/busy-$sig.err" &
  pid=$!
  wait_for_client
  # A file in it, as a transformed scene would be: the folder is removed with its files.
  scenes=$(echo "$tmp"/slidecheck-exec-*)
  [ -d "$scenes" ] || fail "SIG$sig: no temporary scene folder in $tmp"
  echo scene >"$scenes/written.scene"
  kill -"$sig" "$pid"
  wait "$pid" 2>/dev/null && fail "slidecheck ended normally after SIG$sig" || true
  none_left "SIG$sig"
  if [ "$sig" != KILL ]; then
    grep -q "^slidecheck: interrupted: 0 of 6 tasks kept in $work/busy-$sig; resume with the same command and --resume$" \
      "$work/busy-$sig.err" || fail "SIG$sig: no line saying what was kept: $(cat "$work/busy-$sig.err")"
    [ -z "$(ls -A "$tmp")" ] || fail "SIG$sig: the temporary scene folder outlived slidecheck: $(ls -A "$tmp")"
    echo "SIG$sig: no client process left, no temporary folder left"
  else
    echo "SIG$sig: no client process left"
  fi
done
# eps-sweep names the cells it kept.
sed 's/"tolerances":{}/"tolerances":{"skin":0.001}/' "$work/busy.sh" >"$work/busy-skin.sh"
"$slidecheck" eps-sweep --corpus "$corpus" --implementation "exec:sh $work/busy-skin.sh" --out "$work/sweep" \
  --threads 1 --quiet --no-views >/dev/null 2>"$work/sweep.err" &
pid=$!
wait_for_client
kill -INT "$pid"
wait "$pid" 2>/dev/null && fail "eps-sweep ended normally after SIGINT" || true
none_left "eps-sweep SIGINT"
grep -q "^slidecheck: interrupted: 0 of [0-9]* cells kept in $work/sweep; resume with the same command and --resume$" \
  "$work/sweep.err" || fail "eps-sweep SIGINT: no line saying what was kept: $(cat "$work/sweep.err")"
echo "eps-sweep SIGINT: no client process left, the kept cells named"
set +m

# 2. A grandchild that calls setsid survives neither the client nor a completed run.
client "$work/escape.sh" "setsid sleep $marker </dev/null >/dev/null 2>&1 & echo '{\"error\":\"no\"}'"
"$slidecheck" verify --corpus "$corpus" --implementation "exec:sh $work/escape.sh" --out "$work/escape" \
  --threads 1 --quiet --no-views >/dev/null 2>&1 || [ $? -eq 1 ] || fail "the run with setsid grandchildren"
none_left "setsid grandchildren after a completed run"
echo "setsid grandchildren: none left"

# 3. A refused describe leaves nothing in the output folder, though the client wrote stderr.
cat >"$work/refused.sh" <<'EOS'
read l; echo 'describing badly' >&2; echo 'not json'
EOS
status=0
"$slidecheck" verify --corpus "$corpus" --implementation "exec:sh $work/refused.sh" --out "$work/refused" \
  --quiet >/dev/null 2>"$work/refused.err" || status=$?
[ "$status" -eq 2 ] || fail "a refused describe exits $status, not 2"
[ -z "$(ls -A "$work/refused" 2>/dev/null)" ] || fail "a refused run left $(ls "$work/refused") in its output folder"
echo "refused describe: nothing left in the output folder"

# 4. The stderr log stops at its cap (16 MiB per run) with one line saying so.
client "$work/chatty.sh" "head -c 6000000 /dev/zero | tr '\\0' x >&2; echo '{\"error\":\"no\"}'"
"$slidecheck" verify --corpus "$corpus" --implementation "exec:sh $work/chatty.sh" --out "$work/chatty" \
  --threads 1 --quiet --no-views >/dev/null 2>&1 || [ $? -eq 1 ] || fail "the run with a chatty client"
size=$(stat -c %s "$work/chatty/exec-stderr.log")
[ "$size" -le $((16 * 1024 * 1024 + 200)) ] || fail "the stderr log holds $size bytes, past its cap"
[ "$size" -ge $((16 * 1024 * 1024)) ] || fail "the stderr log holds only $size bytes of 36,000,000 written"
tail -n 1 "$work/chatty/exec-stderr.log" | grep -q "the rest of the processes' stderr is dropped" ||
  fail "the stderr log does not say that the rest was dropped"
echo "stderr log: capped at $size bytes"
echo ok
