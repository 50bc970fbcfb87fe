#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# How the CPU provider computes (Documentation/admin-guide/ecdma.rst,
# "Fast paths and stores"):
#  - pq_path / xor_path: lib/raid6 and xor_blocks() or ecdma's GF algo for
#    exact RAID-6 P+Q and XOR; "auto" takes the faster as measured at load,
#    per block-size class (debugfs ecdma/calibration has the numbers).
#    raid6test (async_tx, exact P+Q on 4 KiB pages) must pass with either,
#    and the counters must show the chosen code ran and the other did not.
#  - nt_threshold: "auto" (default: NT stores per class and kind as
#    calibrated) or blocks at least this big are written with non-temporal
#    stores by the SIMD algos; dmatest with 64 KiB buffers must pass, with
#    nt_bytes moving only when the threshold or the calibration allows it.
# dmatest must come before anything loads async_tx (tests.list).
. /ecdma/lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
D=$ECDMA_DEV

# --- calibration at load, and "auto" -----------------------------------
dmesg | grep -E 'ecdma: calibrat' | sed 's/^/# /'
dmesg | grep -q -E 'ecdma: calibrated: raid6 .*, gf .*: P\+Q .*, XOR .*; stores .*: xor .*, pq .*, rs ' &&
	ktap_ok calibration_logged || ktap_fail calibration_logged
# one word when every block-size class agrees, else per class; a class
# whose cached and uncached outputs take different paths reads "gf/lib";
# per band of inputs where up to 6 and more differ
w='(lib|gf)(/(lib|gf))?'
c="($w|4k:$w 64k:$w big:$w)"
paths_re="^($c|k<=6: $c; k>=7: $c)\$"
for p in pq xor; do
	v=$(cat $D/${p}_path) a=$(cat $D/${p}_path_active)
	[ "$v" = "[auto] lib gf" ] && echo "$a" | grep -q -E "$paths_re" &&
		ktap_ok "${p}_path_default_auto # $a" ||
		ktap_fail "${p}_path_default_auto # '$v' '$a'"
done
cal=/sys/kernel/debug/ecdma/calibration
n='[0-9]+/[0-9]+'
w='gf_cold_won [0-9]+'
# a class's own hot rows: three, or none where its stripe fits in the L2
nt_rows=ok
for cl in 64k:12 big:8; do
	want=3
	grep -A1 "^class ${cl%:*}" $cal | grep -q 'fits_l2$' && want=0
	[ "$(grep -A4 "^class ${cl%:*}" $cal | grep -c -E "^(pq|xor|rs)${cl#*:} (gf [1-9][0-9]* gf_nt [1-9][0-9]*|slow)$")" = $want ] ||
		nt_rows=bad
done
[ "$(grep -c -E '^[a-z]+(12|8) (gf|slow)' $cal)" -le 6 ] || nt_rows=bad
[ "$(grep -c -E "^class (4k|64k|big) block [0-9]+$" $cal)" = 3 ] &&
	[ "$(grep -c -E "^pq lib $n gf $n gf_nt $n $w$" $cal)" = 3 ] &&
	[ "$(grep -c -E "^xor lib $n gf $n gf_nt $n $w$" $cal)" = 3 ] &&
	[ "$(grep -c -E "^rs lib 0/0 gf $n gf_nt $n$" $cal)" = 3 ] &&
	[ "$(grep -c -E "^pq4 lib $n gf $n gf_nt $n $w$" $cal)" = 3 ] &&
	[ "$(grep -c -E "^xor4 lib $n gf $n gf_nt $n $w$" $cal)" = 3 ] &&
	[ "$(grep -A1 '^class 64k' $cal | grep -c -E '^nt_hot inputs 12 block 65536( fits_l2)?$')" = 1 ] &&
	[ "$(grep -A1 '^class big' $cal | grep -c -E '^nt_hot inputs 8 block [0-9]+( fits_l2)?$')" = 1 ] &&
	[ "$(grep -c '^nt_hot ' $cal)" = 2 ] &&
	[ "$nt_rows" = ok ] &&
	grep -q -E '^l2 [0-9]+$' $cal &&
	grep -q -E '^reuse_window [1-9][0-9]*$' $cal &&
	ktap_ok calibration_in_debugfs || ktap_fail calibration_in_debugfs
# the cache: CPUID's word, or measured where CPUID has none (QEMU's TCG
# guests here): then the first stripe's gain is a measurement (not 0; any
# value under TCG, where a vCPU waits its turn mid-run: 0.245x in a loaded
# debug lane), no size without a gain, and the window at least the default
llc=$(sed -n 's/^llc \([0-9]*\)$/\1/p' $cal)
src=$(sed -n 's/^llc_source //p' $cal)
g0=$(sed -n 's/^llc_gain \([0-9]*\) [0-9]* [0-9]* [0-9]*$/\1/p' $cal)
win=$(sed -n 's/^reuse_window //p' $cal)
case "$src" in
cpuid) [ "$llc" -gt 0 ] && [ "$g0" = 0 ] ;;
probed) [ "${g0:-0}" -gt 0 ] && [ "$win" -ge $((8 << 20)) ] &&
	{ [ "$g0" -ge 1100 ] || [ "$llc" = 0 ]; } ;;
