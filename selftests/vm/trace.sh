#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ecdma's tracepoints through tracefs (Documentation/driver-api/
# ecdma-trace.rst): every event is listed, off by default; a calc rebuild
# fires the calc events; under md RAID6 writes with fio verifying (offload
# "always", every 50th work request failed by the fault injection) every
# descriptor, EC verbs and execution event fires with fields that agree
# with md's stripes, with each other and with ecdma's counters (cookies in
# order per channel, the bytes of the stripe's blocks, each fault
# recomputed); the policy's events match offload_state's counts across
# never, auto (trials due at once) and always; ecdma_rdma's events are
# listed; with the events off again nothing of ecdma reaches the buffer.
# A handful of the trace lines and a latency histogram (hist trigger) are
# printed as comments: the documentation's examples come from them.
. /ecdma/lib.sh

D=$ECDMA_DEV
DBG=/sys/kernel/debug/ecdma
T=$TRACEFS
EV=$T/events/ecdma
TR=/tmp/trace.txt
EVENTS="ecdma_desc_prep ecdma_desc_submit ecdma_desc_complete
	ecdma_desc_callback ecdma_decline ecdma_fallback ecdma_accept
	ecdma_mode ecdma_table_leave ecdma_table_join ecdma_trial_start
	ecdma_trial_slot ecdma_trial_verdict ecdma_ec_calc_alloc
	ecdma_ec_calc_free ecdma_ec_post ecdma_ec_complete ecdma_exec_start
	ecdma_exec_end"

if ! trace_mount; then
	ktap_skip trace "no tracefs (a kernel without CONFIG_EVENT_TRACING)"
	ktap_exit
fi
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }

# field <name>: a name=value field of offload_state
field() {
	tr ' ' '\n' <"$D/offload_state" | sed -n "s/^$1=//p"
}

# n <event> [awk condition on the fields]: how many <event> lines of $TR
# (v("name") is a field's value) match
n() {
	awk -v e=" $1: " "$TRACE_V
		index(\$0, e) && (${2:-1}) { c++ }
		END { print c + 0 }" $TR
}

# order <event>: cookies not above the channel's last one, of <event> lines
order() {
	awk -v e=" $1: " "$TRACE_V"'
		index($0, e) {
			c = v("chan"); k = v("cookie") + 0
			if ((c in last) && k <= last[c])
				bad++
			last[c] = k
		}
		END { print bad + 0 }' $TR
}

# snap <file>: the buffer, and the buffer's lost events (overrun) to $lost
snap() {
	cat $T/trace >"$1"
	lost=$(trace_lost)
}

# every event listed, with its format, and off
miss= on=
for e in $EVENTS; do
	[ -r "$EV/$e/format" ] || miss="$miss $e"
	[ "$(cat "$EV/$e/enable" 2>/dev/null)" = 0 ] || on="$on $e"
done
[ -z "$miss" ] && ktap_ok "events_listed # $(echo $EVENTS | wc -w) in events/ecdma" ||
	ktap_fail "events_listed # missing:$miss"
[ -z "$on" ] && ktap_ok events_off_by_default ||
	ktap_fail "events_off_by_default # on:$on"

echo global >$T/trace_clock
echo 4096 >$T/buffer_size_kb
: >$T/trace

# the calcs: a GF algo store rebuilds every channel's (no client yet)
echo 1 >$EV/ecdma_ec_calc_alloc/enable
echo 1 >$EV/ecdma_ec_calc_free/enable
chans=$(cat $D/channels)
echo auto >$D/algo
echo 0 >$EV/enable
snap $TR
a=$(n ecdma_ec_calc_alloc 'v("provider") == "cpu" && v("k") > 0 && v("m") == 2')
f=$(n ecdma_ec_calc_free)
[ "$a" = "$chans" ] && [ "$f" = "$chans" ] &&
	ktap_ok "calc_alloc_free # $chans channels: $a allocated, $f freed" ||
	ktap_fail "calc_alloc_free # $chans channels: $a allocated, $f freed"

# md RAID6 over five brd disks (three data), reconstruct-writes
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
brd_setup 5 16
mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=5 \
	--chunk=64 --assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 \
	/dev/ram3 /dev/ram4 2>/tmp/mdadm.log ||
	{ cat /tmp/mdadm.log; ktap_fail raid6_create; ktap_exit; }
