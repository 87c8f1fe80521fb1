package io.github.idempotency.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * {@link JdbcIdempotencyStore} on PostgreSQL with the records table hash-partitioned by tenant
 * (docs/scaling.md): the shipped schema script with {@code PARTITION BY HASH (tenant_id)} and
 * eight partitions keeps the whole contract, since the primary key holds the partition key.
 * Partitioning by {@code expires_at} instead cannot keep a key unique, and PostgreSQL says so.
 */
class PostgresHashPartitionedStoreTests extends AbstractJdbcIdempotencyStoreTests {

	private static final String SCHEMA = "/io/github/idempotency/jdbc/schema-postgresql.sql";

	private static final String TABLE_END = "CHECK (status IN ('IN_PROGRESS', 'COMPLETED', 'RELEASED'))\n);";

	private static final int PARTITIONS = 8;

	private static HikariDataSource dataSource;

	private static JdbcIdempotencyStore store;

	@BeforeAll
	static void createPartitionedSchema() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("hashpartitioned"), 18);
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute(schema(") PARTITION BY HASH (tenant_id);"));
		for (int i = 0; i < PARTITIONS; i++) {
			jdbc.execute("CREATE TABLE idempotency_record_p" + i + " PARTITION OF idempotency_record "
					+ "FOR VALUES WITH (MODULUS " + PARTITIONS + ", REMAINDER " + i + ")");
		}
		store = TestDataSources.store(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Override
	protected JdbcIdempotencyStore store() {
		return store;
	}

	@Test
	void recordsSpreadOverThePartitionsByTenant() {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		String tenant = key("spread").tenant();
		for (int i = 0; i < 32; i++) {
			claim(new IdempotencyKey(tenant + "-" + i, "POST /payments", "spread"), FINGERPRINT_A);
		}
		assertThat(jdbc.queryForObject("SELECT count(DISTINCT tableoid) FROM idempotency_record WHERE tenant_id LIKE ?",
				Integer.class, tenant + "-%"))
			.isGreaterThan(1);
		assertThat(jdbc.queryForObject("SELECT relkind::text FROM pg_class WHERE relname = 'idempotency_record'",
				String.class))
			.isEqualTo("p");
	}

	@Test
	void rangePartitioningByExpiryCannotKeepTheKeyUnique() {
		HikariDataSource other = TestDataSources.postgres(PostgresTestDatabase.create("expirypartitioned"), 2);
		try {
			assertThatException()
				.isThrownBy(() -> new JdbcTemplate(other).execute(schema(") PARTITION BY RANGE (expires_at);")))
				.withMessageContaining("unique constraint on partitioned table must include all partitioning columns");
		}
		finally {
			other.close();
		}
	}

	/**
	 * The shipped schema script with the end of the records table's definition replaced.
	 */
	private static String schema(String tableEnd) {
		try (InputStream in = PostgresHashPartitionedStoreTests.class.getResourceAsStream(SCHEMA)) {
			String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			assertThat(script).contains(TABLE_END);
			return script.replace(TABLE_END, TABLE_END.substring(0, TABLE_END.length() - 3) + tableEnd);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
