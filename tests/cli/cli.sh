#!/bin/sh
# cli.sh -- the `lockstep` command: help, version, usage errors, and
# `ptx check` on good and bad files (exit status and output).
# Run by tests/run.sh with LOCKSTEP set to the binary.
set -u
L=${LOCKSTEP:-build/lockstep}
fails=0
check() { # description, expected status, command...
    desc=$1; want=$2; shift 2
    out=$("$@" 2>&1); got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $desc: exit $got, expected $want"; echo "$out" | head -5
        fails=$((fails + 1))
    fi
    LAST=$out
}
contains() { # description, text
    case "$LAST" in *"$2"*) ;; *) echo "FAIL: $1: output lacks '$2'"; echo "$LAST" | head -5; fails=$((fails + 1)) ;; esac
}
check "--help" 0 "$L" --help;               contains "--help" "ptx"
check "no arguments" 2 "$L"
check "unknown command" 2 "$L" frobnicate;   contains "unknown command" "not a command"
check "version" 0 "$L" version;              contains "version" "lockstep 0."
check "--version" 0 "$L" --version
check "version extra arg" 2 "$L" version x
check "ptx --help" 0 "$L" ptx --help;        contains "ptx --help" "ptx check"
check "ptx without files" 2 "$L" ptx check
check "ptx bad subcommand" 2 "$L" ptx frob
check "ptx check good" 0 "$L" ptx check examples/saxpy.ptx
contains "kernel list" "kernel saxpy"
contains "params" "params    4 (24 bytes): 0:4 4:4 8:8 16:8"
contains "shared" "shared    2048 bytes static"
check "ptx check bad" 1 "$L" ptx check tests/ptx/bad/08-unknown-instruction.ptx
contains "bad file location" "08-unknown-instruction.ptx:8:2: error: unknown instruction 'frob'"
check "ptx check mixed" 1 "$L" ptx check examples/saxpy.ptx tests/ptx/bad/10-unknown-register.ptx
contains "mixed good" "examples/saxpy.ptx: ok"
check "ptx check missing file" 1 "$L" ptx check /nonexistent.ptx
contains "missing file" "cannot open"
check "ptx check every committed PTX file" 0 "$L" ptx check --quiet examples/*.ptx \
    tests/e2e/kernels/*.ptx tests/ptx/good/*.ptx bench/functional/*.ptx tests/conformance/conf.ptx
contains "conformance module" "conf.ptx: ok, 924 kernels"
# lockstep run: usage errors, exit status passthrough, option checking
check "run without a program" 2 "$L" run
contains "run without a program" "no program given"
check "run --help" 0 "$L" run --help
contains "run --help" "--stats-json FILE"
check "run unknown option" 2 "$L" run --frobnicate -- /bin/true
contains "run unknown option" "unknown option '--frobnicate'"
check "run missing program" 127 "$L" run -- /nonexistent/program
contains "run missing program" "not found or not executable"
check "run a non-CUDA program" 0 "$L" run --no-stats -- /bin/true
contains "run a non-CUDA program" "does not use the CUDA runtime"
check "run passes the exit status" 1 "$L" run --no-stats -- /bin/false
check "run passes arguments" 7 "$L" run --no-stats -- /bin/sh -c 'exit 7'
check "run bad config file" 2 "$L" run --config /nonexistent.config -- /bin/true
contains "run bad config file" "/nonexistent.config: cannot open"
check "run bad option" 2 "$L" run -O "-gpgpu_n_clusters zero" -- /bin/true
contains "run bad option" "bad value 'zero'"
check "run unknown config option" 2 "$L" run -O "-no_such_option 1" -- /bin/true
contains "run unknown config option" "unknown option '-no_such_option'"

if [ "$fails" -ne 0 ]; then echo "$fails CLI checks failed"; exit 1; fi
echo "ok: all CLI checks"
