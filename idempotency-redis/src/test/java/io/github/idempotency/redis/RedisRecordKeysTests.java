package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.lettuce.core.cluster.SlotHash;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import io.github.idempotency.IdempotencyKey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The Redis keys of records: one hash tag per identity, which no tenant, operation or key can
 * break, and never one Redis key for two identities.
 */
class RedisRecordKeysTests {

	private static final RedisRecordKeys keys = new RedisRecordKeys("idempotency:");

	/**
	 * Parts built from the characters that delimit a Redis key's parts and its hash tag, escape
	 * sequences, lone surrogates and characters outside ASCII.
	 */
	@Provide
	Arbitrary<String> parts() {
		return Arbitraries.oneOf(
				Arbitraries.strings().withChars('{', '}', ':', '%', '7', 'B', 'D', '3', 'A', '2', '5', 'u', 'a').ofMaxLength(8),
				Arbitraries.strings().all().ofMaxLength(6),
				Arbitraries.of("", "{", "}", "{}", "}{", ":", "::", "%", "%7B", "%7b", "%25", "%3A", "%uD800",
						"\uD800", "\uDC00", "\uD83D\uDE00", "ünïcødé", "租户", "a{b}c"));
	}

	@Property(tries = 2000)
	void twoIdentitiesNeverShareARedisKey(@ForAll("parts") String tenantA, @ForAll("parts") String operationA,
			@ForAll("parts") String keyA, @ForAll("parts") String tenantB, @ForAll("parts") String operationB,
			@ForAll("parts") String keyB) {
		IdempotencyKey a = new IdempotencyKey(tenantA, operationA, keyA);
		IdempotencyKey b = new IdempotencyKey(tenantB, operationB, keyB);
		assertThat(new String(keys.of(a), StandardCharsets.UTF_8).equals(new String(keys.of(b), StandardCharsets.UTF_8)))
			.isEqualTo(a.equals(b));
	}

	@Test
	void identitiesThatLookAlikeOnceJoinedOrEscapedHaveRedisKeysOfTheirOwn() {
		List<String> parts = List.of("", ":", "a:b", "a", "b", "b:", "%3A", "{", "%7B", "}", "%7D", "%", "%25",
				"\uD800", "%uD800", "?");
		Set<String> redisKeys = new HashSet<>();
		int identities = 0;
		for (String tenant : parts) {
			for (String operation : parts) {
				for (String key : parts) {
					redisKeys.add(new String(keys.of(new IdempotencyKey(tenant, operation, key)), StandardCharsets.UTF_8));
					identities++;
				}
			}
		}
		assertThat(redisKeys).hasSize(identities);
	}

	@Property(tries = 2000)
	void theWholeIdentityIsTheHashTag(@ForAll("parts") String tenant, @ForAll("parts") String operation,
			@ForAll("parts") String key) {
		byte[] redisKey = keys.of(new IdempotencyKey(tenant, operation, key));
		String text = new String(redisKey, StandardCharsets.UTF_8);
		int open = text.indexOf('{');
		int close = text.indexOf('}', open + 1);
		assertThat(open).isEqualTo("idempotency:".length());
		assertThat(close).isEqualTo(text.length() - 1);
		byte[] tag = text.substring(open + 1, close).getBytes(StandardCharsets.UTF_8);
		assertThat(SlotHash.getSlot(redisKey)).isEqualTo(SlotHash.getSlot(tag));
	}

	@Property(tries = 1000)
	void theOperationIsReadBackFromTheRedisKey(@ForAll("parts") String tenant, @ForAll("parts") String operation,
			@ForAll("parts") String key) {
		assertThat(keys.operationOf(keys.of(new IdempotencyKey(tenant, operation, key)))).isEqualTo(operation);
	}

	@Test
	void recordsOfOneTenantAndOperationSpreadOverSlots() {
		long slots = List.of("a", "b", "c", "d", "e", "f", "g", "h")
			.stream()
			.map((key) -> SlotHash.getSlot(keys.of(new IdempotencyKey("tenant", "POST /payments", key))))
			.distinct()
			.count();
		assertThat(slots).isGreaterThan(1);
	}

	@Test
	void keysOfAnotherPrefixAreNotRecords() {
		assertThat(keys.operationOf("other:{t:o:k}".getBytes(StandardCharsets.UTF_8))).isNull();
		assertThat(keys.operationOf("idempotency:{t:o}".getBytes(StandardCharsets.UTF_8))).isNull();
	}

	@Test
	void scanPatternMatchesRecordsUnderThePrefixOnly() {
		assertThat(new String(new RedisRecordKeys("app*1:").pattern(), StandardCharsets.UTF_8))
			.isEqualTo("app\\*1:{*}");
	}

	@Test
	void prefixWithABraceIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RedisRecordKeys("tenant{1}:"))
			.withMessageContaining("hash tag");
	}

}
