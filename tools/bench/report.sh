#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Summarise build/bench/bench.csv (written by tools/bench/bench.c): ratios
# of ecdma's best algo against every peer, the issue #4 targets, % of the
# memory-bound limit, and PNG plots (gnuplot) of throughput vs block size
# per (k,m).  Output: <outdir>/summary.txt (also printed), <outdir>/*.png.
#
# Usage: tools/bench/report.sh [outdir]
set -euo pipefail

out=${1:-build/bench}
csv=$out/bench.csv
[ -f "$csv" ] || { echo "report: no $csv" >&2; exit 1; }

{
echo "== ratios: ecdma best algo / peer, per op and cache (geomean, min, max over cells) =="
awk -F, 'NR > 1 && $1 != "membw" {
	cell = $1 "," $2 "," $3 "," $4 "," $5 "," $6
	if ($7 ~ /\(best\)/ || ($8 == "ours" && !(cell in best)))
		if ($7 ~ /\(best\)/) best[cell] = $9
	if ($8 == "peer") { n++; pc[n] = cell; pi[n] = $7; pv[n] = $9 }
	if ($8 == "ours" && $7 ~ /avx2$/) avx2[cell] = $9
}
END {
	for (i = 1; i <= n; i++) {
		split(pc[i], f, ",")
		key = sprintf("%-7s %-4s %s", f[1], f[6], pi[i])
		r = best[pc[i]] / pv[i]
		lg[key] += log(r); cnt[key]++
		if (!(key in mn) || r < mn[key]) mn[key] = r
		if (!(key in mx) || r > mx[key]) mx[key] = r
		if (pi[i] ~ /avx2$/ && (pc[i] in avx2)) {
			key2 = sprintf("%-7s %-4s %s", f[1], f[6], pi[i] " [vs ecdma avx2]")
			r2 = avx2[pc[i]] / pv[i]
			lg[key2] += log(r2); cnt[key2]++
			if (!(key2 in mn) || r2 < mn[key2]) mn[key2] = r2
			if (!(key2 in mx) || r2 > mx[key2]) mx[key2] = r2
		}
	}
	for (k in cnt)
		printf "%-62s %6.2fx  (min %5.2fx, max %6.2fx, %d cells)\n",
		       k, exp(lg[k] / cnt[k]), mn[k], mx[k], cnt[k]
}' "$csv" | sort

echo
echo "== cold: % of the memory-bound limit reached by the best algo (median over cells) =="
awk -F, 'NR > 1 && $6 == "cold" && $7 ~ /\(best\)/ {
	key = sprintf("%-7s block %7d", $1, $5); v[key] = v[key] " " $12
} END { for (k in v) print k, v[k] }' "$csv" | sort | while read -r op _ blk vals; do
	med=$(tr ' ' '\n' <<<"$vals" | sed '/^$/d' | sort -n |
	      awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	min=$(tr ' ' '\n' <<<"$vals" | sed '/^$/d' | sort -n | head -1)
	printf "%-7s block %8s  median %5s%%  min %5s%%\n" "$op" "$blk" "$med" "$min"
done

echo
echo "== stores: nt / regular and engine policy / regular, best algo, encode+pq+xor (geomean over cells) =="
awk -F, 'NR > 1 && ($1 == "encode" || $1 == "pq" || $1 == "xor") {
	cell = $1 "," $2 "," $3 "," $4 "," $5 "," $6
	if ($7 ~ / regular stores$/) reg[cell] = $9
	else if ($7 ~ / nt stores$/) nt[cell] = $9
	else if ($7 ~ /\(best\)/) pol[cell] = $9
} END {
	for (c in reg) {
		if (!(c in nt) || !(c in pol)) continue
		split(c, f, ",")
		key = sprintf("block %7d %-4s", f[5], f[6])
		a[key] += log(nt[c] / reg[c]); b[key] += log(pol[c] / reg[c]); n[key]++
		r = nt[c] / reg[c]
		if (!(key in mn) || r < mn[key]) mn[key] = r
		if (!(key in mx) || r > mx[key]) mx[key] = r
	}
	for (k in n)
		printf "%s  nt/regular %5.2fx (min %4.2fx, max %4.2fx)  policy/regular %5.2fx  %d cells\n",
		       k, exp(a[k] / n[k]), mn[k], mx[k], exp(b[k] / n[k]), n[k]
}' "$csv" | sort -k2,2n -k3,3

