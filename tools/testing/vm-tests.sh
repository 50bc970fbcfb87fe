#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the guest test suite (selftests/vm/tests.list) in QEMU for every
# pinned kernel with -cpu max (AVX2: the newest kernel with md's control
# runs, the others as make check-quick), plus one run with the plain qemu64 CPU
# so the scalar fallbacks are covered (selftests/vm/qemu64.list, the tests
# whose results depend on the algo), one boot with swiotlb=force where
# ecdma must refuse to load, one with module.sig_enforce=1 where the
# kernel must refuse the unsigned ecdma (selftests/vm/sig_enforce.sh), and
# the whole suite once more on the debug kernel
# (tools/testing/debug-kernel.sh: lockdep, KASAN, kmemleak, DMA-API
# debugging, fault injection) with preempt=full, ending with a kmemleak
# scan.  The NVMe-oF scenarios (selftests/vm/fabric.list) run in a boot of
# their own on every pinned kernel with -cpu max, and so does md on the
# simulated engine device behind an IOMMU (selftests/vm/hwsim.list).
# Every run builds its
# kernel's modules first (the debug kernel too, once), but the install
# run: tools/testing/install-lane.sh installs the Debian package on this
# machine (DKMS builds the modules for every pinned kernel), boots the
# newest kernel once with DKMS's modules (selftests/vm/install_smoke.sh)
# and purges the package, checking that nothing is left.
#
# A failing run's failing tests (each with the lines before it) and its
# console excerpt are appended to the --failures FILE (check.sh prints it
# at the end); CHECK_FAIL_FAST=1 stops after the first failing run (local
# use; ignored when CI=true).
#
# Usage: vm-tests.sh [--counts FILE] [--failures FILE] [run...]
#   a run is <kernel-tag>:<cpu>[:<kernel command line>], e.g. 6.1:max,
#   6.1:swiotlb, 6.1:sigenforce, 6.12:fabric, 6.12:hwsim, 6.12:install,
#   debug:build (the debug kernel, before the runs on it),
#   debug:max:preempt=full (the debug lane in one boot) or debug/1:...,
#   debug/2:... (its two halves; 6.12/1:max, 6.12/2:max likewise);
#   default: all of the above
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
counts=
failures=/dev/null
while [ $# -gt 1 ]; do
	case "$1" in
	--counts) counts=$2; shift 2 ;;
	--failures) failures=$2; shift 2 ;;
	*) break ;;
	esac
done
fail_fast=${CHECK_FAIL_FAST:-}
[ "${CI:-}" != true ] || fail_fast=
mapfile -t tests < <(grep -v -E '^#|^$' selftests/vm/tests.list | sed 's|^|selftests/vm/|')
mapfile -t fabric < <(grep -v -E '^#|^$' selftests/vm/fabric.list | sed 's|^|selftests/vm/|')
mapfile -t scalar < <(grep -v -E '^#|^$' selftests/vm/qemu64.list | sed 's|^|selftests/vm/|')
mapfile -t hwsim < <(grep -v -E '^#|^$' selftests/vm/hwsim.list | sed 's|^|selftests/vm/|')
mapfile -t debug < <(grep -v -E '^#|^$' selftests/vm/tests.list |
	grep -v -x -F -f <(grep -v -E '^#|^$' selftests/vm/debug-skip.list | awk '{ print $1 }') |
	sed 's|^|selftests/vm/|')
# The debug lane and the max lanes run in two boots each (<tag>/1,
# <tag>/2; the debug lane's each end with the kmemleak scan): a lane's
# guest keeps one host CPU busy, and halves let the runs end together on
# both CPUs instead of one long lane running on alone.  The second half
# starts at knobs_load.sh: the first has the module, verbs, dmatest and
# md data tests (dmatest must come before anything loads async_tx, and
# its build is in this half), the second the knobs, policy, fault and
# lifetime tests, each a fresh boot that loads what it needs.
# pick_half <part> <script...>: that half's scripts into $scripts (all
# of them for part "")
pick_half() {
	local part=$1 i
	shift
	local all=("$@") split=$(($# / 2))
	for i in "${!all[@]}"; do
		[ "${all[$i]}" != selftests/vm/knobs_load.sh ] || split=$i
	done
	case "$part" in
	1) scripts=("${all[@]:0:split}") ;;
	2) scripts=("${all[@]:split}") ;;
	*) scripts=("${all[@]}") ;;
	esac
}