*) false ;;
esac && ktap_ok "llc_$src # $llc bytes, gain $g0, window $win" ||
	ktap_fail "llc_source # '$src' llc '$llc' gain '$g0' window '$win'"
sed 's/^/# /' $cal
# expect <kind> <lib|nt>: what the measurements imply, per class, in the
# *_active format.  NT (for outputs not cached, never 4 KiB blocks, taken
# as cached) when faster cold than regular stores with 8 inputs
# ("<kind>" rows) or faster hot, for cached ones too when faster hot
# ("regular/nt": only not cached), by the class's own hot row ("<kind><n>" after its
# "nt_hot inputs n block b" line) where it has one, never where that line
# says "fits_l2" or the row "slow" (too slow to ask: TCG's RS).  Per band of inputs (8: "<kind>", 4: "<kind>4" rows):
# outputs in the cache get lib when measured and faster hot by more than
# 1/32 (ECDMA_GF_CAL_LIB_EDGE) than the GF algo with regular stores, and
# with NT where the class has NT on cached outputs and the band's requests
# can have the data for it (not 64k ones with 4 inputs),
# the others lib when faster cold by more than 1/16
# (ECDMA_GF_CAL_LIB_EDGE_COLD) than the GF algo with the store kind
# chosen and in at least half the rounds ("gf_cold_won" at most half the
# header's rounds); "hot/cold" where they differ.
# Big P+Q blocks in the cache get lib only if the 64k class's do too
# (ecdma_gf_cal_decide(): the 128 KiB measurement sits on the L2's edge).
expect() {
	awk -v kind="$1" -v what="$2" '
	function cold(s,  f) { split(s, f, "/"); return f[2] }
	function hot(s,  f) { split(s, f, "/"); return f[1] }
	function beats(l, g) { return l * 32 > g * 33 }
	function beats16(l, g) { return l * 16 > g * 17 }
	function lib(nt, ntc,  lh, lc) {
		lh = beats(hot($3), hot($5)) && (!ntc || beats(hot($3), hot($7))) ?
			"lib" : "gf"
		lc = beats16(cold($3), nt ? cold($7) : cold($5)) &&
			2 * $9 <= rounds ? "lib" : "gf"
		if (c == "4k") lc = lh
		return lh == lc ? lh : lh "/" lc
	}
	function hp(s,  f) { split(s, f, "/"); return f[1] }
	function cp(s,  f, n) { n = split(s, f, "/"); return f[n] }
	function big(b, m,  lc) {
		if (kind != "pq" || hp(b) != "lib" || hp(m) == "lib") return b
		lc = cp(b)
		return lc == "gf" ? "gf" : "gf/" lc
	}
	function words(a, b, d) {
		if (a == b && b == d) return a
		return "4k:" a " 64k:" b " big:" d
	}
	$1 == "#" && $(NF) == "rounds" { rounds = $(NF - 1) }
	$1 == "class" { c = $2 }
	# "nt_hot inputs n block b [fits_l2]", "<kind><n> gf h gf_nt h",
	# before the class rows: decide cached NT
	$1 == "nt_hot" { ni[c] = $3; fits[c] = $6 == "fits_l2" }
	ni[c] && $1 == kind ni[c] && $2 == "gf" { n12[c] = 1; nt12[c] = $5 > $3 }
	$1 == kind && $2 == "lib" {
		ntc[c] = c != "4k" && cold($7) > 0 &&
			(ni[c] ? !fits[c] && n12[c] && nt12[c] : hot($7) > hot($5))
		nt[c] = c != "4k" && cold($7) > 0 && (cold($7) > cold($5) || ntc[c])
		st[c] = ntc[c] ? "nt" : nt[c] ? "regular/nt" : "regular"
		wd[c] = lib(nt[c], ntc[c])
	}
	$1 == kind "4" && $2 == "lib" { nw[c] = lib(nt[c], ntc[c] && c == "big") }
	END {
		if (what == "nt") { print words(st["4k"], st["64k"], st["big"]); exit }
		wd["big"] = big(wd["big"], wd["64k"])
		nw["big"] = big(nw["big"], nw["64k"])
		w = words(wd["4k"], wd["64k"], wd["big"])
		n = words(nw["4k"], nw["64k"], nw["big"])
		if (wd["4k"] == nw["4k"] && wd["64k"] == nw["64k"] && wd["big"] == nw["big"])
			print w
		else
			print "k<=6: " n "; k>=7: " w
	}' $cal
}
for p in pq xor; do
	want=$(expect $p lib)
	[ "$(cat $D/${p}_path_active)" = "$want" ] &&
		ktap_ok "${p}_auto_follows_calibration # $want" ||
		ktap_fail "${p}_auto_follows_calibration # want $want"
