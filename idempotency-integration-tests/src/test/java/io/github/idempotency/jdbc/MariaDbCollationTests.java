package io.github.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Text that MariaDB's default collations would take for the same (case, accents, trailing spaces
 * ignored) is different keys, scopes and references in the starter's tables, which compare it byte
 * for byte.
 */
class MariaDbCollationTests {

	private static final Duration LEASE = Duration.ofMinutes(1);

	private static final Duration TTL = Duration.ofHours(1);

	/**
	 * Alike under {@code utf8mb4_general_ci} (case and accents), {@code utf8mb4_bin} (trailing
	 * spaces, as every {@code PAD SPACE} collation) or both.
	 */
	private static final List<String> ALIKE = List.of("key", "Key", "KEY", "k\u00e9y", "ke\u0301y", "k\u00c9y",
			"key ", "key  ", "k\u00e9y ", "stra\u00dfe", "strasse");

	private static HikariDataSource dataSource;

	private static JdbcIdempotencyStore store;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.mariadb(MariaDbTestDatabase.create("collation"), 4);
		TestDataSources.migrate(dataSource);
		store = TestDataSources.store(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Test
	void keysDifferingOnlyInCaseAccentsOrTrailingSpacesAreDifferentKeys() {
		String tenant = "tenant-" + UUID.randomUUID();
		List<IdempotencyKey> keys = new ArrayList<>();
		for (String text : ALIKE) {
			keys.add(new IdempotencyKey(tenant, "pay", text));
			keys.add(new IdempotencyKey(tenant, text, "k"));
			keys.add(new IdempotencyKey(tenant + "/" + text, "pay", "k"));
		}
		for (IdempotencyKey key : keys) {
			ClaimResult.Claimed claimed = (ClaimResult.Claimed) store
				.claim(new ClaimRequest(key, "fingerprint", LEASE, TTL));
			assertThat(store.complete(key, claimed.token(), new StoredResponse(200, Map.of(), body(key)), TTL))
				.isTrue();
		}
		for (IdempotencyKey key : keys) {
			ClaimResult replay = store.claim(new ClaimRequest(key, "fingerprint", LEASE, TTL));
			assertThat(replay).as(key.toString()).isInstanceOf(ClaimResult.Existing.class);
			assertThat(((ClaimResult.Existing) replay).record().response().body()).isEqualTo(body(key));
			assertThat(store.find(key).orElseThrow().key()).isEqualTo(key);
		}
		assertThat(new JdbcTemplate(dataSource).queryForObject(
				"SELECT count(*) FROM idempotency_record WHERE tenant_id LIKE ?", Long.class, tenant + "%"))
			.isEqualTo(keys.size());
	}

	@Test
	void sequenceScopesDifferingOnlyInCaseAccentsOrTrailingSpacesAreDifferentScopes() {
		String tenant = "tenant-" + UUID.randomUUID();
		for (int i = 0; i < ALIKE.size(); i++) {
			assertThat(store.advanceSequence(tenant, ALIKE.get(i), 100 - i, TTL).accepted()).isTrue();
		}
		for (int i = 0; i < ALIKE.size(); i++) {
			SequenceAdvance lower = store.advanceSequence(tenant, ALIKE.get(i), 1, TTL);
			assertThat(lower.accepted()).isFalse();
			assertThat(lower.highest()).as(ALIKE.get(i)).isEqualTo(100 - i);
		}
	}

	@Test
	void referenceValuesDifferingOnlyInCaseAccentsOrTrailingSpacesAreDifferentReferences() {
		IdempotencyKey key = new IdempotencyKey("tenant-" + UUID.randomUUID(), "pay", "k");
		store.claim(new ClaimRequest(key, "fingerprint", LEASE, TTL));
		for (String value : ALIKE) {
			store.addReference(key, "gateway", value, TTL);
			store.addReference(key, "gateway", value, TTL);
		}
		assertThat(store.references(key).get("gateway")).containsExactlyInAnyOrderElementsOf(ALIKE);
		for (String value : ALIKE) {
			assertThat(store.findByReference("gateway", value, 10)).as(value).containsExactly(key);
		}
	}

	@Test
	void everyTextColumnOfTheStartersTablesComparesByteForByte() {
		List<Map<String, Object>> columns = new JdbcTemplate(dataSource)
			.queryForList("SELECT table_name, column_name, collation_name FROM information_schema.columns "
					+ "WHERE table_schema = DATABASE() AND table_name LIKE 'idempotency\\_%' "
					+ "AND table_name <> 'idempotency_schema_history' AND collation_name IS NOT NULL");
		assertThat(columns).hasSize(27);
		assertThat(new HashSet<>(columns.stream().map((column) -> column.get("collation_name")).toList()))
			.containsExactlyInAnyOrder("utf8mb4_nopad_bin", "ascii_bin");
	}

	private static byte[] body(IdempotencyKey key) {
		return (key.tenant() + "|" + key.operation() + "|" + key.key()).getBytes(StandardCharsets.UTF_8);
	}

}