echo
echo "== scaling: best algo, threads pinned one per CPU, own stripes (GB/s of data, aggregate) =="
awk -F, 'NR > 1 && $1 ~ /^scaling-/ {
	op = substr($1, 9); cell = sprintf("%-6s k=%2d m=%d %5dK %-4s", op, $2, $3, $5 / 1024, $6)
	t = $4 + 0; v[cell, t] = $9; if (t > nt) nt = t; cells[cell] = 1
} END {
	for (c in cells) {
		line = c
		for (t = 1; t <= nt; t++)
			if ((c, t) in v)
				line = line sprintf("  %dT %7.2f (%.2fx)", t, v[c, t], v[c, t] / v[c, 1])
		print line
	}
}' "$csv" | sort

echo
echo "== issue #4 targets (geomean over the cells named; each also shown min) =="
awk -F, 'NR > 1 {
	cell = $1 "," $2 "," $3 "," $4 "," $5 "," $6
	v[cell "|" $7] = $9
	if ($7 ~ /\(best\)/) best[cell] = $9
	cells[cell] = 1
	if ($6 == "cold" && $7 ~ /\(best\)/ && $1 == "encode") pct[++np] = $12 + 0
}
function tgt1(name, op, peer, mine, want, cache,    c, s, n, r, mn, f, ok) {
	n = 0; s = 0; mn = 1e9
	for (c in cells) {
		split(c, f, ",")
		if (f[1] != op || f[6] != cache || !((c "|" peer) in v)) continue
		r = (mine == "" ? best[c] : v[c "|" mine]) / v[c "|" peer]
		s += log(r); n++; if (r < mn) mn = r
	}
	if (!n) return
	ok = exp(s / n) >= want ? "MET" : "MISSED"
	printf "%-54s %-4s %6.2fx (min %5.2fx) want >= %.2fx: %s\n", name,
	       cache, exp(s / n), mn, want, ok
}
function tgt(name, op, peer, mine, want) {
	tgt1(name, op, peer, mine, want, "hot")
	tgt1(name, op, peer, mine, want, "cold")
}
END {
	tgt("RS encode vs isal ec_encode_data (best dispatch)", "encode", "isal ec_encode_data", "", 2.0)
	tgt("RS encode ecdma avx2 vs isal ec_encode_data_avx2", "encode", "isal ec_encode_data_avx2", "ecdma avx2", 1.1)
	tgt("P+Q vs isal pq_gen", "pq", "isal pq_gen", "", 1.0)
	tgt("P+Q vs lib/raid6 avx512x4", "pq", "lib/raid6 avx512x4", "", 1.5)
	tgt("XOR vs isal xor_gen", "xor", "isal xor_gen", "", 1.0)
	tgt("2-data recovery vs async_tx scalar fallback chain", "recov2", "async_tx scalar fallback", "", 20)
	tgt("2-data recovery vs lib/raid6 recov_avx512", "recov2", "lib/raid6 recov_avx512", "", 1.0)
	tgt("recovery product (2-src) vs async_sum_product scalar", "sumprod", "async_sum_product scalar", "", 20)
	tgt("recovery product (1-src) vs async_mult scalar", "mult", "async_mult scalar", "", 20)
	n = np
	# insertion sort: mawk has no asort()
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && pct[j - 1] > pct[j]; j--) {
			t = pct[j]; pct[j] = pct[j - 1]; pct[j - 1] = t
		}
	mid = n > 0 ? int((n + 1) / 2) : 0
	med = mid ? pct[mid] : 0
	ok = med >= 85 ? "MET" : "MISSED"
	printf "%-58s %5.0f%% median (min %.0f%%, max %.0f%%) want >= 85%%: %s\n", "cold encode, % of memory-bound limit", med, pct[1], pct[n], ok
}' "$csv"
} | tee "$out/summary.txt"

# Plots: GB/s vs block size per (k,m), hot and cold side by side.
command -v gnuplot >/dev/null || { echo "report: no gnuplot, no plots" >&2; exit 0; }
dat=$out/plot
rm -rf "$dat" && mkdir -p "$dat"
awk -F, -v d="$dat" 'NR > 1 && $1 == "encode" {
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
