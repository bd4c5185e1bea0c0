# SPDX-License-Identifier: GPL-2.0-only
# Plot of tests/bench/bench_cachefs.sh's results (its .tsv: three blocks,
# warm reads in MB/s, metadata in ops/s, slow source cold/warm in MB/s).
#   gnuplot -e "data='X.tsv'; out='X.png'; delay='2000'" bench_cachefs.gp
if (!exists("data")) data = 'bench_cachefs.tsv'
if (!exists("out")) out = 'bench_cachefs.png'
if (!exists("delay")) delay = '?'

set terminal pngcairo size 1500,560 font 'sans,11'
set output out
set datafile missing '-'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key below Left reverse samplen 2
set bmargin 8
set yrange [0:*]
set xtics nomirror
set multiplot layout 1,3 title 'kmirror-cachefs vs its anchors, same local source, one run (best of 5)'

set title 'warm reads (MB/s)'
set ylabel 'MB/s'
plot data index 0 using 2:xtic(1) title 'kmirror-cachefs' lc rgb '#1f77b4', \
     '' index 0 using 3 title 'passthrough\_ll' lc rgb '#7f7f7f', \
     '' index 0 using 4 title 'passthrough\_ll, malloc tuned' lc rgb '#bcbd22', \
     '' index 0 using 5 title 'rclone vfs full' lc rgb '#ff7f0e'

set title 'metadata, attr/entry timeout 0 (per second, log scale)'
set ylabel 'stat calls / readdir entries per second'
set logscale y
set yrange [1000:*]
plot data index 1 using 2:xtic(1) title 'kmirror-cachefs' lc rgb '#1f77b4', \
     '' index 1 using 3 title 'passthrough\_ll' lc rgb '#7f7f7f'

set title sprintf('slow source (source\_delay\_us=%s), sequential (MB/s)', delay)
set ylabel 'MB/s'
unset logscale y
set yrange [0:*]
set style histogram clustered gap 1
plot data index 2 using 2:xtic(1) title 'kmirror-cachefs' lc rgb '#1f77b4'

unset multiplot