done
# (whatever the number of inputs; checked through dmatest below)
for k in xor pq rs; do
	want=$(expect $k nt)
	got=$(sed -n "s/^${k}_stores auto -> //p" $cal)
	[ "$got" = "$want" ] &&
		ktap_ok "${k}_stores_follow_calibration # $want" ||
		ktap_fail "${k}_stores_follow_calibration # want $want, got $got"
done

# --- bad values change nothing --------------------------------------------
for p in pq_path xor_path; do
	before=$(cat $D/$p)
	bad=0
	for v in "" bogus LIB "lib gf" 1; do
		echo "$v" >$D/$p 2>/dev/null && bad=$((bad + 1))
	done
	[ "$bad" = 0 ] && [ "$(cat $D/$p)" = "$before" ] &&
		ktap_ok "${p}_rejects_bad_values" ||
		ktap_fail "${p}_rejects_bad_values # $bad accepted"
done
before=$(cat $D/nt_threshold)
bad=0
for v in -1 abc 1073741825 "" AUTO "auto 1"; do
	echo "$v" >$D/nt_threshold 2>/dev/null && bad=$((bad + 1))
done
[ "$bad" = 0 ] && [ "$(cat $D/nt_threshold)" = "$before" ] && [ "$before" = auto ] &&
	ktap_ok "nt_threshold_default_and_rejects_bad_values" ||
	ktap_fail "nt_threshold_default_and_rejects_bad_values # $bad accepted, $before"
for p in pq_path_active xor_path_active; do
	( echo gf >$D/$p ) 2>/dev/null && ktap_fail "${p}_read_only" || ktap_ok "${p}_read_only"
done

