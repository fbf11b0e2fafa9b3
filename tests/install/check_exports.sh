#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The installed library against its installed headers, in a DESTDIR:
#   every symbol libhwxdp.so exports is declared in an installed header,
#   every function hwxdp.map names is exported (a typo there is no export),
#   the soname is libhwxdp.so.N,
#   neither library holds the lab's helpers (netns, ip, fwd's tables),
#   each installed header compiles alone, in C11 and in C++, -Wall -Wextra -Werror.
# Usage: check_exports.sh DESTDIR PREFIX. Prints "N passed, M failed".
set -uo pipefail
root=$1 prefix=$2
inc=$root$prefix/include lib=$root$prefix/lib
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

so=$(readlink -f "$lib/libhwxdp.so")
[ -f "$so" ] || { echo "no $lib/libhwxdp.so"; echo "0 passed, 1 failed"; exit 1; }

soname=$(readelf -d "$so" | sed -nE 's/.*\(SONAME\).*\[(.*)\]/\1/p')
if [[ $soname =~ ^libhwxdp\.so\.[0-9]+$ ]] && [ -e "$lib/$soname" ]; then pass; else
	fail "soname '$soname' is not libhwxdp.so.N installed beside the library"; fi

# Defined dynamic symbols, without their version suffix.
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBRVW]/ {print $3}' | sed 's/@.*//' | sort -u)
[ -n "$exported" ] || fail "libhwxdp.so exports nothing"
headers=$(cat "$inc"/hwxdp/*.h)
for sym in $exported; do
	# A declaration: the name followed by an opening parenthesis, or an
	# object of that name.
	if grep -Eq "(^|[^A-Za-z0-9_])$sym *\(|(^|[^A-Za-z0-9_])$sym *;" <<<"$headers"; then
		pass
	else
		fail "libhwxdp.so exports $sym, which no installed header declares"
	fi
done

for sym in $(sed -nE 's/^[[:space:]]+(hwxdp_[A-Za-z0-9_]+);/\1/p' hwxdp.map); do
	if grep -qx "$sym" <<<"$exported"; then pass; else
		fail "hwxdp.map names $sym, which libhwxdp.so does not export"; fi
done

# The lab's helpers are the tree's own: no library a user links makes
# network namespaces or runs ip(8), nor knows the forwarding program.
for f in "$so" "$lib/libhwxdp.a"; do
	held=$(nm "$f" 2>/dev/null | awk '$2 ~ /[TtDdRr]/ {print $3}' |
		grep -E '^(hx_netlab_|hx_fwd_|hx_lab_)' | head -n 3 | tr '\n' ' ')
	if [ -z "$held" ]; then pass; else
		fail "$(basename "$f") holds the lab's helpers: $held"; fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in "$inc"/hwxdp/*.h; do
	name=hwxdp/$(basename "$h")
	printf '#include <%s>\n#include <%s>\nint main(void) { return 0; }\n' "$name" "$name" >"$tmp/one.c"
	if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$inc" -c "$tmp/one.c" -o "$tmp/one.o" 2>"$tmp/err"; then
		pass
	else
		fail "$name does not compile alone in C11:"; head -n 5 "$tmp/err"
	fi
	cp "$tmp/one.c" "$tmp/one.cc"
	if ${CXX:-c++} -std=c++17 -Wall -Wextra -Werror -I"$inc" -c "$tmp/one.cc" -o "$tmp/one.o" 2>"$tmp/err"; then
		pass
	else
		fail "$name does not compile alone in C++:"; head -n 5 "$tmp/err"
	fi
done

# extern "C": a C++ program links against the installed library.
cat >"$tmp/link.cc" <<'CC'
#include <hwxdp/object.h>
#include <cstring>
int main() { return std::strstr(hwxdp_strerror(-HWXDP_ERR_ELF), "ELF") ? 0 : 1; }
CC
if ${CXX:-c++} -std=c++17 -Wall -Wextra -Werror -I"$inc" "$tmp/link.cc" -L"$lib" -lhwxdp \
	-o "$tmp/link" 2>"$tmp/err" && LD_LIBRARY_PATH=$lib "$tmp/link"; then
	pass
else
	fail "a C++ program does not link against libhwxdp.so or call it:"; head -n 5 "$tmp/err"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
