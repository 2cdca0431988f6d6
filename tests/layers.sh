#!/bin/sh
# tests/layers.sh -- the source folders are layers, and each may use only
# the ones below it (docs/ARCHITECTURE.md, "Layers"):
#
#   util     shared pieces: containers, checks, float semantics, the
#            address map, status texts                 (nothing)
#   ptx      the front end: knows no machine           util
#   mem      memory components                          util
#   exec     the functional core: no cycles, no API     ptx mem util
#   config   the option table (lockstep_config)         mem util
#   timing   the cycle-level model: no API              exec ptx mem config util
#   rel      fault injection: observers at the seams    timing exec ptx mem config util
#   core     the public API's implementation            all of the above
#   cudart   the CUDA runtime: the public API, the one internal
#            interface core/device_int.h, and util
#   litmus   litmus tests: a client of the public API   util
#   campaign the campaign runner: job list, process
#            pool, SQLite store, statistics             util
#   cli      the lockstep command: the public API       litmus campaign util
#
# Every layer may include the public header lockstep.h for its types; only
# config and core define or call lockstep_* functions (cudart, litmus and
# cli call them).  Prints each violation with file:line; exits non-zero if any.
cd "$(dirname "$0")/.." || exit 2
bad=0
allowed() {
    case $1 in
    util) echo "util" ;;
    ptx) echo "ptx util" ;;
    mem) echo "mem util" ;;
    exec) echo "exec ptx mem util" ;;
    config) echo "config mem util" ;;
    timing) echo "timing exec ptx mem config util" ;;
    rel) echo "rel timing exec ptx mem config util" ;;
    core) echo "core rel timing exec ptx mem config util" ;;
    cudart) echo "cudart core/device_int.h util" ;;
    litmus) echo "litmus util" ;;
    campaign) echo "campaign util" ;;
    cli) echo "cli litmus campaign util" ;;
    esac
}
for dir in src/*/; do
    layer=$(basename "$dir")
    ok=$(allowed "$layer")
    if [ -z "$ok" ]; then
        echo "$dir: a folder tests/layers.sh does not know: give it a place among the layers"
        bad=1
        continue
    fi
    for f in "$dir"*.c "$dir"*.h; do
        [ -f "$f" ] || continue
        # project includes: "folder/file.h"
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$f" | while IFS= read -r line; do
            n=${line%%:*}
            inc=$(printf '%s\n' "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
            top=${inc%%/*}
            hit=0
            for a in $ok; do
                [ "$a" = "$top" ] || [ "$a" = "$inc" ] && hit=1
            done
            if [ $hit = 0 ]; then
                echo "$f:$n: the $layer layer includes $inc (it may use: $ok)"
                echo x >>"${TMPDIR:-/tmp}/layers.$$"
            fi
        done
        # calls into the public API from below it
        case $layer in util | ptx | mem | exec | timing | rel)
            grep -n 'lockstep_[a-z_0-9]*[[:space:]]*(' "$f" | grep -v '^[0-9]*:[[:space:]]*\*' |
                grep -v '^[0-9]*:[[:space:]]*/[*/]' | while IFS= read -r line; do
                echo "$f:${line%%:*}: the $layer layer calls the public API: ${line#*:}"
                echo x >>"${TMPDIR:-/tmp}/layers.$$"
            done ;;
        esac
    done
done
if [ -s "${TMPDIR:-/tmp}/layers.$$" ]; then
    rm -f "${TMPDIR:-/tmp}/layers.$$"
    exit 1
fi
rm -f "${TMPDIR:-/tmp}/layers.$$"
[ $bad = 0 ] || exit 1
echo "every layer uses only the layers below it"
