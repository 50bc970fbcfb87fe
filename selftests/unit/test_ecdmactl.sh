#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ecdmactl against a fake sysfs tree: every subcommand, exit codes, and
# --json output checked by python3's json module (and by json-validate).
# The tool is built here with ASan/UBSan.  KTAP output.
set -u
unit=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$unit/../.." && pwd)
bin=$unit/bin
tool=$bin/ecdmactl
mkdir -p "$bin"
gcc -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-sanitize-recover=all -o "$tool" "$top/tools/ecdmactl/ecdmactl.c" ||
	{ echo "not ok 1 build"; exit 1; }

fake=$(mktemp -d)
trap 'chmod -R u+w "$fake"; rm -rf "$fake"' EXIT
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
echo "1..$n"
[ $failed = 0 ]
