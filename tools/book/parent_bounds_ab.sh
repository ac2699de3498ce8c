#!/usr/bin/env bash
# Usage: tools/book/parent_bounds_ab.sh PLY (a release build of ply); run from the repository.
# A/B: a build of one position three moves into 3×4 boxes, into a copy of the shipped 3×4 book (its
# parents there) and into an empty book; one thread; nodes and seconds of each entry.
P=$1
for m in "1-2 3-8 5-10" "1-2 2-3 8-13" "2-7 4-5 12-17" "1-6 8-9 14-19" "3-4 7-12 16-17" "1-2 9-10 12-13" "2-3 6-11 18-19" "4-9 11-12 13-14"; do
  rm -f /tmp/ab-with.plybook* /tmp/ab-without.plybook*
  cp crates/plysolve/books/boxes-3x4.plybook /tmp/ab-with.plybook
  for b in with without; do
    RAYON_NUM_THREADS=1 $P dots book build /tmp/ab-$b.plybook boxes --rows 3 --cols 4 --moves "$m" --depth 0 >/dev/null 2>&1
    $P dots book export /tmp/ab-$b.plybook | python3 -c "
import json,sys
for l in sys.stdin:
    d=json.loads(l)
    if d['position']=='$m' or d['free']==28: print('$m', '$b', d['lower'], d['nodes'], round(d['seconds'],2))" | head -1
  done
done
