#!/usr/bin/env bash
# Downloads the 32 large CUTE models of the nl-large benchmark (AMPL .nl files,
# n = 1,000 to 20,200; R. Vanderbei's AMPL translations) into DIR (default
# /tmp/nl-large), with the LICENSE they are distributed under.
#
# Source: the folder ampl_models/ of the public, MIT-licensed repository
# https://github.com/cvanaret/Uno at the pinned commit below, the last one that
# holds the folder (the next, 15db1d2, removed it). Each file is checked
# against its SHA-256 below; a file that does not match is deleted and the
# script exits 1. Files already in DIR with the right sum are not fetched again.
#
# Usage: scripts/fetch-nl-large.sh [DIR]
# Needs curl (or wget) and sha256sum (or shasum).
# QPM_NL_LARGE_BASE replaces the base address, e.g. a local copy of the
# repository at that commit (file:///path/to/uno, holding ampl_models/ and
# LICENSE) to run the script offline.
set -euo pipefail

dir=${1:-/tmp/nl-large}
commit=cdd18cbeaabdd8bcb9d8f8def12a98973098cd10
base=${QPM_NL_LARGE_BASE:-https://raw.githubusercontent.com/cvanaret/Uno/$commit}
base=${base%/}

# SHA-256 of each file at that commit (LICENSE: Uno's MIT license).
sums='
233832068765015799e802c6f9b75569acdd4371fabf57a4fad34e4ce9d536ac  ampl_models/aug2d.nl
06b1e035df0e7a31e37120ebf5f001f3782c2c7eee30b7489429fc3d287a1847  ampl_models/aug2dcqp.nl
b5b9fbd44677c8f4c80d7cca9c667d0de94f62135d5e1b5382058cb8e72669a7  ampl_models/aug2dqp.nl
a866277b3d196e03813b8f4e2191e22f60312659bc58b4d9ee0bcecf7ef6294d  ampl_models/aug3dcqp.nl
254c11ec0e8a97e29a3431edbae662fd6774d4112c107aae05fc3e5336f43646  ampl_models/bratu2d.nl
b2c7439d971d25f2866451d703d86de2111e8ddaa43b9d7dabcbf47d5ca7541a  ampl_models/bratu3d.nl
1e2482d88f5c1ae579de50d322e80da6216dd29f1d3c04f7b3d00f3a2468bf3d  ampl_models/broydnbd.nl
90fa957856ed1380728f9a45dec0fcfd40fa757d15ff2e31942cba0dab7d0c86  ampl_models/brybnd.nl
00e2f3196a327ecd8f48d9ed7828bee4c37c7b21832b6eceae3f08bd2bb38c4b  ampl_models/clplatea.nl
a2c9364658cde0566b6ee76579070decb156ecc97df5b23fe31517a0adf657f8  ampl_models/curly10.nl
16888ca000e8848912bf9ffde1cf481ff47c64997cdd62a708a2e117fdb45f92  ampl_models/cvxbqp1.nl
ff5a39c8f6e7a439f8afe046aeea107b425a278f33faec0e1a5d6aa94eb34eae  ampl_models/cvxqp3.nl
4edd27dbb850c72b623e7a32ddd437b7f144a6c4eb4d86914eb472bf92e25603  ampl_models/drcavty1.nl
467374cac46631711559f12dd9f6adbcb5188c282cf96d84e61ca6b723d0dd93  ampl_models/dtoc2.nl
6164ffb9948e65619912e64e9e2fb63798bf9d5faebac8991677a97ed6103982  ampl_models/dtoc3.nl
fe392896ed2eb6b15532ae8a51867721bf6b162d91c918d30b2a4b6c0daff3b6  ampl_models/dtoc5.nl
2efdb06a29919571e4084203125dce04f7536a6582d5c12c38ba05b5f0211872  ampl_models/gridnete.nl
0deaccaa7f99af379f3106216d26f1ab1096862b06388b04e240430880ad9f20  ampl_models/gridnetf.nl
9ab349665a86747cb14b16aadea5b86b08cc276ac02fbc6082a757a35ea90cf3  ampl_models/hager1.nl
e701ee67089cf62a019015c64de391e1f6139a4a939a26dd662f50faa9df0fa6  ampl_models/hager2.nl
c6400ed9f5683a93a4ccc76820a32c2dbda8b1e2613e06fa3bd27914983f4839  ampl_models/hager3.nl
221db492f6652104f6d86635c688ccdd8a1aeb5e712f01c517a79e3017cacb23  ampl_models/liswet10.nl
e59d6cbd1a03767e5898ded59254414d797e992db756796f13cca06b9c723230  ampl_models/liswet2.nl
dd79263c0eba379dd77dd2a043edbdb2b00b28ce6fd9eb0db1720addc441da27  ampl_models/liswet7.nl
17e7cb8978bbd837c69eac02422320cb01a34f91da42db725399b15ad9b18a08  ampl_models/ncvxbqp1.nl
6ccc4f6421e1e3bf40f7afc0d0da51f52f0681446f1572c1ce8bf47468264341  ampl_models/orthregd.nl
55607f89fedb1799fcf106340556ebba04c1eeff41dfdafac759c87682d82d93  ampl_models/orthrgdm.nl
37a7ae73f56ffa06d99d9ad47f9e4eecc9b833bd14251173de186af44757d76e  ampl_models/porous1.nl
4c8e7a0a989ecde2283071ff3beb6fb1eb09e149ef23c483d53ccf5ecb8bcb0a  ampl_models/sinquad.nl
125f87b8585829b8336fda6a5ef904949731eec0e72cef6bf8cb25a38e23cdf8  ampl_models/svanberg.nl
a863743eda12841d74c1f6747b6f9e65b9e3219039bf137ed95f626279dd9e0e  ampl_models/trainf.nl
70d2359435dd55e761d7eb96ba63d500dde53dc029c166bc7cdad4770f96bae5  ampl_models/ubh5.nl
98990e8d7104688d5bc027d20a1dc2e2ec45f30030b5b81fc6fc696e315cfc8e  LICENSE
'

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

# download URL FILE
download() {
  case "$1" in
    file://*) cp "${1#file://}" "$2" ;;
    *) if command -v curl >/dev/null; then curl -fsSL --retry 3 -o "$2" "$1"
       else wget -q -O "$2" "$1"; fi ;;
  esac
}

mkdir -p "$dir"
failed=0
fetched=0
while read -r sum path; do
  [ -n "$sum" ] || continue
  target="$dir/$(basename "$path")"
  if [ -f "$target" ] && [ "$(sha256 "$target")" = "$sum" ]; then continue; fi
  if ! download "$base/$path" "$target.part"; then
    echo "failed to download $base/$path" >&2
    rm -f "$target.part"; failed=1; continue
  fi
  if [ "$(sha256 "$target.part")" != "$sum" ]; then
    echo "checksum mismatch: $base/$path" >&2
    rm -f "$target.part"; failed=1; continue
  fi
  mv "$target.part" "$target"
  fetched=$((fetched + 1))
done <<< "$sums"

cat > "$dir/SOURCE" <<SOURCE
32 CUTE models in AMPL .nl form (R. Vanderbei's AMPL translations), from the
folder ampl_models/ of https://github.com/cvanaret/Uno at commit
$commit,
distributed under the MIT license in LICENSE (the repository's LICENSE at
that commit). Fetched by qpm's scripts/fetch-nl-large.sh.
SOURCE

if [ "$failed" -ne 0 ]; then
  echo "some files are missing or wrong in $dir" >&2
  exit 1
fi
echo "$dir: 32 models and LICENSE, checksums verified ($fetched fetched now)"