# --- nt_threshold, through dmatest on one channel ---------------------------
algo=$(cat $D/algo_active)
# dmatest's iterations per channel thread: 20, fewer with VM_SCALE (the
# debug kernel; every store path still runs, each on fewer buffers)
iters=$(vm_scaled 20 4)
# nt_case <tag> <threshold> <bufsize>: 64 KiB pq/xor with dmatest (GF path:
# dmatest's P+Q coefficients are all 1, not RAID-6's)
nt_case() {
	echo "$2" >$D/nt_threshold
	echo gf >$D/xor_path
	b=$(ecdma_stat nt_bytes) g=$(ecdma_stat gf_bytes)
	dmesg -c >/dev/null
	modprobe dmatest iterations=$iters xor_sources=6 pq_sources=6 norandom=1 \
		test_buf_size="$3" device=ecdma max_channels=1 timeout=60000 \
		threads_per_chan=1 || { ktap_fail "${1}_dmatest_load"; return; }
	echo 1 >/sys/module/dmatest/parameters/run
	dmatest_wait
	modprobe -r dmatest
	s=$(dmesg | grep -c 'summary .* 0 failures')
	f=$(dmesg | grep 'summary' | grep -v -c ' 0 failures')
	[ "$s" -ge 2 ] && [ "$f" = 0 ] && ktap_ok "${1}_dmatest_clean # $s summaries" ||
		ktap_fail "${1}_dmatest_clean # $s clean, $f failing"
	dn=$(($(ecdma_stat nt_bytes) - b)) dg=$(($(ecdma_stat gf_bytes) - g))
	ktap_diag "$1: threshold $2, block $3, algo $algo: gf_bytes +$dg nt_bytes +$dn"
	if [ "$2" != 0 ] && [ "$3" -ge "$2" ] && [ "$algo" != generic ]; then
		[ "$dn" -gt 0 ] && [ "$dn" -le "$dg" ] && ktap_ok "${1}_nt_used" ||
			ktap_fail "${1}_nt_used"
	else
		# below the threshold, off, or the generic algo (no SIMD stores)
		[ "$dg" -gt 0 ] && [ "$dn" = 0 ] && ktap_ok "${1}_nt_not_used" ||
			ktap_fail "${1}_nt_not_used"
	fi
}
# auto: dmatest's 64 KiB XOR (kind xor) and PQ with all-1 coefficients
# (kind rs) use NT exactly as calibrated for the 64k class.  First of the
# cases: a later dmatest of the same buffer size may get the buffers the
# one before freed, at addresses the context has just written, and then
# rightly takes every output as cached: no NT at all (seen on 6.1 once)
echo auto >$D/nt_threshold
echo gf >$D/xor_path
b=$(ecdma_stat nt_bytes) g=$(ecdma_stat gf_bytes)
dmesg -c >/dev/null
modprobe dmatest iterations=$iters xor_sources=6 pq_sources=6 norandom=1 \
	test_buf_size=65536 device=ecdma max_channels=1 timeout=60000 \
	threads_per_chan=1 || ktap_fail nt_auto_dmatest_load
echo 1 >/sys/module/dmatest/parameters/run
dmatest_wait
modprobe -r dmatest
s=$(dmesg | grep -c 'summary .* 0 failures')
f=$(dmesg | grep 'summary' | grep -v -c ' 0 failures')
[ "$s" -ge 2 ] && [ "$f" = 0 ] && ktap_ok "nt_auto_dmatest_clean # $s summaries" ||
	ktap_fail "nt_auto_dmatest_clean # $s clean, $f failing"
dn=$(($(ecdma_stat nt_bytes) - b)) dg=$(($(ecdma_stat gf_bytes) - g))
# NT where the 64k class has it ("<kind>_nt 4k 64k big"), for dmatest's
# 6 sources (XOR: kind xor; PQ with all-1 coefficients: kind rs)
want=0
for k in xor rs; do
	[ "$(awk -v k=$k '$1 == k "_nt" { print $3 }' $cal)" = 1 ] && want=1
