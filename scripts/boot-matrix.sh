#!/usr/bin/env bash
# The compatibility matrix: builds the published modules against each Spring Boot line the README
# says is supported, other than the one the build itself uses (spring-boot-starter-parent in
# pom.xml, tested by `./mvnw verify`), and runs a meaningful subset of the test suite on it: the
# auto-configuration context tests, the HTTP contract, the store contract on PostgreSQL, the
# starter's start-up on an existing schema and the client.
#
#   scripts/boot-matrix.sh              # the latest Spring Boot 4.0.x (below)
#   scripts/boot-matrix.sh 4.0.9 4.1.2  # any versions, one after the other
#
# Each version is built in a copy of this checkout (tracked and untracked files, not ignored
# ones) whose parent is that version of spring-boot-starter-parent; nothing is installed into the
# local Maven repository. PostgreSQL must listen on 127.0.0.1:5432 (scripts/ensure-services.sh,
# which the build runs before the first test).
set -euo pipefail
cd "$(dirname "$0")/.."

# The newest Spring Boot 4.0.x on Maven Central; raise it when a new 4.0.x is released.
LATEST_BOOT_4_0=4.0.9

# What the subset runs: every auto-configuration's context tests, the HTTP contract on PostgreSQL
# (MvcHttpContractTests, WebFluxHttpContractTests, AtomicModeWebTests), the store contract on PostgreSQL
# (PostgresJdbcIdempotencyStoreTests extends IdempotencyStoreContractTests), bean methods, the JPA
# entity in the application's persistence unit (registered one way on 4.0, another on 4.1), the
# starter on an existing schema, and the client (plain Spring Framework).
TESTS='Idempotency*AutoConfigurationTests,IdempotencyPropertiesTests,MvcHttpContractTests,WebFluxHttpContractTests,AtomicModeWebTests,PostgresJdbcIdempotencyStoreTests,MethodIdempotencyTests,IdempotencyRecordEntityTests,ExistingSchemaStartupTests,IdempotencyKeyRetryInterceptorTests'
MODULES=idempotency-integration-tests,idempotency-spring-boot-starter,idempotency-client

# Every name of TESTS ran, and each ran tests: a renamed or moved test class would otherwise leave
# the subset smaller without a word (-Dsurefire.failIfNoSpecifiedTests=false, as each module runs
# only some of the names). Prints what ran.
ran_every_test_class() {
	local copy="$1" names name reports total=0 ran count
	IFS=, read -ra names <<<"$TESTS"
	for name in "${names[@]}"; do
		reports="$(find "$copy" -path '*/surefire-reports/*' -name "TEST-*.${name}.xml")"
		if [ -z "$reports" ]; then
			echo "boot-matrix: no test class matches $name" >&2
			return 1
		fi
		ran=0
		for count in $(grep -ho '<testsuite [^>]*' $reports | grep -o ' tests="[0-9]*"' | tr -dc '0-9\n'); do
			ran=$((ran + count))
		done
		if [ "$ran" -eq 0 ]; then
			echo "boot-matrix: $name ran no test" >&2
			return 1
		fi
		total=$((total + ran))
	done
	echo "boot-matrix: $total tests ran, of ${#names[@]} test class names"
}

versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
	versions=("$LATEST_BOOT_4_0")
fi

status=0
for version in "${versions[@]}"; do
	copy="$(mktemp -d "${TMPDIR:-/tmp}/boot-matrix-$version.XXXXXX")"
	git ls-files -z --cached --others --exclude-standard \
		| tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$copy"
	# Only the reactor parent's own parent changes; every other version stays as it is.
	perl -0pi -e "s{(<artifactId>spring-boot-starter-parent</artifactId>\s*<version>)[^<]+(</version>)}{\${1}$version\${2}}" "$copy/pom.xml"
	if ! grep -q "<version>$version</version>" "$copy/pom.xml"; then
		echo "boot-matrix: could not set spring-boot-starter-parent $version in $copy/pom.xml" >&2
		exit 2
	fi
	echo "boot-matrix: Spring Boot $version in $copy"
	start=$SECONDS
	if (cd "$copy" && ./mvnw -B -ntp -pl "$MODULES" -am verify \
			-Dtest="$TESTS" -Dsurefire.failIfNoSpecifiedTests=false) && ran_every_test_class "$copy"; then
		echo "boot-matrix: Spring Boot $version passed in $((SECONDS - start)) s"
		rm -rf "$copy"
	else
		echo "boot-matrix: Spring Boot $version FAILED after $((SECONDS - start)) s (build left in $copy)"
		status=1
	fi
done
exit $status
