# SPDX-License-Identifier: GPL-2.0-only
# The scale-index measurements of docs/benchmarks.md, drawn:
#   gnuplot docs/img/scale-index.gp   (from the top of the tree)
# Times and memory against the number of objects, both axes logarithmic,
# with the goals (1 s for 1M, 10 s for 10M; 64 bytes an object) as lines.
data = 'docs/img/scale-index.tsv'
set terminal pngcairo size 1200,460 font 'sans,11'
set output 'docs/img/scale-index.png'
set datafile missing '-'
set logscale xy
set grid
set key top left Left reverse
set xlabel 'objects in the cache'
set xrange [50000:20000000]
set multiplot layout 1,2 title 'kmirror-cachefs index at scale (one volume, 8-byte keys)'

set title 'mount time'
set ylabel 's'
plot data using 1:4 with linespoints lw 2 pt 7 title 'before: the mount scanned', \
     '' using 1:3 with linespoints lw 2 pt 5 title 'background scan (mount serves at once)', \
     '' using 1:2 with linespoints lw 2 pt 9 title 'mount from the index file', \
     x / 1e6 with lines dt 2 lc rgb 'black' title 'goal: 1 s per million'

set title 'daemon memory over the empty cache'
set ylabel 'MB'
plot data using 1:6 with linespoints lw 2 pt 7 title 'before (about 144 B/object)', \
     '' using 1:5 with linespoints lw 2 pt 9 title 'now (56 B/object)', \
     x * 64 / 1e6 with lines dt 2 lc rgb 'black' title 'goal: 64 B/object'
unset multiplot