echo 0 >/sys/block/md0/md/rmw_level
data=3

# every ecdma event on, a latency histogram per op (where the kernel has
# hist triggers), faults on every 50th work request
HIST='hist:keys=op,latency.log2'
hist=$EV/ecdma_desc_complete/hist
if [ -e $hist ]; then
	echo "$HIST" >$EV/ecdma_desc_complete/trigger || hist=
else
	hist=
fi
: >$T/trace
echo 1 >$EV/enable
pq0=$(ecdma_ops pq) fb0=$(ecdma_stat fallbacks) fa0=$(ecdma_stat faults)
inj0=$(cat $DBG/faults_injected)
echo 50 >$DBG/fault_every_n
fio --name=md --filename=/dev/md0 --rw=write --size=2M --bs=128k \
	--ioengine=psync --direct=1 --eta=never --verify=crc32c \
	--do_verify=1 --verify_fatal=1 --output=/tmp/fio.log >/dev/null 2>&1 &&
	ktap_ok fio_write_verify || { cat /tmp/fio.log; ktap_fail fio_write_verify; }
echo 0 >$DBG/fault_every_n
sync
usleep 300000
pq=$(($(ecdma_ops pq) - pq0)) fb=$(($(ecdma_stat fallbacks) - fb0))
fa=$(($(ecdma_stat faults) - fa0)) inj=$(($(cat $DBG/faults_injected) - inj0))
echo 0 >$EV/enable
snap $TR
[ "$lost" = 0 ] && ktap_ok "buffer_kept_all # $(grep -c ' ecdma_' $TR) lines" ||
	ktap_fail "buffer_kept_all # $lost lost"

