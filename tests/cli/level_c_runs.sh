#!/usr/bin/env bash
# Level C runs seen from outside (docs/level-c.md, "Processes, diagnostics and progress"): CORE's
# children (verify/src/level_c/forked_budget.cpp) never outlive slidecheck and keep their
# deadline when nobody can kill them, CORE's diagnostics never land in the working directory,
# and progress shows while a single task computes.
#   sigkill, sigterm  verify --level-c killed while a CORE child computes: no process of its
#                     process group is left
#   stopped           verify stopped (SIGSTOP) while a child computes: the child ends by itself
#                     at its --exact-timeout
#   diagnostics       a level C run from an empty working directory leaves it empty; CORE's
#                     warnings are in the run's folder
#   progress          one task of at least 2 s (4 decisions over a 0.5 s budget, each waited out)
#                     shows whole progress lines while it runs, then the rate; after two quick
#                     tasks, the lines say how long none has finished
# The query is fauerby's trough-settle of corpora/builtin, whose deep ties CORE does not settle
# (--no-field-stage --no-identity-stage: the quadratic-field and identity stages settle them in
# milliseconds, and CORE never runs).
# Usage: level_c_runs.sh SLIDECHECK SOURCE_DIR WORK_DIR SCENARIO
set -euo pipefail
slidecheck=$1 source=$2 work=$3 scenario=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/cwd"
cp "$source"/corpora/builtin/*.scene "$work/"
grep '"id":"trough-settle"' "$source/corpora/builtin/queries.jsonl" >"$work/trough.jsonl"
[ -s "$work/trough.jsonl" ] || fail "no trough-settle query in corpora/builtin"

# Live (not zombie) processes whose process group is $1, one pid a line.
group_members() {
  local group=$1 stat rest
  for stat in /proc/[0-9]*/stat; do
    rest=$(cat "$stat" 2>/dev/null) || continue
    rest=${rest##*) }  # after the command name: state ppid pgrp ...
    read -r state _ pgrp _ <<<"$rest"
    [ "$pgrp" = "$group" ] && [ "$state" != Z ] && basename "$(dirname "$stat")"
  done
  return 0
}

# Seconds process $1 has lived (from /proc: its start time in clock ticks since boot).
age_of() {
  local stat fields
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
  read -r -a fields <<<"${stat##*) }"
  awk -v start="${fields[19]}" -v hz="$(getconf CLK_TCK)" '{ printf "%d", $1 - start / hz }' /proc/uptime
}

# Starts verify --level-c in a process group of its own (setsid: its pid is the group id) and
# waits until one of its CORE children has lived for 5 s (most zero tests end in milliseconds;
# one that lasts that long is a deep tie, which takes CORE minutes). Sets $leader, $child.
start_with_child() {
  local timeout=$1
  (cd "$work/cwd" && exec setsid "$slidecheck" verify --corpus "$work/trough.jsonl" --algorithm fauerby \
    --precision float --level-c --no-field-stage --no-identity-stage --exact-timeout "$timeout" --threads 1 --no-views --quiet --out "$work/out") \
    >"$work/verify.log" 2>&1 &
  leader=$!
  for _ in $(seq 1 6000); do
    kill -0 "$leader" 2>/dev/null || fail "verify ended before a CORE child lasted 5 s: $(cat "$work/verify.log")"
    local stat
    # Until the subshell has become setsid and then slidecheck, its group is still ours.
    [ "$(cat "/proc/$leader/comm" 2>/dev/null)" = slidecheck ] || { sleep 0.01; continue; }
    stat=$(cat "/proc/$leader/stat" 2>/dev/null) || continue
    stat=${stat##*) }
    read -r _ _ pgrp _ <<<"$stat"
    [ "$pgrp" = "$leader" ] || fail "verify is not the leader of its process group (setsid forked?)"
    for child in $(group_members "$leader" | grep -vx "$leader" || true); do
      [ "$(age_of "$child")" -ge 5 ] && return 0
    done
    sleep 0.05
  done
  fail "no lasting CORE child appeared"
}

# Waits until no live process of group $1 is left (killed processes vanish at once; the loop
# only absorbs the kernel's bookkeeping), else fails listing them.
expect_group_gone() {
  local group=$1 left=""
  for _ in $(seq 1 100); do
    left=$(group_members "$group")
    [ -z "$left" ] && return 0
    sleep 0.1
  done
  fail "processes of verify's group left after it died: $(echo $left)"
}

case "$scenario" in
sigkill | sigterm)
  signal=${scenario#sig}
  start_with_child 600
  kill -"${signal^^}" "$leader"
  wait "$leader" 2>/dev/null || true
  expect_group_gone "$leader"
  echo "$scenario: verify and its CORE child $child gone"
  ;;
stopped)
  # An 8 s budget: the child's own timer ends it shortly after, with its parent stopped.
  start_with_child 8
  kill -STOP "$leader"
  for _ in $(seq 1 300); do
    [ -n "$(group_members "$leader" | grep -x "$child")" ] || break
    sleep 0.1
  done
  still=$(group_members "$leader" | grep -x "$child" || true)
  kill -KILL "$leader"
  wait "$leader" 2>/dev/null || true
  [ -z "$still" ] || fail "CORE child $child outlived its 8 s budget with verify stopped"
  expect_group_gone "$leader"
  echo "stopped: CORE child $child ended at its deadline with verify stopped"
  ;;
