#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ecdmactl against a fake sysfs tree: every subcommand, exit codes, and
# --json output checked by python3's json module (and by json-validate);
# md and doctor against fake hosts (--root: sys/, proc/, boot/), one
# per case.  The tool is built here with ASan/UBSan.  KTAP output.
set -u
unit=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$unit/../.." && pwd)
bin=$unit/bin
tool=$bin/ecdmactl
mkdir -p "$bin"
gcc -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-sanitize-recover=all -o "$tool" "$top"/tools/ecdmactl/*.c ||
	{ echo "not ok 1 build"; exit 1; }

fake=$(mktemp -d)
trap 'chmod -R u+w "$fake"; rm -rf "$fake" "$fake".*' EXIT
D=$fake/devices/platform/ecdma
mkdir -p "$fake/module/ecdma" "$D/caps" "$D/stats/chan0" "$D/stats/chan1" \
	"$D/chan0" "$D/chan1"
put() { printf '%s\n' "$2" >"$D/$1"; }
put channels 2
put providers "cpu 3"
put algo "[auto] generic avx2"
put algo_active avx2
put max_src 255
put inline_issue 1
put worker_budget 131072
put inline_budget 65536
put section_ops 64
put nt_threshold 65536
put pq_path "[auto] lib gf"
put pq_path_active lib
put xor_path "auto lib [gf]"
put xor_path_active gf
put caps/ops "memcpy xor xor_val pq pq_val interrupt async_tx"
put caps/max_xor 255
put caps/max_pq 255
put caps/align 1
for op in memcpy xor xor_val pq pq_val; do put caps/enable_$op 1; done
for d in stats stats/chan0 stats/chan1; do
	for op in memcpy xor xor_val pq pq_val interrupt; do
		put $d/${op}_ops 10
		put $d/${op}_bytes 40960
		put $d/${op}_errors 0
	done
	put $d/queue_depth 0
	put $d/latency_hist "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"
	put $d/nofpu_bytes 0
done
put stats/chan0/dma_chan dma0chan0
put stats/chan1/dma_chan dma0chan1
for c in 0 1; do
	put chan$c/dma_chan dma0chan$c
	put chan$c/cpu $c
	put chan$c/provider cpu
done
printf '' >"$D/stats/reset"
chmod 0200 "$D/stats/reset"
chmod 0444 "$D/algo_active"

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }

# rc <name> <want> <args...>
rc() {
	local name=$1 want=$2 got
	shift 2
	"$tool" --sysfs-root "$fake" "$@" >"$fake.out" 2>"$fake.err"
	got=$?
	if [ "$got" = "$want" ]; then ok "$name"; else
		nok "$name # exit $got, want $want: $(head -1 "$fake.err")"; fi
}

# json <name> <args...>: valid per python3 and per json-validate
json() {
	local name=$1
	shift
	if "$tool" --sysfs-root "$fake" --json "$@" >"$fake.json" &&
	   python3 -c 'import json, sys
for l in (sys.stdin.read().splitlines() if "watch" in sys.argv else [sys.stdin.read()]):
    json.loads(l)' "$@" <"$fake.json" &&
	   "$tool" json-validate <"$fake.json"; then
		ok "$name"
	else
		nok "$name"
	fi
}

echo "TAP version 13"
rc help 0 --help
rc version 0 --version
rc no_command 1
rc unknown_command 1 frob
rc bad_option 1 --frob status
rc missing_module 2 --sysfs-root /nonexistent status
ECDMACTL_SYSFS_ROOT=/nonexistent "$tool" status >/dev/null 2>&1
[ $? = 2 ] && ok env_root_honoured || nok env_root_honoured
rc status 0 status
grep -q 'dma0chan1' "$fake.out" && ok status_lists_chans || nok status_lists_chans
grep -q 'pq_path_active.*lib' "$fake.out" && grep -q 'nt_threshold.*65536' "$fake.out" &&
	ok status_shows_paths_and_nt || nok status_shows_paths_and_nt
json status_json status
rc stats 0 stats
grep -q '^pq  *10  *40960  *0$' "$fake.out" && ok stats_table_pq ||
	nok stats_table_pq
json stats_json stats
rc stats_chan 0 stats -c 1
json stats_chan_json stats -c 1
rc stats_bad_chan 3 stats -c 7
rc stats_bad_chan_arg 1 stats -c -1
rc algos 0 algos
grep -q '^\* auto' "$fake.out" && ok algos_marks_selected ||
	nok algos_marks_selected
grep -q 'avx2 *(active)' "$fake.out" && ok algos_marks_active ||
	nok algos_marks_active
json algos_json algos
rc get 0 get caps/max_pq
[ "$(cat "$fake.out")" = 255 ] && ok get_value || nok get_value
json get_json get algo
rc get_unknown 3 get nosuch
rc get_dir 3 get caps
rc get_escape 3 get ../../../../etc/passwd
rc get_args 1 get
rc set 0 set chan0/cpu 1
[ "$(cat "$D/chan0/cpu")" = 1 ] && ok set_round_trip || nok set_round_trip
rc set_negative 0 set chan0/cpu -1
[ "$(cat "$D/chan0/cpu")" = -1 ] && ok set_negative_value ||
	nok set_negative_value
rc set_unknown 3 set nosuch 1
rc set_args 1 set inline_issue
if [ "$(id -u)" != 0 ]; then
	rc set_readonly 5 set algo_active x
else
	ok "set_readonly # SKIP root ignores file modes"
fi
rc rdma_not_loaded 2 rdma
mkdir -p "$D/rdma/rxe0"
for f in port qps ops_inflight ops_done ops_failed tx_bytes rx_bytes mrs \
	mrs_in_use; do
	put rdma/rxe0/$f 3
done
put rdma/rxe0/ec_engine none
put rdma/rxe0/provider cpu
rc rdma 0 rdma
grep -q '^rxe0  *none  *cpu  *3  *3' "$fake.out" && ok rdma_lists_device ||
	nok rdma_lists_device
json rdma_json rdma
"$tool" --sysfs-root "$fake" --json rdma | python3 -c 'import json, sys
d = json.load(sys.stdin)["rdma"][0]
sys.exit(not (d["device"] == "rxe0" and d["ec_engine"] == "none" and d["tx_bytes"] == 3))' &&
	ok rdma_json_fields || nok rdma_json_fields
rc status_with_rdma 0 status
grep -q 'rdma  *rxe0 (ec_engine none)' "$fake.out" && ok status_lists_rdma ||
	nok status_lists_rdma
json status_rdma_json status
rc rdma_args 1 rdma rxe0
rc reset 0 reset
[ "$(cat "$D/stats/reset")" = 1 ] && ok reset_writes_1 || nok reset_writes_1
rc reset_args 1 reset now
rc watch 0 watch -i 1 -n 2
[ "$(wc -l <"$fake.out")" = 3 ] && ok watch_lines || nok watch_lines
json watch_json watch -i 1 -n 2
rc watch_bad_interval 1 watch -i 0
rc watch_bad_count 1 watch -n x
printf '{"a": [1, -2.5e3, "x\\"y", true, false, null, {}]}' |
	"$tool" json-validate && ok json_validate_good || nok json_validate_good
for bad in '{"a": }' '[1,]' '{"a" 1}' '"abc' '01' ''; do
	printf '%s' "$bad" | "$tool" json-validate 2>/dev/null
	[ $? = 4 ] && ok "json_validate_rejects '$bad'" ||
		nok "json_validate_rejects '$bad'"
done
# ---- md and doctor: a fake host per case, from one healthy base ----------
# base: ecdma loaded (offload auto, in the table, accepting), async_tx holds
# both channels, md0 RAID6 clean, md1 RAID1, kernel config as Debian's, an
# AVX2 CPU with algo avx2
H=$fake.host
mkhost() {
	local h=$1 d m
	d=$h/sys/devices/platform/ecdma
	mkdir -p "$h/sys/module/ecdma" "$d/caps" "$d/stats" "$d/chan0" \
		"$d/chan1" "$h/sys/class/dma/dma0chan0" \
		"$h/sys/class/dma/dma0chan1" "$h/sys/class/iommu" \
		"$h/proc/sys/kernel" "$h/boot"
	echo 0.1.0 >"$h/sys/module/ecdma/version"
	echo 2 >"$d/channels"
	echo auto >"$d/offload"
	echo "accept spread=1 spare_cpu=1 spare_pct=60 switches=2 spread_windows=9 copies=0 table=in table_switches=4 trials=3 kept=2 last_trial_io=4096/3000 trial_by=io trial_every_ms=16000 trial_slot=0 load=write aborted=0 trial_cost_ms=250 thin=0" \
		>"$d/offload_state"
	echo "memcpy xor xor_val pq pq_val interrupt async_tx" >"$d/caps/ops"
	printf 'ppl_xor armed 3\ncb_at_submit armed 17\n' >"$d/md_guards"
	echo "[auto] generic avx2" >"$d/algo"
	echo avx2 >"$d/algo_active"
	for c in 0 1; do
		echo dma0chan$c >"$d/chan$c/dma_chan"
		echo 1 >"$h/sys/class/dma/dma0chan$c/in_use"
	done
	for op in memcpy xor xor_val pq pq_val interrupt; do
		echo 7 >"$d/stats/${op}_ops"
		echo 28672 >"$d/stats/${op}_bytes"
	done
	echo 123456 >"$d/stats/pq_bytes"
	m=$h/sys/block/md0/md
	mkdir -p "$m"/dev-ram0 "$m"/dev-ram1 "$m"/dev-ram2 "$m"/dev-ram3 \
		"$h/sys/block/md1/md/dev-sda1" "$h/sys/block/md1/md/dev-sdb1" \
		"$h/sys/block/sda"
	echo raid6 >"$m/level"
	echo clean >"$m/array_state"
	echo 4 >"$m/raid_disks"
	echo 0 >"$m/degraded"
	echo idle >"$m/sync_action"
	echo 2 >"$m/group_thread_cnt"
	echo 4096 >"$m/stripe_cache_size"
	echo 0 >"$m/rmw_level"
	echo resync >"$m/consistency_policy"
	echo none >"$m/reshape_position"
	for r in 0 1 2; do echo in_sync >"$m/dev-ram$r/state"; done
	echo faulty >"$m/dev-ram3/state"
	m=$h/sys/block/md1/md
	echo raid1 >"$m/level"
	echo active >"$m/array_state"
	echo 2 >"$m/raid_disks"
	echo 0 >"$m/degraded"
	echo idle >"$m/sync_action"
	echo in_sync >"$m/dev-sda1/state"
	echo in_sync >"$m/dev-sdb1/state"
	echo 6.1.0-56-amd64 >"$h/proc/sys/kernel/osrelease"
	printf 'CONFIG_DMA_ENGINE=y\nCONFIG_ASYNC_TX_DMA=y\nCONFIG_MD_RAID456=m\n' \
		>"$h/boot/config-6.1.0-56-amd64"
	echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro swiotlb=noforce" \
		>"$h/proc/cmdline"
	printf 'processor\t: 0\nflags\t\t: fpu sse2 avx avx2 bmi2\n\n' \
		>"$h/proc/cpuinfo"
}
mkhost "$H"
# variant <name>: a copy of the base host, path in $V
variant() {
	V=$fake.$1
	rm -rf "$V"
	cp -a "$H" "$V"
}
state() {
	sed -i "s|$1|$2|" "$V/sys/devices/platform/ecdma/offload_state"
}
# out of async_tx's table the policy clears async_tx from caps/ops
uncap() {
	echo "memcpy xor xor_val pq pq_val interrupt" \
		>"$V/sys/devices/platform/ecdma/caps/ops"
}
# hrc <name> <want> <host> <args...>: exit code with --root <host>
hrc() {
	local name=$1 want=$2 h=$3 got
	shift 3
	"$tool" --root "$h" "$@" >"$fake.out" 2>"$fake.err"
	got=$?
	if [ "$got" = "$want" ]; then ok "$name"; else
		nok "$name # exit $got, want $want: $(head -1 "$fake.err")"; fi
}
# out <name> <regex> / err <name> <regex>: the last command's output
out() { grep -Eq -- "$2" "$fake.out" && ok "$1" || nok "$1 # no /$2/"; }
err() { grep -Eq -- "$2" "$fake.err" && ok "$1" || nok "$1 # no /$2/"; }
# pyj <name> <python expression on d> <host> <args...>: --json output
pyj() {
	local name=$1 expr=$2 h=$3
	shift 3
	if "$tool" --root "$h" --json "$@" >"$fake.json"; [ $? -le 8 ] &&
	   "$tool" json-validate <"$fake.json" &&
	   python3 -c 'import json, sys
d = json.load(sys.stdin)
sys.exit(0 if ('"$expr"') else 1)' <"$fake.json"; then
		ok "$name"
	else
		nok "$name"
	fi
}

hrc md_exit_0 0 "$H" md
out md_table_row_raid6 '^md0 +raid6 +4 +clean +0 +idle +2 +4096 +yes$'
out md_members_state '^md0 members: ram0 \(in_sync\) .* ram3 \(faulty\)$'
out md_raid6_offloaded "^md0 offloaded: yes: async_tx hands md's parity to ecdma \(offload=auto, in async_tx's channel table, accepting\)"
out md_raid1_not_offloaded '^md1 offloaded: no: raid1 computes no parity through async_tx'
out md_totals_per_device 'ecdma counts per device,'
out md_totals_pq '^pq +7 +123456$'
pyj md_json 'd["arrays"][0]["name"] == "md0" and d["arrays"][0]["offloaded"] is True and d["arrays"][1]["offloaded"] is False and d["arrays"][1]["group_thread_cnt"] is None and d["arrays"][0]["members"][3]["state"] == "faulty" and d["ecdma"]["totals"]["pq"]["bytes"] == 123456 and d["ecdma"]["totals_per"] == "device" and d["ecdma"]["offload_state"]["table"] == "in"' "$H" md
python3 -m json.tool <"$fake.json" >/dev/null && ok md_json_tool || nok md_json_tool

variant rmw
echo 1 >"$V/sys/block/md0/md/rmw_level"
hrc md_rmw 0 "$V" md
out md_rmw_note '^md0 note: rmw_level 1: md computes RAID6 read-modify-write on the CPU'

variant nomod
rm -rf "$V/sys/module/ecdma" "$V/sys/devices/platform/ecdma"
hrc md_not_loaded 0 "$V" md
out md_not_loaded_reason '^md0 offloaded: no: ecdma is not loaded$'
out md_not_loaded_fix '^md0 fix: modprobe ecdma'
out md_not_loaded_totals 'ecdma totals: none \(ecdma is not loaded\)'
pyj md_not_loaded_json 'd["ecdma"]["loaded"] is False and d["ecdma"]["totals"] is None and d["arrays"][0]["fix"].startswith("modprobe")' "$V" md

variant nodev
rm -rf "$V/sys/devices/platform/ecdma"
hrc md_no_device 0 "$V" md
out md_no_device_reason '^md0 offloaded: no: ecdma is loaded but registered no device$'

variant never
echo never >"$V/sys/devices/platform/ecdma/offload"
state table=in table=withdrawn
uncap
hrc md_never 0 "$V" md
out md_never_reason '^md0 offloaded: no: offload=never'
out md_never_fix '^md0 fix: ecdmactl set offload auto$'

variant withdrawn
state table=in table=withdrawn
uncap
state trials=3 trials=5
state kept=2 kept=1
state last_trial_io=4096/3000 last_trial_io=100/200
state trial_cost_ms=250 trial_cost_ms=750
hrc doctor_withdrawn 0 "$V" doctor
out doctor_withdrawn_table_info "^info +table +offload=auto: out of async_tx's channel table \(table=withdrawn\)"
hrc md_withdrawn 0 "$V" md
out md_withdrawn_verdict "^md0 offloaded: no: out of async_tx's channel table: auto's verdict for the write load is md alone \(trials 5, kept 1, last_trial_io 100/200 sectors in/out, trial_cost_ms 750\)$"
pyj md_withdrawn_json 'd["arrays"][0]["offload"] == "no" and "trials 5" in d["arrays"][0]["reason"] and d["ecdma"]["offload_state"]["kept"] == 1' "$V" md
state trial_every_ms=16000 trial_every_ms=0
hrc md_not_judged 0 "$V" md
out md_not_judged_reason "^md0 offloaded: no: out of async_tx's channel table: the write load is not judged yet, md alone until its first trial \(trials 5,"
state trial_every_ms=0 trial_every_ms=16000
state trial_slot=0 trial_slot=4
hrc md_trial 0 "$V" md
out md_trial_slot "^md0 offloaded: no: out of async_tx's channel table for an auto trial \(slot 4 of 4, write load; trials 5,"
state trial_slot=4 trial_slot=0
state load=write load=none
hrc md_rest 0 "$V" md
out md_rest_reason "^md0 offloaded: no: out of async_tx's channel table, resting: no I/O"

variant decline
state '^accept' decline
hrc md_decline 0 "$V" md
out md_decline_partly '^md0 offloaded: partly: .*auto declines P\+Q'

variant caps
uncap
hrc md_caps 0 "$V" md
out md_caps_reason "^md0 offloaded: no: ecdma's caps/ops lacks async_tx while in the table"
hrc doctor_caps 8 "$V" doctor
out doctor_caps_warn '^warn +caps +caps/ops lacks async_tx'

variant notheld
echo 0 >"$V/sys/class/dma/dma0chan0/in_use"
echo 0 >"$V/sys/class/dma/dma0chan1/in_use"
hrc md_chans_not_held 0 "$V" md
out md_chans_not_held_reason "^md0 offloaded: no: async_tx holds none of ecdma's 2 channels"

variant inactive
echo inactive >"$V/sys/block/md0/md/array_state"
hrc md_inactive 0 "$V" md
out md_inactive_reason '^md0 offloaded: no: the array is not running \(array_state inactive\)$'

variant noarrays
rm -rf "$V/sys/block/md0" "$V/sys/block/md1"
hrc md_no_arrays 0 "$V" md
out md_no_arrays_message '^no md arrays'
pyj md_no_arrays_json 'd["arrays"] == []' "$V" md
rm -rf "$V/sys/block"
hrc md_no_block_dir 0 "$V" md
out md_no_block_dir_message '^no md arrays'

variant missing
rm "$V/sys/block/md0/md/level"
hrc md_missing_file 3 "$V" md
err md_missing_file_named "cannot read $V/sys/block/md0/md/level: No such file"
variant garbled
echo four >"$V/sys/block/md0/md/raid_disks"
hrc md_garbled_file 7 "$V" md
err md_garbled_file_named "$V/sys/block/md0/md/raid_disks: 'four' is not a number"
echo 4 >"$V/sys/block/md0/md/raid_disks"
echo sleepy >"$V/sys/block/md0/md/array_state"
hrc md_garbled_state 7 "$V" md
err md_garbled_state_named "$V/sys/block/md0/md/array_state: unexpected 'sleepy'"
hrc md_args 1 "$H" md md0

# doctor
hrc doctor_healthy 0 "$H" doctor
out doctor_healthy_says '^healthy: no warn or error finding$'
out doctor_module_ok '^ok +module +ecdma 0\.1\.0 is loaded'
out doctor_kconfig_ok '^ok +async_tx_dma +CONFIG_ASYNC_TX_DMA=y'
out doctor_channels_ok "^ok +channels +async_tx holds ecdma's 2 channels"
out doctor_md_ok '^ok +md\.md0 '
out doctor_md_raid1_info '^info +md\.md1 +raid1'
pyj doctor_json_healthy 'd["healthy"] is True and all(set(f) == {"id", "severity", "message", "fix"} and f["severity"] in ("ok", "info") for f in d["findings"])' "$H" doctor

variant sb
rm -rf "$V/sys/module/ecdma" "$V/sys/devices/platform/ecdma"
mkdir -p "$V/sys/firmware/efi/efivars" "$V/sys/kernel/security" \
	"$V/sys/module/module/parameters"
printf '\006\000\000\000\001' \
	>"$V/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
echo "none [integrity] confidentiality" >"$V/sys/kernel/security/lockdown"
echo N >"$V/sys/module/module/parameters/sig_enforce"
hrc doctor_unloaded_secure_boot 8 "$V" doctor
out doctor_module_error '^error +module +ecdma is not loaded'
out doctor_secure_boot_warn '^warn +secure_boot +Secure Boot is on'
out doctor_lockdown_warn "^warn +lockdown +kernel lockdown is 'integrity'"
out doctor_sig_enforce_ok '^ok +sig_enforce'
out doctor_points_at_secure_boot_doc 'fix: .*Documentation/admin-guide/secure-boot\.rst'
pyj doctor_json_problem 'd["healthy"] is False and {"module": "error", "secure_boot": "warn", "lockdown": "warn"}.items() <= {f["id"]: f["severity"] for f in d["findings"]}.items()' "$V" doctor
printf '\006\000\000\000\000' \
	>"$V/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
echo Y >"$V/sys/module/module/parameters/sig_enforce"
hrc doctor_sig_enforce 8 "$V" doctor
out doctor_secure_boot_off '^ok +secure_boot +Secure Boot is off'
out doctor_sig_enforce_warn '^warn +sig_enforce'
# md's features and ecdma's guards of them (issue 59)
hrc doctor_guards 0 "$H" doctor
out doctor_guards_ok '^ok +md_guards +md.s async_tx calls are guarded: ppl_xor armed \(3 PPL recovery calls mended\), 17 compute'
grep -q 'md\.md0\.' "$fake.out" && nok doctor_no_feature_no_finding ||
	ok doctor_no_feature_no_finding
variant ppl
M=$V/sys/block/md0/md
echo raid5 >"$M/level"
echo ppl >"$M/consistency_policy"
echo 1536 >"$M/reshape_position"
hrc doctor_ppl_guarded 0 "$V" doctor
out doctor_ppl_ok '^ok +md\.md0\.ppl +md0 closes the write hole with PPL: .* guard is armed'
out doctor_reshape_info '^info +md\.md0\.reshape +md0 is reshaping \(at sector 1536\)'
printf 'ppl_xor failed -22 0\ncb_at_submit armed 0\n' \
	>"$V/sys/devices/platform/ecdma/md_guards"
hrc doctor_ppl_unguarded 8 "$V" doctor
out doctor_guards_failed_error '^error +md_guards +the guard of md.s PPL recovery is failed'
out doctor_ppl_error '^error +md\.md0\.ppl +md0 uses PPL and the guard of its recovery is not armed \(failed\)'
out doctor_ppl_fix 'fix: echo never > /sys/devices/platform/ecdma/offload before assembling'
rm "$V/sys/devices/platform/ecdma/md_guards"
hrc doctor_no_guards_file 8 "$V" doctor
out doctor_no_guards_warn '^warn +md_guards +no md_guards file'
variant journal
M=$V/sys/block/md0/md
echo journal >"$M/consistency_policy"
echo "write-through [write-back]" >"$M/journal_mode"
hrc doctor_journal 0 "$V" doctor
out doctor_journal_ok '^ok +md\.md0\.journal +md0 has a write-back journal: .*declines copies \(copies=0\)'
state copies=0 copies=1
hrc doctor_journal_copies_taken 8 "$V" doctor
out doctor_journal_copies_warn '^warn +md\.md0\.journal .*\(copies=1\)'
variant nomodppl
echo ppl >"$V/sys/block/md0/md/consistency_policy"
rm -rf "$V/sys/module/ecdma" "$V/sys/devices/platform/ecdma"
hrc doctor_ppl_not_loaded 8 "$V" doctor
grep -q 'md\.md0\.ppl' "$fake.out" && nok doctor_ppl_nothing_without_ecdma ||
	ok doctor_ppl_nothing_without_ecdma

hrc doctor_loaded_skips_signing 0 "$H" doctor
grep -q secure_boot "$fake.out" && nok doctor_loaded_no_signing ||
	ok doctor_loaded_no_signing

variant kconfig
printf 'CONFIG_DMA_ENGINE=y\n# CONFIG_ASYNC_TX_DMA is not set\n' >"$V/kconfig"
hrc doctor_kconfig_async_tx_dma 8 "$V" doctor --kconfig "$V/kconfig"
out doctor_kconfig_error "^error +async_tx_dma +the kernel lacks CONFIG_ASYNC_TX_DMA \(n in $V/kconfig\)"
out doctor_kconfig_dma_engine_ok '^ok +dma_engine'
printf 'CONFIG_DMA_ENGINE=y\n# CONFIG_ASYNC_TX_DMA is not set\n' \
	>"$V/boot/config-6.1.0-56-amd64"
hrc doctor_boot_config 8 "$V" doctor
out doctor_boot_config_used "^error +async_tx_dma .*$V/boot/config-6\.1\.0-56-amd64"
hrc doctor_bad_kconfig 1 "$V" doctor --kconfig "$V/nosuch"
err doctor_bad_kconfig_named "cannot read --kconfig $V/nosuch: No such file"
hrc doctor_kconfig_other_command 1 "$V" md --kconfig "$V/kconfig"
rm "$V/boot/config-6.1.0-56-amd64"
hrc doctor_no_kconfig 0 "$V" doctor
out doctor_no_kconfig_info '^info +kconfig +kernel config not found'
if command -v gzip >/dev/null; then
	printf 'CONFIG_DMA_ENGINE=y\nCONFIG_ASYNC_TX_DMA=m\n' | gzip >"$V/proc/config.gz"
	hrc doctor_config_gz 8 "$V" doctor
	out doctor_config_gz_read "^error +async_tx_dma +the kernel lacks CONFIG_ASYNC_TX_DMA \(m in $V/proc/config\.gz\)"
else
	ok "doctor_config_gz # SKIP no gzip"
fi

variant iommu
mkdir -p "$V/sys/class/iommu/dmar0"
echo "root=/dev/sda1 intel_iommu=on" >"$V/proc/cmdline"
hrc doctor_iommu_registered 0 "$V" doctor
out doctor_iommu_info '^info +iommu +IOMMU active \(dmar0; intel_iommu=on\); it does not translate'
rm -rf "$V/sys/devices/platform/ecdma"
hrc doctor_iommu_unregistered 8 "$V" doctor
out doctor_iommu_warn '^warn +iommu +IOMMU active \(dmar0; intel_iommu=on\): ecdma refuses'
out doctor_iommu_fix 'fix: .*iommu=pt'
out doctor_device_error '^error +device +ecdma is loaded but registered no device'

variant swiotlb
echo "root=/dev/sda1 swiotlb=65536,force" >"$V/proc/cmdline"
hrc doctor_swiotlb 8 "$V" doctor
out doctor_swiotlb_error '^error +swiotlb +swiotlb=force on the kernel command line'

variant algo
echo generic >"$V/sys/devices/platform/ecdma/algo_active"
echo "auto [generic] avx2" >"$V/sys/devices/platform/ecdma/algo"
hrc doctor_algo_generic 8 "$V" doctor
out doctor_algo_warn '^warn +algo +algo generic \(no SIMD\) active although the CPU has avx2 \(selected: generic'
out doctor_algo_fix 'fix: ecdmactl set algo auto'
printf 'processor\t: 0\nflags\t\t: fpu sse2 avx avx2 avx512f avx512bw avx512vl gfni\n' \
	>"$V/proc/cpuinfo"
echo "[auto] generic avx2 avx512 avx2-gfni avx512-gfni" \
	>"$V/sys/devices/platform/ecdma/algo"
echo avx512-gfni >"$V/sys/devices/platform/ecdma/algo_active"
hrc doctor_algo_best 0 "$V" doctor
out doctor_algo_best_ok '^ok +algo +algo avx512-gfni active'
printf 'processor\t: 0\nflags\t\t: fpu sse2\n' >"$V/proc/cpuinfo"
echo generic >"$V/sys/devices/platform/ecdma/algo_active"
hrc doctor_algo_no_avx2 0 "$V" doctor
out doctor_algo_no_avx2_ok '^ok +algo +algo generic active'

variant never2
echo never >"$V/sys/devices/platform/ecdma/offload"
state table=in table=withdrawn
uncap
hrc doctor_array_not_offloaded 8 "$V" doctor
out doctor_array_warn '^warn +md\.md0 +raid6 clean: not offloaded: offload=never'
out doctor_array_fix 'fix: ecdmactl set offload auto'
out doctor_array_problem_count '^1 problem \(warn or error\) found$'

variant notheld2
echo 0 >"$V/sys/class/dma/dma0chan0/in_use"
echo 0 >"$V/sys/class/dma/dma0chan1/in_use"
hrc doctor_chans_not_held 8 "$V" doctor
out doctor_chans_warn "^warn +channels +async_tx holds none of ecdma's 2 channels"
rm -rf "$V/sys/block"
hrc doctor_chans_idle_no_arrays 0 "$V" doctor
out doctor_chans_idle_info "^info +channels .*it takes them when raid456 loads"
out doctor_no_arrays_info '^info +md +no md arrays$'

hrc sysfs_root_beats_root 2 "$H" --sysfs-root /nonexistent status
hrc root_sets_sysfs 0 "$H" status

# trace: a saved trace (--from), then the live path's refusals on fake
# hosts (the live recording itself: selftests/vm/ecdmactl.sh)
T=$fake.trace
cat >"$T" <<'EOF'
# tracer: nop
 md0_raid6-241 [000] ...2. 38.68: ecdma_desc_complete: chan=0 desc=ff01 cookie=23 op=pq len=4096 status=0 latency=9402774 callback=1
 md0_raid6-241 [000] ...2. 38.69: ecdma_desc_complete: chan=0 desc=ff02 cookie=24 op=pq len=4096 status=0 latency=2500 callback=1
 md0_raid6-241 [001] ...2. 38.70: ecdma_desc_complete: chan=1 desc=ff03 cookie=7 op=xor len=4096 status=-5 latency=700 callback=0
 md0_raid6-241 [001] ...2. 38.70: ecdma_desc_submit: chan=1 desc=ff03 cookie=8 op=xor len=4096
 kworker/1:1-30 [001] ...2. 38.71: ecdma_decline: chan=0 op=memcpy why=pool_dry err=-12
 kworker/1:1-30 [001] ...2. 38.72: ecdma_decline: chan=0 op=memcpy why=newreason err=-12
 md0_raid6-241 [000] ...2. 38.72: ecdma_decline: chan=0 op=pq why=paced err=-16
 kworker/1:1-30 [001] ...2. 38.73: ecdma_fallback: chan=0 op=pq err=-5 tries=1 status=-5
 kworker/1:1-30 [001] ...2. 38.74: ecdma_trial_verdict: kind=write verdict=out in=100 out=120 ratio=83% thin=0 aborted=0 trials=3 kept=1
 md0_raid6-241 [000] ...2. 38.75: ecdma_desc_complete: chan=0 desc=ff04 cookie=25 op=pq len=40
EOF
hrc trace_from 0 "$H" trace --from "$T"
out trace_from_count '^3 descriptors completed, 0 events lost$'
out trace_from_pq_row '^pq +2 +0 +4702\.6 +4 +16384 +9402\.8$'
out trace_from_xor_error '^xor +1 +1 '
out trace_from_hist '^ +8192 \.\. 16384 +1 \|#+$'
out trace_from_declines '^declines: 3 pool_dry=1 paced=1 other=1$'
out trace_from_fallbacks '^fallbacks: 1 \(1 failed\)$'
out trace_from_verdict '^last verdict: kind=write verdict=out in=100 .*ratio=83%'
pyj trace_from_json 'd["ops"]["pq"]["count"] == 2 and sum(d["ops"]["pq"]["hist_us"]) == 2 and d["ops"]["xor"]["errors"] == 1 and d["declines"] == {"pool_dry": 1, "paced": 1, "other": 1} and d["verdicts_out"] == 1' "$H" trace --from "$T"
hrc trace_from_missing 3 "$H" trace --from "$fake.none"
hrc trace_bad_seconds 1 "$H" trace 0
hrc trace_seconds_and_from 1 "$H" trace 2 --from "$T"
hrc trace_from_elsewhere 1 "$H" status --from "$T"
hrc trace_no_tracefs 3 "$H" trace 1
err trace_no_tracefs_says '^ecdmactl: tracefs is not mounted'
variant tr1
mkdir -p "$V/sys/kernel/tracing/instances"
rm -rf "$V/sys/module/ecdma"
hrc trace_not_loaded 2 "$V" trace 1
mkdir -p "$V/sys/module/ecdma" "$V/sys/kernel/tracing/events/ecdma"
# a fake tracefs: the instance made is a plain directory, its events
# cannot be enabled; the instance goes away again
hrc trace_instance_fails 3 "$V" trace 1
err trace_instance_fails_says 'instances/ecdmactl-[0-9]+/events/ecdma/ecdma_desc_complete/enable: No such file'
[ -z "$(ls "$V/sys/kernel/tracing/instances")" ] &&
	ok trace_instance_removed || nok trace_instance_removed
echo "1..$n"
[ $failed = 0 ]
