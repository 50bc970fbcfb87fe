#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module signing, on the host (no VM): sign ecdma.ko the way an owner signs
# it for Secure Boot (Documentation/admin-guide/secure-boot.rst), with a
# throwaway key, and check the result.  Prints KTAP.
#
#  - a self-signed certificate with the kernel's own key settings
#    (certs/default_x509.genkey: digitalSignature, plus the codeSigning
#    extended key usage that shim's MokManager accepts), RSA 2048
#  - ecdma built for a pinned kernel (tools/testing/build.sh), a copy of
#    ecdma.ko signed with that kernel's scripts/sign-file
#  - modinfo reads the signer (the certificate's CN), the hash and the
#    key's serial number back
#  - the appended PKCS#7 verifies against the certificate over the module
#    as it was before signing; the same signature fails over a module with
#    one byte changed, and against another key
#
# Usage: sign-test.sh [kernel-tag [build-dir]]
#   kernel-tag defaults to the first pinned kernel; build-dir to
#   build/<abi>, the tree make check's other stages build (W=1), so that
#   an up-to-date tree takes no build here.
set -uo pipefail
shopt -s extglob

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
# shellcheck source=tools/testing/kernels.sh
. tools/testing/kernels.sh
tag=${1:-$(kernel_tags | head -1)}
abi=$(kernel_abi "$tag") || exit 2
out=${2:-$top/build/$abi}
kdir=/usr/src/linux-headers-$abi
cn="ecdma sign-test throwaway key"
marker='~Module signature appended~'

n=0 fail=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fail=1
	fi
}

echo "KTAP version 1"
work=$(mktemp -d "${TMPDIR:-/tmp}/ecdma-sign.XXXXXX")
trap 'rm -rf "$work"' EXIT

for t in openssl modinfo; do
	command -v "$t" >/dev/null || PATH=$PATH:/sbin:/usr/sbin
	command -v "$t" >/dev/null || { echo "# $t missing (make deps)"; result 1 "tools_present"; echo "1..$n"; exit 1; }
done
# Debian ships sign-file built in the headers package (linux-kbuild's
# scripts, linked into every linux-headers-<abi>)
sign=$kdir/scripts/sign-file
[ -x "$sign" ] || sign=$(ls /usr/lib/linux-kbuild-*/scripts/sign-file 2>/dev/null | sort -V | tail -1)
if [ ! -x "$sign" ]; then
	echo "# no scripts/sign-file for $abi"
	result 1 "sign_file_present"
	echo "1..$n"
	exit 1
fi

# keygen <dir> <cn>: a key and a self-signed certificate (DER and PEM)
keygen() {
	cat >"$1/x509.genkey" <<-EOF
	[ req ]
	default_bits = 2048
	distinguished_name = req_distinguished_name
	prompt = no
	string_mask = utf8only
	x509_extensions = myexts

	[ req_distinguished_name ]
	CN = $2

	[ myexts ]
	basicConstraints=critical,CA:FALSE
	keyUsage=digitalSignature
	extendedKeyUsage=codeSigning
	subjectKeyIdentifier=hash
	authorityKeyIdentifier=keyid
	EOF
	openssl req -new -nodes -utf8 -sha256 -days 3650 -batch -x509 \
		-config "$1/x509.genkey" -outform DER -out "$1/key.der" \
		-keyout "$1/key.priv" 2>"$1/req.log" &&
		openssl x509 -inform DER -in "$1/key.der" -out "$1/key.pem"
}

mkdir -p "$work/k1" "$work/k2"
keygen "$work/k1" "$cn" && keygen "$work/k2" "another throwaway key"
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$work/k1/req.log" "$work/k2/req.log"
result $rc "throwaway_keys_generated"

t0=$(date +%s)
blog=$(nice -n 19 tools/testing/build.sh "$tag" "$out" W=1 2>&1)
rc=$?
[ $rc = 0 ] || printf '%s\n' "$blog" | sed 's/^/# /'
echo "# build of $abi into $out: $(($(date +%s) - t0)) s"
result $rc "build_$tag"
# a copy: the tree's own ecdma.ko stays unsigned for the VM runs
ko=$work/ecdma.ko
cp "$out/drivers/ecdma/ecdma.ko" "$ko" 2>/dev/null
result $? "module_built"

