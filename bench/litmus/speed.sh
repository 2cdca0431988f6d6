#!/bin/sh
# bench/litmus/speed.sh -- litmus harness throughput: test instances per host
# second on one thread, for a two-thread test (MP) and IRIW, with each
# incantation, on the GTX 480 configuration.  Results go in docs/PERFORMANCE.md.
#   sh bench/litmus/speed.sh [ITERATIONS]
cd "$(dirname "$0")/../.." || exit 1
n=${1:-50}
for t in MP SB IRIW; do
    for inc in none bank stress random sync all; do
        build/lockstep litmus --json -n "$n" --config configs/gtx480.config --incantations "$inc" \
            "litmus/$t.litmus" |
            python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print('%-5s %-7s %9d instances %7.2f s %9.0f instances/s %6.0f per launch' % ('$t', '$inc', d['instances'], d['seconds'], d['instances']/d['seconds'], d['instances_per_launch']))"
    done
done
