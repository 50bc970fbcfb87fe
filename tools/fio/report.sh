#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn the samples of make perf (or run-host.sh) into a table, a summary
# of ratios and plots.
#
# Usage: report.sh <samples.csv> <outdir>
#   samples.csv: kernel,config,array,workload,repeat,mibps,cpu_s_per_gib,ops
# Writes <outdir>/table.txt (median and spread of every point),
# pairs.csv (the per-repeat ratios' medians), summary.txt (ecdma against
# md's CPU path, per workload: throughput and CPU-seconds per GiB, with
# geomean and worst; with PERF_ALT's configs (ecdma@alt...) this build
# against that one) and, with gnuplot,
# throughput-<array>.png and cpu-<array>.png.
set -euo pipefail

csv=$1
out=$2
mkdir -p "$out"

# med(a, m): the median of a[1..m], sorted in place; lo and hi its ends.
# Shared by the awk programs below
awk_med='
function med(a, m,    i, j, t) {
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	lo = a[1]; hi = a[m]
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}'

# medians: key -> "median spread n" (spread = (max - min) / median)
awk -F, "$awk_med"'
NR == 1 && $1 == "kernel" { next }
{
	k = $1 "," $2 "," $3 "," $4
	if (!(k in n)) order[++nk] = k
	n[k]++; v[k, n[k]] = $6; c[k, n[k]] = $7; o[k] += $8
}
# the median of sample column arr over the n[k] samples of k
function kmed(arr, k,    i, a) {
	for (i = 1; i <= n[k]; i++) a[i] = arr[k, i]
	return med(a, n[k])
}
END {
	for (i = 1; i <= nk; i++) {
		k = order[i]
		mv = kmed(v, k); sv = mv > 0 ? (hi - lo) / mv : 0
		mc = kmed(c, k)
		printf("%s,%.1f,%.3f,%.3f,%d,%d\n", k, mv, sv, mc, n[k], o[k])
	}
}' "$csv" >"$out/medians.csv"

{
	printf '%-8s %-10s %-17s %-20s %10s %7s %12s %4s %10s\n' kernel config array \
		workload 'MiB/s' spread 'CPU-s/GiB' n 'ecdma ops'
	awk -F, '{ printf("%-8s %-10s %-17s %-20s %10.1f %6.0f%% %12.3f %4d %10d%s\n",
		substr($1, 1, 8), $2, $3, $4, $5, $6 * 100, $7, $8, $9,
		$6 > 0.10 ? "  spread > 10%" : "") }' "$out/medians.csv"
} >"$out/table.txt"

# paired ratios: per repeat, a config's sample against the one it is
# compared with in the same repeat (perf-guest.sh runs them back to back,
# the order reversed every other repeat), then the median over repeats,
# as make bench does.  A slow phase of the host then moves both sides of
# one ratio, not one side of the comparison: a 3 s sample on the host's
# clock spreads by 20-50%.  pairs.csv: kernel,config,base,array,workload,
# throughput ratio,spread of the ratios,CPU-cost ratio (base / config),n
awk -F, "$awk_med"'
NR == 1 && $1 == "kernel" { next }
{
	k = $1 "," $3 "," $4
	if (!(k in seen)) { seen[k]; pts[++np] = k }
	cf[$2]; v[$1, $2, $3, $4, $5] = $6; c[$1, $2, $3, $4, $5] = $7
	reps[$5]
}
# pair <config> <base>: a line per point where both ran in a repeat
function pair(x, y,    p, kx, ky, r, n, tr, cr, mt, st, mc, q) {
	for (p = 1; p <= np; p++) {
		split(pts[p], q, ",")
		n = 0
		delete tr; delete cr
		for (r in reps) {
			kx = q[1] SUBSEP x SUBSEP q[2] SUBSEP q[3] SUBSEP r
			ky = q[1] SUBSEP y SUBSEP q[2] SUBSEP q[3] SUBSEP r
			if (!(kx in v) || !(ky in v) || v[kx] <= 0 || v[ky] <= 0)
				continue
			n++
			tr[n] = v[kx] / v[ky]
			cr[n] = c[kx] > 0 && c[ky] > 0 ? c[ky] / c[kx] : 0
		}
		if (!n)
			continue
		mt = med(tr, n); st = (hi - lo) / mt
		mc = med(cr, n)
		printf("%s,%s,%s,%s,%s,%.4f,%.4f,%.4f,%d\n", q[1], x, y, q[2], q[3], mt, st, mc, n)
	}
}
END {
	pair("ecdma", "cpu"); pair("ecdma-gtc", "cpu-gtc")
	for (x in cf)
		if (x ~ /@alt/) { y = x; sub(/@alt/, "", y); if (y in cf) pair(y, x) }
}' "$csv" >"$out/pairs.csv"

