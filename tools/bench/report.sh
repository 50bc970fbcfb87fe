#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Plots of build/bench/bench.csv (written by tools/bench/bench.c, which
# also writes the summary, summary.txt): PNG (gnuplot) of throughput vs
# block size per (k,m), hot and cold, every implementation but the limit
# loops.  Output: <outdir>/*.png.
#
# Usage: tools/bench/report.sh [outdir]
set -euo pipefail

out=${1:-build/bench}
csv=$out/bench.csv
[ -f "$csv" ] || { echo "report: no $csv" >&2; exit 1; }

# The summary (targets, limits, spreads, ratios) is the bench's own
# build/bench/summary.txt; here only the plots.
[ -f "$out/summary.txt" ] && echo "report: summary in $out/summary.txt"

# Plots: GB/s vs block size per (k,m), hot and cold side by side.
command -v gnuplot >/dev/null || { echo "report: no gnuplot, no plots" >&2; exit 0; }
dat=$out/plot
rm -rf "$dat" && mkdir -p "$dat"
awk -F, -v d="$dat" 'NR > 1 && $1 == "encode" && $8 != "limit" {
	name = $7; gsub(/[^A-Za-z0-9]+/, "_", name)
	f = d "/" $2 "_" $3 "_" $6 "_" name ".dat"
	print $5 / 1024, $9 >> f
	titles[f] = $7
} END { for (f in titles) print f "\t" titles[f] > (d "/titles") }' "$csv"
for km in $(ls "$dat" | sed -n 's/^\([0-9]*_[0-9]*\)_.*\.dat$/\1/p' | sort -u); do
	k=${km%_*}; m=${km#*_}
	{
		echo "set terminal png size 1200,500 noenhanced"
		echo "set output '$out/encode_k${k}_m${m}.png'"
		echo "set multiplot layout 1,2 title 'RS($k,$m) encode, GB/s of data, 1 core'"
		echo "set logscale x 2; set xlabel 'block (KiB)'; set ylabel 'GB/s'"
		echo "set key left bottom font ',8'; set grid"
		for cache in hot cold; do
			echo "set title '$cache'"
			plots=()
			while IFS=$'\t' read -r f t; do
				case "$f" in */${k}_${m}_${cache}_*) ;; *) continue ;; esac
				plots+=("'$f' using 1:2 with linespoints title '$t'")
			done < <(sort -k2 "$dat/titles")
			(IFS=,; echo "plot ${plots[*]}")
		done
		echo "unset multiplot"
	} > "$dat/k${k}_m${m}.gp"
	gnuplot "$dat/k${k}_m${m}.gp"
done
echo "report: plots in $out/encode_k*_m*.png"