[ -z "$(modinfo -F signer "$ko" 2>/dev/null)" ] && ! grep -q "$marker" "$ko"
result $? "unsigned_before_signing"
cp "$ko" "$work/orig.ko"

"$sign" sha256 "$work/k1/key.priv" "$work/k1/key.der" "$ko" 2>&1 | sed 's/^/# /'
rc=${PIPESTATUS[0]}
result "$rc" "sign_file_sha256"

signer=$(modinfo -F signer "$ko" 2>/dev/null)
echo "# signer: $signer"
[ "$signer" = "$cn" ]
result $? "modinfo_signer_is_cert_cn"
[ "$(modinfo -F sig_hashalgo "$ko" 2>/dev/null)" = sha256 ]
result $? "modinfo_sig_hashalgo_sha256"
# modinfo prints the serial as colon-separated hex, openssl as plain hex
serial=$(openssl x509 -inform DER -in "$work/k1/key.der" -noout -serial | sed 's/.*=//')
key=$(modinfo -F sig_key "$ko" 2>/dev/null | tr -d ':\n\t ')
echo "# sig_key: $key, certificate serial: $serial"
key=${key^^} serial=${serial^^}
[ -n "$key" ] && [ "${key##+(0)}" = "${serial##+(0)}" ]
result $? "modinfo_sig_key_is_cert_serial"

# sig_split <signed.ko> <prefix>: <prefix>.body (what was signed) and
# <prefix>.p7s (the PKCS#7).  The module ends with the PKCS#7, struct
# module_signature (12 bytes: algo, hash, id_type = 2 for PKCS#7,
# signer_len, key_id_len, 3 pad, then the PKCS#7's length, big-endian)
# and the marker line.
sig_split() {
	local size mlen siglen idtype
	size=$(stat -c %s "$1")
	mlen=$((${#marker} + 1))
	[ "$(tail -c "$mlen" "$1")" = "$marker" ] || return 1
	idtype=$(tail -c $((mlen + 12)) "$1" | head -c 3 | tail -c 1 | od -An -tu1 | tr -d ' ')
	siglen=$(tail -c $((mlen + 4)) "$1" | head -c 4 | od -An -tu1 |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	echo "# module_signature: id_type $idtype, signature $siglen bytes"
	[ "$idtype" = 2 ] && [ "$siglen" -gt 0 ] &&
		[ "$siglen" -lt $((size - mlen - 12)) ] || return 1
	head -c $((size - mlen - 12 - siglen)) "$1" >"$2.body"
	tail -c $((mlen + 12 + siglen)) "$1" | head -c "$siglen" >"$2.p7s"
}

sig_split "$ko" "$work/s"
result $? "signature_trailer_parsed"
cmp -s "$work/s.body" "$work/orig.ko"
result $? "signed_content_is_the_unsigned_module"

# verify <body> <p7s> <cert.pem>: the signature over <body> by that key
# (-noverify: a self-signed leaf has no chain to check; the signature is)
verify() {
	openssl cms -verify -binary -inform DER -in "$2" -content "$1" \
		-certfile "$3" -noverify -out /dev/null 2>"$work/verify.log"
}
verify "$work/s.body" "$work/s.p7s" "$work/k1/key.pem"
rc=$?
sed 's/^/# /' "$work/verify.log"
result $rc "pkcs7_verifies_against_cert"

# one byte changed in the middle of the module, the signature kept
cp "$work/s.body" "$work/t.body"
off=$(($(stat -c %s "$work/t.body") / 2))
b=$(od -An -tu1 -j "$off" -N1 "$work/t.body" | tr -d ' ')
printf '%b' "\\0$(printf %o $(((b + 1) & 255)))" |
	dd of="$work/t.body" bs=1 seek="$off" conv=notrunc status=none
! cmp -s "$work/t.body" "$work/s.body" &&
	! verify "$work/t.body" "$work/s.p7s" "$work/k1/key.pem"
rc=$?
grep -m1 -i 'fail' "$work/verify.log" | sed 's/^/# tampered: /'
result $rc "tampered_module_fails_verification"

! verify "$work/s.body" "$work/s.p7s" "$work/k2/key.pem"
rc=$?
grep -m1 -i 'fail\|error' "$work/verify.log" | sed 's/^/# other key: /'
result $rc "other_key_fails_verification"

echo "1..$n"
exit $fail