done
[ "$algo" = generic ] && want=0
ktap_diag "nt auto: block 65536, algo $algo: gf_bytes +$dg nt_bytes +$dn, nt expected $want"
if [ "$want" = 1 ]; then
	# dmatest writes the same buffers every iteration: only the first
	# op of each thread finds them uncached (the reuse window)
	[ "$dn" -gt 0 ] && [ "$dn" -lt "$dg" ] && ktap_ok nt_auto_follows_calibration ||
		ktap_fail nt_auto_follows_calibration
else
	[ "$dg" -gt 0 ] && [ "$dn" = 0 ] && ktap_ok nt_auto_follows_calibration ||
		ktap_fail nt_auto_follows_calibration
fi
nt_case nt_64k 65536 65536
nt_case nt_below 65536 32768
nt_case nt_off 0 65536
echo auto >$D/xor_path

# --- pq_path / xor_path, through raid6test ----------------------------------
modprobe async_raid6_recov || { ktap_fail load_async_raid6_recov; ktap_exit; }
# path_case <pq> <xor>: raid6test passes, its syndromes, recoveries and
# validations ran on ecdma (raid6test.sh's checks: the debug kernel runs
# raid6test only here); the chosen code ran, the other not
path_case() {
	echo "$1" >$D/pq_path
	echo "$2" >$D/xor_path
	[ "$(cat $D/pq_path_active)" = "$1" ] && [ "$(cat $D/xor_path_active)" = "$2" ] ||
		ktap_fail "path_${1}_${2}_active"
	fp=$(ecdma_stat fast_pq_bytes) fx=$(ecdma_stat fast_xor_bytes)
	g=$(ecdma_stat gf_bytes) bp=$(ecdma_ops pq)
	bx=$(ecdma_ops xor) bv=$(ecdma_ops pq_val)
	dmesg -c >/dev/null
	modprobe raid6test
	dmesg >/tmp/r6.log
	modprobe -r raid6test
	grep -q 'raid6test: complete (2429 tests, 0 failures)' /tmp/r6.log &&
		[ "$(grep -c -E 'validation failure|timeout' /tmp/r6.log)" = 0 ] &&
		ktap_ok "path_${1}_${2}_raid6test_passes" ||
		ktap_fail "path_${1}_${2}_raid6test_passes"
	dfp=$(($(ecdma_stat fast_pq_bytes) - fp)) dfx=$(($(ecdma_stat fast_xor_bytes) - fx))
	dg=$(($(ecdma_stat gf_bytes) - g)) dpq=$(($(ecdma_ops pq) - bp))
	dx=$(($(ecdma_ops xor) - bx)) dv=$(($(ecdma_ops pq_val) - bv))
	ktap_diag "pq_path $1 xor_path $2: pq ops +$dpq xor ops +$dx pq_val ops +$dv fast_pq_bytes +$dfp fast_xor_bytes +$dfx gf_bytes +$dg"
	ok=1
	[ "$dpq" -gt 0 ] && [ "$dx" -gt 0 ] && [ "$dv" -gt 0 ] && [ "$dg" -gt 0 ] || ok=0
	if [ "$1" = lib ]; then [ "$dfp" -gt 0 ] || ok=0; else [ "$dfp" = 0 ] || ok=0; fi
	if [ "$2" = lib ]; then [ "$dfx" -gt 0 ] || ok=0; else [ "$dfx" = 0 ] || ok=0; fi
	[ "$ok" = 1 ] && ktap_ok "path_${1}_${2}_counters" ||
		ktap_fail "path_${1}_${2}_counters"
}
path_case lib lib
path_case gf gf
# the mixed case runs no path of its own (and raid6test's 2429 cases take
# 40 s on the debug kernel): left to the stock kernels (VM_SCALE 2 or less)
[ "${VM_SCALE:-1}" -gt 2 ] || path_case lib gf
echo auto >$D/pq_path
echo auto >$D/xor_path
modprobe -r async_raid6_recov
modprobe -r ecdma
ktap_exit