diagnostics)
  (cd "$work/cwd" && "$slidecheck" verify --corpus "$work/trough.jsonl" --algorithm fauerby --precision float \
    --level-c --level-c-exact-ends --no-field-stage --no-identity-stage --exact-timeout 0.5 --threads 2 --no-views --quiet --out "$work/out") >"$work/verify.log" 2>&1 ||
    [ $? -eq 1 ] || fail "verify: $(cat "$work/verify.log")"
  [ -z "$(ls -A "$work/cwd")" ] || fail "the working directory holds $(ls -A "$work/cwd")"
  [ -s "$work/out/Core_Diagnostics" ] || fail "no CORE warnings in the run's folder (has this query stopped making any?)"
  echo "diagnostics: $(wc -l <"$work/out/Core_Diagnostics") CORE warnings in the run's folder, none in the working directory"
  ;;
progress)
  (cd "$work/cwd" && "$slidecheck" verify --corpus "$work/trough.jsonl" --algorithm fauerby --precision float \
    --level-c --no-field-stage --no-identity-stage --exact-timeout 0.5 --threads 1 --no-views --out "$work/out") >/dev/null 2>"$work/err.txt" ||
    [ $? -eq 1 ] || fail "verify: $(cat "$work/err.txt")"
  ! grep -q $'\r' "$work/err.txt" || fail "progress wrote \\r to a file"
  [ "$(grep -c '^verify: 0/1 tasks, 0 failing, [0-9]* s elapsed$' "$work/err.txt")" -ge 2 ] ||
    { cat "$work/err.txt"; fail "fewer than 2 progress lines while the one task ran"; }
  grep -q '^verify: 1/1 tasks, 1 failing, [0-9.e+-]* tasks/s$' "$work/err.txt" || { cat "$work/err.txt"; fail "no final line"; }
  grep -q '^  level C: 1 query, time median .*, p99 .*, max .*; [0-9]* decisions past the double filter' "$work/out/summary.txt" ||
    fail "no level C cost in summary.txt"
  grep -q '"ideal":{.*"decisions":{"filter":[0-9]*,"escalation":[0-9]*,"rational":[0-9]*,"field":[0-9]*,"identity":[0-9]*,"core":[0-9]*,"undecided":[0-9]*,"ties":[0-9]*},"seconds":' \
    "$work/out/records.jsonl" || fail "no level C cost in the record"
  # Two quick tasks, then the long one: the lines say how long none has finished, where the
  # rate of the quick ones alone would promise the end any moment. The line comes once no task
  # has finished for 3 mean task times; a 1.5 s budget (at least 6 s for the long task) keeps
  # that true when a loaded machine or the sanitizers make the quick tasks take most of a second.
  { grep -E '"id":"(floor-drop|obtuse-climb)"' "$source/corpora/builtin/queries.jsonl"; cat "$work/trough.jsonl"; } \
    >"$work/mixed.jsonl"
  (cd "$work/cwd" && "$slidecheck" verify --corpus "$work/mixed.jsonl" --algorithm fauerby --precision float \
    --level-c --no-field-stage --no-identity-stage --exact-timeout 1.5 --threads 1 --no-views --out "$work/mixed") >/dev/null \
    2>"$work/mixed-err.txt" || [ $? -eq 1 ] || fail "verify: $(cat "$work/mixed-err.txt")"
  grep -q '^verify: 2/3 tasks, 0 failing, .* left, none finished for [0-9]* s$' "$work/mixed-err.txt" ||
    { cat "$work/mixed-err.txt"; fail "no line says how long no task has finished"; }
  echo "progress: $(grep -c '^verify:' "$work/err.txt") progress lines for one level C task"
  ;;
*) fail "unknown scenario $scenario" ;;
esac
echo ok