# what was traced: the first P+Q descriptor's life (its desc= and its
# work request's wr= lines, up to its reuse), then the histogram
ktap_diag "trace: RAID6 ($data data disks) 128 KiB writes, offload=always"
awk '
	function v(k,  i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	/ ecdma_desc_prep: .*op=pq/ {
		if (d != "" && v("desc") == d)
			exit
		if (d == "") {
			d = v("desc")
			w = v("wr")
		}
	}
	d != "" && (index($0, "desc=" d) || index($0, "wr=" w))' $TR |
	sed 's/^ *//; s/^/# /'
if [ -n "$hist" ]; then
	grep -v '^#' $hist | grep . | head -12 | sed 's/^/# hist: /'
	grep -q '^{ op: *3, latency: ~ 2^' $hist &&
		ktap_ok "hist_latency_per_op # pq $(grep -c '^{ op: *3,' $hist) buckets" ||
		ktap_fail hist_latency_per_op
	echo "!$HIST" >$EV/ecdma_desc_complete/trigger
else
	ktap_skip hist_latency_per_op "no hist triggers (CONFIG_HIST_TRIGGERS)"
fi

# every event of a descriptor's life, the verbs and the execution fired
for e in ecdma_desc_prep ecdma_desc_submit ecdma_desc_complete \
	ecdma_desc_callback ecdma_fallback ecdma_ec_post ecdma_ec_complete \
	ecdma_exec_start ecdma_exec_end; do
	c=$(n $e)
	[ "$c" -gt 0 ] && ktap_ok "fired_$e # $c" || ktap_fail "fired_$e # none"
done
ktap_diag "decline events (a pool run dry, an unmapped address, a refused post: none expected here): $(n ecdma_decline)"

# the offload happened, and every one of md's P+Q is a prep of its stripe
ppq=$(n ecdma_desc_prep 'v("op") == "pq"')
pok=$(n ecdma_desc_prep "v(\"op\") == \"pq\" && v(\"len\") == 4096 && v(\"src\") == $data && v(\"dst\") == 2")
[ "$pq" -gt 0 ] && [ "$ppq" = "$pq" ] && [ "$pok" = "$ppq" ] &&
	ktap_ok "prep_pq_stripes # $ppq pq preps (pq_ops +$pq), $pok of 4096 bytes x $data sources + P, Q" ||
	ktap_fail "prep_pq_stripes # $ppq pq preps (pq_ops +$pq), $pok of 4096 bytes x $data sources + P, Q"
s=$(n ecdma_desc_submit)
[ "$s" = "$(n ecdma_desc_prep)" ] && ktap_ok "submit_per_prep # $s" ||
	ktap_fail "submit_per_prep # $s submits, $(n ecdma_desc_prep) preps"
b=$(order ecdma_desc_submit)
[ "$b" = 0 ] && ktap_ok "submit_cookies_increase_per_chan # $s" ||
	ktap_fail "submit_cookies_increase_per_chan # $b out of order"
b=$(order ecdma_desc_complete)
[ "$b" = 0 ] && ktap_ok "complete_cookies_increase_per_chan" ||
	ktap_fail "complete_cookies_increase_per_chan # $b out of order"
c=$(n ecdma_desc_complete)
cok=$(n ecdma_desc_complete 'v("status") == 0 && v("latency") > 0')
cpq=$(n ecdma_desc_complete 'v("op") == "pq" && v("status") == 0')
[ "$c" = "$s" ] && [ "$cok" = "$c" ] && [ "$cpq" = "$pq" ] &&
	ktap_ok "complete_status_0_latency # $c, pq $cpq" ||
	ktap_fail "complete_status_0_latency # $c completes ($cok status 0 with latency), $s submits, pq $cpq of $pq"
cb=$(n ecdma_desc_callback 'v("aborted") == 0')
cw=$(n ecdma_desc_complete 'v("callback") == 1')
[ "$cb" -gt 0 ] && [ "$cb" = "$cw" ] && ktap_ok "callback_per_complete # $cb" ||
	ktap_fail "callback_per_complete # $cb callbacks, $cw completes with one"
# each fault is recomputed: one fallback each; the executions agree
fok=$(n ecdma_fallback 'v("status") == 0 && v("tries") >= 1')
[ "$fa" -gt 0 ] && [ "$(n ecdma_fallback)" = "$fa" ] && [ "$fok" = "$fb" ] &&
	ktap_ok "fallback_per_fault # $fa faults, $fok recomputed" ||
	ktap_fail "fallback_per_fault # $(n ecdma_fallback) events ($fok ok), faults +$fa, fallbacks +$fb"
bytes=$((4096 * (data + 2)))
enc=$(n ecdma_exec_end 'v("opcode") == "encode" && v("status") == 0')
ebad=$(n ecdma_exec_end "v(\"opcode\") == \"encode\" && v(\"bytes\") != $bytes")
efail=$(n ecdma_exec_end 'v("status") == -5')
[ "$enc" = "$ppq" ] && [ "$ebad" = 0 ] && [ "$efail" = "$inj" ] &&
	ktap_ok "exec_end_per_pq # $enc encodes of $bytes bytes, $efail failed (injected +$inj)" ||
	ktap_fail "exec_end_per_pq # $enc encodes ($ebad not of $bytes bytes) for $ppq preps, $efail failed, injected +$inj"
paths=$(awk '/ ecdma_exec_end: .*opcode=encode/ {
	for (i = 1; i <= NF; i++) if ($i ~ /^(path|algo|by)=/) k = k " " $i
	c[k]++; k = "" } END { for (p in c) printf "%s:%d;", p, c[p] }' $TR)
ktap_diag "exec_end encode paths:$paths"
po=$(n ecdma_ec_post 'v("status") == 0')
[ "$po" -gt 0 ] && [ "$po" = "$(n ecdma_ec_complete)" ] &&
	[ "$(n ecdma_ec_post "v(\"opcode\") == \"encode\" && v(\"bytes\") != $bytes")" = 0 ] &&
	ktap_ok "ec_post_per_complete # $po" ||
	ktap_fail "ec_post_per_complete # $po posts, $(n ecdma_ec_complete) completions"

# the policy: never, auto with a trial due whenever one is possible under
# full-stripe writes, always; its events against offload_state's counts
for e in ecdma_mode ecdma_accept ecdma_table_leave ecdma_table_join \
	ecdma_trial_start ecdma_trial_slot ecdma_trial_verdict; do
	echo 1 >$EV/$e/enable
done
: >$T/trace
t0=$(field trials) k0=$(field kept) s0=$(field table_switches) w0=$(field switches)
budget=$(cat $D/trial_budget)
echo 100 >$D/trial_budget
echo never >$D/offload
i=0
while [ "$(field table)" != withdrawn ] && [ $i -lt 50 ]; do
	usleep 100000
	i=$((i + 1))
done
echo auto >$D/offload
fio --name=trials --filename=/dev/md0 --rw=write --bs=192k --size=12M \
	--ioengine=libaio --iodepth=8 --direct=1 --time_based --runtime=6 \
	--eta=never --output=/tmp/fio-trials.log >/dev/null 2>&1
echo always >$D/offload
i=0
while [ "$(field table)" != in ] && [ $i -lt 50 ]; do
	usleep 100000
	i=$((i + 1))
done
# the join's event and count come just after the table says so
usleep 500000
t1=$(field trials) k1=$(field kept) s1=$(field table_switches) w1=$(field switches)
echo "$budget" >$D/trial_budget
echo 0 >$EV/enable
snap $TR
ktap_diag "policy: offload_state $(cat $D/offload_state)"
grep -v -E '^#| ecdma_accept:' $TR | head -16 | sed 's/^ *//; s/^/# /'
m=$(n ecdma_mode)
seq=$(awk '/ ecdma_mode: / { for (i = 1; i <= NF; i++) if ($i ~ /^mode=/) s = s " " substr($i, 6) }
	END { print substr(s, 2) }' $TR)
[ "$m" = 3 ] && [ "$seq" = "never auto always" ] &&
	ktap_ok "mode_per_write # $seq" || ktap_fail "mode_per_write # $m events: $seq"
acc=$(n ecdma_accept 'v("what") == "pq"')
[ "$acc" -gt 0 ] && [ "$acc" = $((w1 - w0)) ] &&
	ktap_ok "accept_per_switch # $acc" ||
	ktap_fail "accept_per_switch # $acc events, switches $w0 -> $w1"
tb=$(($(n ecdma_table_leave 'v("ret") == 0') + $(n ecdma_table_join 'v("ret") == 0')))
[ "$tb" -ge 2 ] && [ "$tb" = $((s1 - s0)) ] &&
	ktap_ok "table_per_switch # $tb" ||
	ktap_fail "table_per_switch # $tb events, table_switches $s0 -> $s1"
vd=$(n ecdma_trial_verdict) vk=$(n ecdma_trial_verdict 'v("verdict") == "in"')
ts=$(n ecdma_trial_start) sl=$(n ecdma_trial_slot)
msg="$vd verdicts ($vk in), $ts starts, $sl slots; trials $t0 -> $t1, kept $k0 -> $k1"
[ "$vd" -gt 0 ] && [ "$vd" = $((t1 - t0)) ] && [ "$vk" = $((k1 - k0)) ] &&
	[ "$ts" -ge "$vd" ] && [ "$sl" -ge "$vd" ] &&
	ktap_ok "trial_verdict_per_trial # $msg" ||
	ktap_fail "trial_verdict_per_trial # $msg"

# ecdma_rdma's events, listed while it is loaded (its primitives need an
# RDMA device: rdma_ec.sh runs them)
if modinfo ecdma_rdma >/dev/null 2>&1 && modprobe ecdma_rdma; then
	[ -r $T/events/ecdma_rdma/ecdma_rdma_op_start/format ] &&
		[ -r $T/events/ecdma_rdma/ecdma_rdma_op_end/format ] &&
		ktap_ok rdma_events_listed || ktap_fail rdma_events_listed
	rmmod ecdma_rdma
	modprobe -r ib_core 2>/dev/null
else
	ktap_skip rdma_events_listed "no ecdma_rdma (a kernel without RDMA)"
fi

# off again: md's I/O still offloaded, nothing in the buffer
on=
for e in $EVENTS; do
	[ "$(cat "$EV/$e/enable")" = 0 ] || on="$on $e"
done
: >$T/trace
p0=$(ecdma_ops pq)
fio --name=off --filename=/dev/md0 --rw=write --size=1M --bs=128k \
	--ioengine=psync --direct=1 --eta=never --output=/tmp/fio.log \
	>/dev/null 2>&1
sync
p1=$(ecdma_ops pq)
left=$(grep -c ecdma $T/trace)
[ -z "$on" ] && [ "$left" = 0 ] && [ "$p1" -gt "$p0" ] &&
	ktap_ok "off_leaves_nothing # pq_ops $p0 -> $p1" ||
	ktap_fail "off_leaves_nothing # $left lines, on:$on, pq_ops $p0 -> $p1"

echo 1408 >$T/buffer_size_kb
echo local >$T/trace_clock
mdadm --stop /dev/md0 >/dev/null 2>&1
brd_teardown
modprobe -r raid456
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