# ratios ecdma / cpu and ecdma-gtc / cpu-gtc per array and workload.  The
# geomean and worst are over the local arrays; the fabric's
# (nvmf-<transport>-<array>, host-side throughput with ecdma on the
# target against md's CPU path there: fabric-guest.sh) get a line each.
awk -F, '
# pairs.csv first: the paired ratios, by kernel,config,array,workload
FILENAME == ARGV[1] { k = $1 "," $2 "," $4 "," $5; pr[k] = $6; psp[k] = $7; pc[k] = $8; next }
{ ops[$1 "," $2 "," $3 "," $4] = $9
  if (!($3 "," $4 in seen)) { seen[$3 "," $4]; pts[++np] = $3 "," $4 }
  kern[$1] }
# fam: "" for a local array, "nvmf-<transport>" for a fabric one
function fam(pt,    a) {
	a = substr(pt, 1, index(pt, ",") - 1)
	if (a !~ /^nvmf-/) return ""
	sub(/-[^-]*-[^-]*$/, "", a)
	return a
}
END {
	for (kk in kern) {
		delete sum; delete cnt; delete worst; delete fsum; delete fcnt; delete fworst
		delete zsum; delete zcnt; delete zlo; delete zhi
		nf = 0
		printf("kernel %s: ecdma / md CPU path (median of the per-repeat ratios; >1 is a win)\n", kk)
		printf("%-17s %-20s %12s %12s %14s %14s\n", "array", "workload",
		       "MiB/s", "MiB/s gtc", "CPU-s/GiB", "CPU-s/GiB gtc")
		for (p = 1; p <= np; p++) {
			line = sprintf("%-17s %-20s", substr(pts[p], 1, index(pts[p], ",") - 1),
				       substr(pts[p], index(pts[p], ",") + 1))
			split("ecdma,cpu,ecdma-gtc,cpu-gtc", cf, ",")
			f = fam(pts[p])
			for (g = 0; g < 2; g++) {
				a = kk "," cf[1 + 2 * g] "," pts[p]
				if (a in pr) {
					r = pr[a]; line = line sprintf(" %11.2fx", r)
					if (f != "") {
						if (g == 0) {
							if (!(f in fcnt)) fams[++nf] = f
							fsum[f] += log(r); fcnt[f]++
							if (!(f in fworst) || r < fworst[f]) { fworst[f] = r; fwname[f] = pts[p] }
						}
						continue
					}
					sum[g] += log(r); cnt[g]++
					if (!(g in worst) || r < worst[g]) {
						worst[g] = r; wname[g] = pts[p]; wsp[g] = psp[a]
					}
					# ecdma ran nothing: md against md
					if (ops[a] == 0) {
						zsum[g] += log(r); zcnt[g]++
						if (!(g in zlo) || r < zlo[g]) zlo[g] = r
						if (!(g in zhi) || r > zhi[g]) zhi[g] = r
					}
				} else line = line sprintf(" %12s", "-")
			}
			for (g = 0; g < 2; g++) {
				a = kk "," cf[1 + 2 * g] "," pts[p]
				if (a in pc && pc[a] > 0) {
					r = pc[a]; line = line sprintf(" %13.2fx", r)
				} else line = line sprintf(" %14s", "-")
			}
			print line
		}
		for (g = 0; g < 2; g++) {
			if (!cnt[g])
				continue
			printf("throughput%s: geomean %.2fx, worst %.2fx (%s, its repeats %.0f%% apart)\n",
			       g ? " at group_thread_cnt = CPUs" : " at group_thread_cnt 0",
			       exp(sum[g] / cnt[g]), worst[g], wname[g], wsp[g] * 100)
			if (zcnt[g])
				printf("  %d of %d cells without an ecdma operation (md on both sides: this run'"'"'s noise): geomean %.2fx, %.2fx-%.2fx\n",
				       zcnt[g], cnt[g], exp(zsum[g] / zcnt[g]), zlo[g], zhi[g])
		}
		for (i = 1; i <= nf; i++)
			printf("%s host throughput, ecdma on the target / its md CPU path: geomean %.2fx, worst %.2fx (%s)\n",
			       fams[i], exp(fsum[fams[i]] / fcnt[fams[i]]), fworst[fams[i]], fwname[fams[i]])
		print "(CPU columns: md CPU path cost / ecdma cost; >1 means ecdma used less CPU per GiB)"
	}
}' "$out/pairs.csv" "$out/medians.csv" >"$out/summary.txt"