# shellcheck source=tools/testing/kernels.sh
. tools/testing/kernels.sh
mapfile -t tags < <(kernel_tags)
newest=${tags[${#tags[@]} - 1]}
runs=("$@")
if [ ${#runs[@]} -eq 0 ]; then
	# The longest path first: the debug kernel's build (cold: ~1500
	# files under KASAN) is a run of its own, and the debug lane's two
	# boots wait for it (see held), as the light runs do, so that the
	# build shares the host with one boot only (it holds two slots; a
	# cold run here once spent 49 min on it beside three); then the newest kernel's max
	# lane, the others', each in two boots (pick_half), the short
	# ones.  Every stock kernel's boots, qemu64's too, run the data
	# sized for the paths (VM_SCALE=2); the newest runs the whole
	# differential md suite (md alone, the control, and md with ecdma),
	# the others md's scenarios with ecdma (MD_MODES=always), as
	# check-quick.  On a host half as fast as the one the suite grew on,
	# every kernel in full took CI past 90 min.  The oldest kernel's
	# second half boots with threadirqs (softirqs only in ksoftirqd: the
	# dry pools of knobs_load.sh hung md there before dma_cb.c)
	runs=("debug:build" "debug/1:max:preempt=full" "debug/2:max:preempt=full"
		"$newest/1:max:VM_SCALE=2" "$newest/2:max:VM_SCALE=2")
	for ((i = ${#tags[@]} - 2; i >= 0; i--)); do
		irq=
		[ "$i" -ne 0 ] || irq=" threadirqs"
		runs+=("${tags[$i]}/1:max:VM_SCALE=2 MD_MODES=always"
			"${tags[$i]}/2:max:VM_SCALE=2 MD_MODES=always$irq")
	done
	for t in "${tags[@]}"; do
		runs+=("$t:hwsim:VM_SCALE=2 MD_MODES=always")
	done
	for t in "${tags[@]}"; do
		runs+=("$t:fabric")
	done
	runs+=("${tags[0]}:qemu64:VM_SCALE=2" "${tags[0]}:swiotlb" "${tags[0]}:sigenforce" "$newest:install")
fi

# failed_lines: from a run's nested KTAP, each failing test with the eight
# lines before it, the failing scripts and runs, and the console excerpt
failed_lines() {
	awk '
		/^  # Subtest: / { sub_name = $0 }
		/^  not ok / {
			print sub_name
			for (i = NR - 8; i < NR; i++)
				if (i > 0 && (i in h)) print h[i]
			print
			next
		}
		/^not ok |^# console:|passed, .* failed, / { print; next }
		{ h[NR] = $0; delete h[NR - 9] }'
}

# run_one <run> <outfile>: one boot; its nested KTAP into <outfile>, the
# exit status of vm.sh as ours
run_one() {
	local r=$1 tag rest cpu append tmo part='' scripts
	tag=${r%%:*}
	# <tag>/1, <tag>/2: a lane's two boots (pick_half)
	case "$tag" in
	*/1|*/2) part=${tag##*/}; tag=${tag%/*} ;;
	esac
	rest=${r#*:}
	cpu=${rest%%:*}
	append=
	[ "$rest" = "$cpu" ] || append=${rest#*:}
	# the newest kernel's fabric lane runs a host thread per vCPU, so
	# that two guest CPUs also run at the same instant somewhere in the
	# suite (md RAID6 offloaded under nvmet's load); every other boot
	# runs them in turn on one thread (vm.sh --tcg), which costs the
	# host about a third less CPU for the same work (a run alone, as
	# make check-quick's, has the host to itself: a thread per vCPU)
	tcg=single
	[ "$tag" = "$newest" ] && [ "$cpu" = fabric ] && tcg=multi
	[ ${#runs[@]} -gt 1 ] || tcg=multi
	if [ "$cpu" = build ]; then
		# the kernel and the modules built, for the runs held for it
		tools/testing/build.sh "$tag" >/dev/null || {
			echo "not ok 1 build_$tag"
			touch "$work/$tag.build-failed"
			return 1
		}
		echo "# $tag kernel and modules built"
		return
	fi
	if [ "$cpu" = install ]; then
		# the package, DKMS's modules and one short boot (no build
		# tree: the modules are the ones DKMS installed)
		tools/testing/install-lane.sh --kernel "$tag" --tcg $tcg
		return
	fi
	if [ -e "$work/$tag.build-failed" ]; then
		echo "not ok build_$tag # failed in the $tag:build run"
		return 1
	fi
	# every run builds its kernel's tree, one build of a tree at a time
	# (build.sh's lock): the first does the work.  W=1 as static.sh's
	# (beside these runs in make check), so that its objects are ours
	if [ "$tag" = debug ]; then
		tools/testing/build.sh debug >/dev/null
	else
		tools/testing/build.sh "$tag" "" W=1 >/dev/null
	fi || {
		echo "not ok build_$tag"
		return 1
	}
	if [ "$cpu" = swiotlb ]; then
		# DMA bounce buffers forced: ecdma must refuse to register.
		# Its first boot never starts (QEMU's -S): vm.sh must see the
		# stall before init and boot again (boot_stall_booted_again);
		# its second is paused once its tests ended: vm.sh must see the
		# guest stop and save its state (guest_stall_dumped)
		ECDMA_VM_STALL_ONCE=1 ECDMA_BOOT_STALL=10 \
		ECDMA_VM_FREEZE=1 ECDMA_VM_STALL=15 \
			tools/testing/vm.sh --quiet --kernel "$tag" --tcg $tcg --append swiotlb=force \
			-- selftests/vm/refuse_swiotlb.sh
	elif [ "$cpu" = sigenforce ]; then
		# only signed modules load: Debian's do, the unsigned ecdma
		# must be refused (a boot of about as long as swiotlb's)
		tools/testing/vm.sh --quiet --kernel "$tag" --tcg $tcg \
			--append "module.sig_enforce=1 $append" -- selftests/vm/sig_enforce.sh
	elif [ "$cpu" = fabric ]; then
		# NVMe-oF over tcp and Soft-RoCE, -cpu max (about 4 min on a
		# stock kernel; a stuck script is cut off after 20, as in the
		# max lanes: fabric_nodes' two rebuilds over rxe, under host
		# I/O, took 324 s beside three boots and passed 600 once).  The
		# whole boot may take 2700 s as a max lane's: on a slow host
		# beside a cold debug-kernel build its guest ran at 0.4 CPU
		# and took 1200 s for four scripts that were all progressing
		tmo=2700
		[ "$tag" = debug ] && tmo=4800
		tools/testing/vm.sh --quiet --kernel "$tag" --cpu max --tcg $tcg \
			--timeout $tmo --test-timeout 1200 --append "$append" -- "${fabric[@]}"
	elif [ "$cpu" = hwsim ]; then
		# md on the simulated engine device behind the guest's IOMMU
		# (selftests/vm/hwsim.list), -cpu max
		tools/testing/vm.sh --quiet --kernel "$tag" --cpu max --tcg $tcg \
			--timeout 2700 --test-timeout 1200 \
			--qemu "-M q35 -device intel-iommu,intremap=off -device edu" \
			--append "intel_iommu=on iommu.passthrough=0 iommu.strict=1 ECDMA_HWSIM=1 $append" \
			-- "${hwsim[@]}"
	elif [ "$cpu" = qemu64 ]; then
		# scalar fallbacks: the algo-dependent part of the suite
		tools/testing/vm.sh --quiet --kernel "$tag" --cpu qemu64 --tcg $tcg \
			--timeout 2400 --append "$append" -- "${scalar[@]}"
	elif [ "$tag" = debug ]; then
		# debug-sized data (VM_SCALE), md's control runs on the stock
		# kernels only (MD_MODES); selftests/vm/debug-skip.list says
		# what does not run here and why.  no5lvl: with -cpu max's
		# LA57, an interrupt taken while identify_cpu() refills the
		# boot CPU's feature bits makes KASAN see 4-level bounds and
		# report the 5-level direct map as a wild access (seen once,
		# at 0.002 s of a boot on an overloaded host, before any
		# module): 4-level paging here, as on most hosts.  A stuck
		# script is cut off after 60 minutes of guest time, not 20: in
		# a warm run this lane runs beside every other one from the
		# start, its longest scripts outgrew 20, and md_raid outgrew 40
		# once (2026-12-03: 53 of 54 passed, cut off at 2513 guest
		# seconds of a lane that took 2142 host seconds: this guest's
		# clock can run ahead of the host's).  The lane's own 5100 s
		# still bound it (testing.rst has the runs).
		# The boot may take 85 minutes: one half, started late and
		# beside extra boots, reached 80 in its last scan (2026-11-28);
		# past 85 CI's own 90 are gone anyway
		pick_half "$part" "${debug[@]}"
		tools/testing/vm.sh --quiet --kernel "$tag" --cpu "$cpu" --tcg $tcg \
			--timeout 5100 --test-timeout 3600 \
			--append "VM_SCALE=4 MD_MODES=always no5lvl $append" \
			-- "${scripts[@]}" selftests/vm/kmemleak.sh
	else
		# about 12 minutes alone, more beside other boots (40 on a
		# slow host beside three); a stuck script is cut off after 20
		pick_half "$part" "${tests[@]}"
		tools/testing/vm.sh --quiet --kernel "$tag" --cpu "$cpu" --tcg $tcg \
			--timeout 4800 --test-timeout 1200 --append "$append" -- "${scripts[@]}"
	fi
}

rc=0

# Runs go ECDMA_VM_JOBS at a time (default: one more than the CPUs, at
# most 3), plus one light run (below) beside them when that is 2 or more:
# a lane's guest keeps at most one host CPU busy (vm.sh --tcg single),
# less while it waits for md, fio or the fabric; with the debug kernel's
# build, then its lane's two boots, three slots keep both CPUs busy to
# the end.  Output is printed a run at a time, as each ends.
jobs=${ECDMA_VM_JOBS:-$(($(nproc) + 1))}
[ "$jobs" -le 3 ] || jobs=3
[ "$jobs" -ge 1 ] || jobs=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A pid_run pid_out start pid_light
running=0 light=0 stop='' nstarted=0
pending=("${runs[@]}")

# is_light <run>: a run for the extra slot beside the $jobs others, in
# the time they leave idle: the fabric lanes wait on NVMe's timeouts (one
# keeps two thirds of a host CPU busy), swiotlb and sigenforce end at
# once, qemu64 is short, and install builds with one job and boots once;
# the debug lane and the max lanes, the long ones, then end together
# instead of one running on alone
is_light() {
	[ "$jobs" -ge 2 ] || return 1
	case "$1" in
	*:fabric|*:fabric:*|*:swiotlb|*:swiotlb:*|*:qemu64|*:qemu64:*) return 0 ;;
	*:sigenforce|*:sigenforce:*) return 0 ;;
	*:install|*:install:*) return 0 ;;
	esac
	return 1
}

# held <run>: while a kernel's build run (<tag>:build) runs, that
# kernel's other runs (<tag>:..., <tag>/N:...) wait for it, and so do
# the light ones
building=
held() {
	local t=${1%%:*}
	[ -n "$building" ] || return 1
	case "$1" in
	*:build) return 1 ;;
	esac
	[ "${t%%/*}" != "$building" ] || return 0
	is_light "$1"
}

# finish <pid> <status>: print that run and count it
finish() {
	local p=$1 vrc=$2 r=${pid_run[$1]} f=${pid_out[$1]}
	echo "# VM run: $r ($(($(date +%s) - ${start[$p]})) s, $(cpu_secs "${pid_out[$p]}.cpu") CPU s)"
	grep -v '^# ECDMA-COUNTS' "$f"
	[ -z "$counts" ] || awk -v vrc="$vrc" '/^# ECDMA-COUNTS/ { print $3, $4, $5; n++ }
		END { if (!n && vrc) print 0, 1, 0 }' "$f" >>"$counts"
	if [ "$vrc" != 0 ]; then
		rc=1
		{
			echo "# ---- run $r failed ($(($(date +%s) - ${start[$p]})) s):"
			failed_lines <"$f"
		} >>"$failures"
		if [ -n "$fail_fast" ]; then
			echo "# CHECK_FAIL_FAST: no further runs after the first failing one"
			stop=1
		fi
	fi
	# a failed build: its kernel's runs fail at their own build.sh
	[ "${r#*:}" != build ] || building=
	if [ -n "${pid_light[$p]:-}" ]; then
		light=$((light - 1))
	else
		running=$((running - $(slots "$r")))
	fi
	unset "pid_run[$p]" "pid_out[$p]" "pid_light[$p]"
}

# slots <run>: the slots it holds: a kernel's build two when there are
# three, so that when it ends its lane's two boots (the longest runs)
# start at once instead of after the runs that took the slots meanwhile
# (2026-11-28: the debug lane's second boot started 15 min late)
slots() {
	case "$1" in
	*:build) [ "$jobs" -ge 3 ] && echo 2 || echo 1 ;;
	*) echo 1 ;;
	esac
}

# start_runs: start every pending run that has a slot, in list order.
# Once no long run waits for a slot (they come first in the list), a
# free slot of theirs takes a light run too: the light ones, one at a
# time in their own slot, took 70 minutes of a run in all (2026-11-28)
start_runs() {
	local r left=() heavy_waiting=
	for r in "${pending[@]}"; do
		if [ -n "$stop" ] || held "$r"; then
			:
		elif is_light "$r" && [ $light -lt 1 ]; then
			start_run "$r" 1
			continue
		elif ! is_light "$r" && [ $((running + $(slots "$r"))) -le "$jobs" ]; then
			start_run "$r" ""
			continue
		elif is_light "$r" && [ -z "$heavy_waiting" ] && [ $running -lt "$jobs" ]; then
			start_run "$r" ""
			continue
		fi
		left+=("$r")
		is_light "$r" || heavy_waiting=1
	done
	pending=("${left[@]}")
}

# cpu_secs <file>: the host CPU seconds (user + system) that a run's
# processes took, from the "times" its subshell wrote at its end (the
# guest's and its build's: every child there was waited for)
cpu_secs() {
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, a, /[ms]/)
			t += a[1] * 60 + a[2]
		}
		printf "%d", t
	}' "$1" 2>/dev/null
}

# start_run <run> <light>: boot it in the background and count it in its slot
start_run() {
	local p n=$((nstarted += 1))
	{
		run_one "$1"
		local vrc=$?
		times >"$work/run$n.out.cpu"
		exit $vrc
	} >"$work/run$n.out" 2>&1 &
	p=$!
	pid_run[$p]=$1
	pid_out[$p]=$work/run$n.out
	pid_light[$p]=$2
	start[$p]=$(date +%s)
	[ "${1#*:}" != build ] || building=${1%%:*}
	if [ -n "$2" ]; then
		light=$((light + 1))
	else
		running=$((running + $(slots "$1")))
	fi
}

while :; do
	start_runs
	[ $((running + light)) -gt 0 ] || break
	wait -n -p done_pid
	vrc=$?
	finish "$done_pid" $vrc
done
exit $rc
