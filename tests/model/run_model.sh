#!/usr/bin/env bash
# Model check of the catalogd HA designation protocol (catalogd_ha.pml,
# docs/ARCHITECTURE.md): the protocol must pass every check, and the old protocol
# (-DOLD_PROTOCOL) must fail, so that the checks are known not to be blind.
#
#   tests/model/run_model.sh [--deep]
#
# --deep adds the liveness check from a cold start with one fault (about
# 40 s more). Prints one line per check and a summary; exits 1 on any
# unexpected verdict, 2 if spin or a C compiler is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
model="$here/catalogd_ha.pml"
deep=0
for a in "$@"; do
  case "$a" in
    --deep) deep=1 ;;
    *) echo "usage: $0 [--deep]" >&2; exit 2 ;;
  esac
done

if ! command -v spin >/dev/null 2>&1; then
  echo "ha_model_check: FAILED: spin is not installed (Debian package 'spin'; scripts/setup.sh installs it)" >&2
  exit 2
fi
CC="${CC:-cc}"
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "ha_model_check: FAILED: no C compiler ($CC) to build the verifier" >&2
  exit 2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/ha_model.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/"
cd "$work"

# Memory bound for each verifier run (MiB): the checks need well under 1 GiB.
memlim=2048
total_states=0
failures=0
start_all=$(date +%s.%N)

# check NAME EXPECT MODE DEFINES...
#   EXPECT: pass | fail;  MODE: safety | liveness
check() {
  local name="$1" expect="$2" mode="$3"
  shift 3
  local defs=("$@")
  rm -f pan pan.* ./*.trail
  if ! spin "${defs[@]}" -a catalogd_ha.pml >spin.out 2>&1; then
    echo "  $name: FAILED: spin could not generate the verifier"; cat spin.out; failures=$((failures + 1)); return
  fi
  local cflags=(-O2 "-DMEMLIM=$memlim")
  local run=(./pan -m400000)
  if [ "$mode" = safety ]; then
    cflags+=(-DSAFETY -DNOCLAIM)
  else
    cflags+=(-DNFAIR=3)
    run+=(-a -f)
  fi
  if ! "$CC" "${cflags[@]}" -o pan pan.c >cc.out 2>&1; then
    echo "  $name: FAILED: the verifier did not compile"; cat cc.out; failures=$((failures + 1)); return
  fi
  local t0 t1 out
  t0=$(date +%s.%N)
  out="$("${run[@]}" 2>&1 || true)"
  t1=$(date +%s.%N)
  local errors states depth secs
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' <<<"$out" | head -1)
  states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' <<<"$out" | head -1)
  depth=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' <<<"$out" | head -1)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  states=$(awk -v s="${states:-0}" 'BEGIN { printf "%d", s }')
  total_states=$((total_states + states))
  local incomplete=""
  if grep -q "max search depth too small\|out of memory\|pan: reached -DMEMLIM" <<<"$out"; then
    incomplete="search incomplete"
  fi
  local verdict what
  if [ -z "$errors" ]; then
    verdict=error; what="no verdict"
  elif [ "$errors" = 0 ] && [ -z "$incomplete" ]; then
    verdict=pass; what="no violation"
  elif [ "$errors" != 0 ]; then
    verdict=fail; what=$(grep -m1 "assertion violated\|acceptance cycle\|invalid end state" <<<"$out" | sed 's/^pan:[0-9]*: *//')
  else
    verdict=error; what="$incomplete"
  fi
  local line="  $name: $what; $states states, depth $depth, ${secs}s"
  if [ "$verdict" = "$expect" ]; then
    echo "$line (expected)"
    if [ "$verdict" = fail ]; then
      # The counterexample, as the model's event lines.
      spin "${defs[@]}" -t catalogd_ha.pml 2>/dev/null |
        sed -n 's/^ *\(FAULT: .*\|statestored .*\|catalogd .*\|no more faults\|<<<<<START OF CYCLE>>>>>\)$/\1/p' |
        sed 's/<<<<<START OF CYCLE>>>>>/-- from here for ever --/' | paste -sd ';' - | sed 's/;/; /g; s/^/      trace: /'
    fi
  else
    echo "$line: UNEXPECTED (expected $expect)"
    grep -v "^\s*$" <<<"$out" | head -30 | sed 's/^/      /'
    failures=$((failures + 1))
  fi
}

echo "ha_model_check: $(spin -V | head -1)"
echo "the protocol (must pass):"
check "safety, steady state, 2 faults" pass safety -DMAXF=2
check "liveness, steady state, 2 faults" pass liveness -DMAXF=2
check "safety, cold start, 1 fault" pass safety -DMAXF=1 -DCOLD_START
check "liveness, cold start, no fault" pass liveness -DMAXF=0 -DCOLD_START
if [ "$deep" = 1 ]; then
  check "liveness, cold start, 1 fault" pass liveness -DMAXF=1 -DCOLD_START
fi
echo "the old protocol (must fail):"
check "old: safety" fail safety -DMAXF=2 -DOLD_PROTOCOL
check "old: liveness" fail liveness -DMAXF=2 -DOLD_PROTOCOL -DLIVENESS_ONLY
check "old: liveness, a cancelled takeover kept its epoch" fail liveness -DMAXF=2 -DOLD_PROTOCOL -DLIVENESS_ONLY -DFIELD_TRACE

elapsed=$(awk -v a="$start_all" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ "$failures" = 0 ]; then
  echo "ha_model_check: OK ($total_states states explored in ${elapsed}s)"
  exit 0
fi
echo "ha_model_check: FAILED ($failures unexpected verdicts; $total_states states explored in ${elapsed}s)"
exit 1