# this tree's ecdma against PERF_ALT's (configs <c> and <c with @alt>,
# same boot, interleaved): paired throughput and CPU cost ratios per cell,
# with both sides' spread, and the geomean; nothing when no config has @alt
awk -F, '
FILENAME == ARGV[1] { k = $1 "," $2 "," $4 "," $5; pr[k] = $6; pc[k] = $8; next }
{ sp[$1 "," $2 "," $3 "," $4] = $6
  if ($2 ~ /@alt/) alt[++na] = $0 }
END {
	for (i = 1; i <= na; i++) {
		split(alt[i], f, ",")
		c = f[2]; sub(/@alt/, "", c)
		b = f[1] "," c "," f[3] "," f[4]; a = f[1] "," f[2] "," f[3] "," f[4]
		if (!(b in pr)) continue
		if (!n++) {
			printf("\nthis build / PERF_ALT'"'"'s (same boot, interleaved; >1: this one is faster)\n")
			printf("%-22s %-17s %-20s %9s %11s %14s\n", "config", "array", "workload",
			       "MiB/s", "CPU-s/GiB", "spread this/alt")
		}
		r = pr[b]; s += log(r)
		if (n == 1 || r < lo) lo = r
		if (n == 1 || r > hi) hi = r
		printf("%-22s %-17s %-20s %8.2fx %10.2fx %6.0f%% / %3.0f%%\n", c, f[3], f[4], r,
		       pc[b], sp[b] * 100, sp[a] * 100)
	}
	if (n)
		printf("throughput this/alt: geomean %.3fx over %d cells, %.2fx-%.2fx\n",
		       exp(s / n), n, lo, hi)
}' "$out/pairs.csv" "$out/medians.csv" >>"$out/summary.txt"

command -v gnuplot >/dev/null || { echo "report.sh: no gnuplot, no plots" >&2; exit 0; }
for a in $(cut -d, -f3 "$out/medians.csv" | sort -u); do
	for what in throughput cpu; do
		col=5
		ylabel='MiB/s (median)'
		[ $what = cpu ] && { col=7; ylabel='CPU-seconds per GiB (median)'; }
		# one row per workload, one column per config
		awk -F, -v a="$a" -v col=$col '$3 == a {
			if (!($4 in w)) { w[$4]; wl[++nw] = $4 }
			if (!($2 in c)) { c[$2]; cl[++nc] = $2 }
			v[$4, $2] = $col
		} END {
			printf("workload"); for (j = 1; j <= nc; j++) printf(" %s", cl[j]); print ""
			for (i = 1; i <= nw; i++) {
				printf("%s", wl[i])
				for (j = 1; j <= nc; j++) printf(" %s", ((wl[i], cl[j]) in v) ? v[wl[i], cl[j]] : "NaN")
				print ""
			}
		}' "$out/medians.csv" >"$out/$what-$a.dat"
		ncol=$(head -1 "$out/$what-$a.dat" | wc -w)
		gnuplot <<EOF
set terminal png size 1000,500
set output "$out/$what-$a.png"
set title "$a: $ylabel, md CPU path vs ecdma"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -30
set key top right
set ylabel "$ylabel"
set yrange [0:*]
plot for [i=2:$ncol] "$out/$what-$a.dat" using i:xtic(1) title columnhead(i)
EOF
	done
done
