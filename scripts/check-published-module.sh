#!/usr/bin/env bash
# Checks that a published module built what Maven Central takes of it: the jar, a sources jar with
# its Java sources and a javadoc jar with its pages (a module without code: the two jars), and that
# the jar carries the project's licence and names its automatic module. Run by
# the release profile (pom.xml) at verify, once per published module:
#   check-published-module.sh PACKAGING BUILD_DIRECTORY FINAL_NAME
# A module packaged as a POM (the parent, the BOM) publishes its POM alone, which the release
# profile's enforcer rules check.
set -euo pipefail

packaging="$1"
directory="$2"
name="$3"

if [ "$packaging" = pom ]; then
	exit 0
fi

fail() {
	echo "check-published-module: $*" >&2
	exit 1
}

jar="${JAVA_HOME:+$JAVA_HOME/bin/}jar"

entries() {
	"$jar" tf "$1" || fail "cannot read $1"
}

main="$directory/$name.jar"
sources="$directory/$name-sources.jar"
javadoc="$directory/$name-javadoc.jar"
for file in "$main" "$sources" "$javadoc"; do
	[ -s "$file" ] || fail "missing or empty: $file"
done
# Each listing is read whole before it is searched (grep -q would stop reading it early).
main_entries="$(entries "$main")"
grep -qx 'META-INF/LICENSE' <<<"$main_entries" || fail "no META-INF/LICENSE in $main"
# A starter has no code of its own, and its sources and javadoc jars only say so.
if grep -q '\.class$' <<<"$main_entries"; then
	grep -q '\.java$' <<<"$(entries "$sources")" || fail "no Java sources in $sources"
	grep -qx 'index.html' <<<"$(entries "$javadoc")" || fail "no index.html in $javadoc"
fi
manifest="$(mktemp -d)"
(cd "$manifest" && "$jar" xf "$main" META-INF/MANIFEST.MF)
grep -q '^Automatic-Module-Name: io\.github\.idempotency\.' "$manifest/META-INF/MANIFEST.MF" \
	|| fail "no Automatic-Module-Name in $main"
rm -r "$manifest"
echo "check-published-module: $(basename "$main"), $(basename "$sources"), $(basename "$javadoc")"
