#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak, at the end of a run (kernels with CONFIG_DEBUG_KMEMLEAK: the
# debug kernel): after every test has unloaded what it loaded, scan, and
# fail for each unreferenced object allocated from ecdma's code or its
# test modules.  Frames into modules still loaded name the module; frames
# into modules unloaded since are bare addresses, attributed with the log
# of module loads (name, address range, load and unload time) that
# selftests/vm/modlog.sh keeps, and the object's age.  Leaks elsewhere in
# the kernel are listed, not failed.
. /ecdma/lib.sh
kl=/sys/kernel/debug/kmemleak
if [ ! -e $kl ]; then
	ktap_skip kmemleak_no_ecdma_leaks "kernel without kmemleak"
	ktap_exit
fi
[ -s /tmp/modlog ] || ktap_diag "no module load log: leaks in unloaded modules cannot be attributed"
# an object must be unreferenced for two scans (and 5 s old) to count
echo scan >$kl
sleep 6
echo scan >$kl
now=$(cut -d' ' -f1 /proc/uptime)
cat $kl >/tmp/kmemleak.txt
total=$(grep -c '^unreferenced object' /tmp/kmemleak.txt)

# low 32 bits of a kernel text address (modules live in the top 2 GiB, so
# the high 32 bits are all ones; awk's doubles would round the full value)
awk -v now="$now" '
function lo32(h,    i, c, v) {
	sub(/^0x/, "", h)
	h = tolower(substr(h, length(h) - 7))
	v = 0
	for (i = 1; i <= length(h); i++) {
		c = index("0123456789abcdef", substr(h, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}
# the module that held address a at time t ("" if none)
function owner(a, t,    i) {
	for (i = 1; i <= nmod; i++)
		if (a >= mbase[i] && a < mbase[i] + msize[i] &&
		    t >= mt0[i] - 1 && t <= mt1[i] + 1)
			return mname[i]
	return ""
}
function flush() {
	if (obj == "")
		return
	if (who != "") {
		printf("# leak attributed to %s:\n%s", who, text)
		ecdma++
	}
	obj = ""
}
FILENAME == "/tmp/modlog" {
	if ($1 == "add" && $3 != "-" && $3 != "0x0000000000000000") {
		nmod++
		mname[nmod] = $2; mbase[nmod] = lo32($3); msize[nmod] = $4
		mt0[nmod] = $5; mt1[nmod] = 1e12
	} else if ($1 == "remove") {
		for (i = nmod; i >= 1; i--)
			if (mname[i] == $2 && mt1[i] == 1e12) {
				mt1[i] = $5
				break
			}
	}
	next
}
/^unreferenced object/ { flush(); obj = $3; who = ""; text = ""; age = 0 }
obj != "" { text = text "#   " $0 "\n" }
obj != "" && /age [0-9.]+s/ {
	match($0, /age [0-9.]+s/)
	age = substr($0, RSTART + 4, RLENGTH - 5) + 0
}
obj != "" && /\[<[0-9a-f]+>\]/ {
	if ($0 ~ /\[ecdma[a-z_]*\]/) {
		who = "ecdma"
	} else if ($2 ~ /^0x/) {
		m = owner(lo32($2), now - age)
		if (m ~ /^ecdma/)
			who = m
	}
}
END { flush(); print "ECDMA_LEAKS " ecdma + 0 }
' /tmp/modlog /tmp/kmemleak.txt >/tmp/kmemleak.ecdma 2>&1
n=$(sed -n 's/^ECDMA_LEAKS //p' /tmp/kmemleak.ecdma)
grep -v '^ECDMA_LEAKS' /tmp/kmemleak.ecdma
ktap_diag "kmemleak: $total unreferenced objects in all, ${n:-?} from ecdma"
[ "${n:-1}" = 0 ] && ktap_ok kmemleak_no_ecdma_leaks ||
	ktap_fail "kmemleak_no_ecdma_leaks # ${n:-?} leaks"
ktap_exit
