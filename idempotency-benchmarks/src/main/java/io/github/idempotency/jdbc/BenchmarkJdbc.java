package io.github.idempotency.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import javax.sql.DataSource;

import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.idempotency.store.IdempotencyStore;

/**
 * What the benchmarks build from the JDBC store's package-private parts, on PostgreSQL (a class
 * of the benchmarks, in the store's package; not published).
 */
public final class BenchmarkJdbc {

	private BenchmarkJdbc() {
	}

	public static void createSchema(DataSource dataSource) {
		new IdempotencySchemaInitializer(dataSource, DatabaseInitializationMode.ALWAYS, "idempotency_schema_history")
			.afterPropertiesSet();
	}

	public static IdempotencyStore store(JdbcTemplate jdbc) {
		return new JdbcIdempotencyStore(JdbcClient.create(jdbc), IdempotencyStatements.of(DatabasePlatform.POSTGRESQL));
	}

	public static IdempotencyPurger purger(DataSource dataSource, Set<String> archivedOperations, int batchSize,
			Duration pause) {
		JdbcPurgeBatch batch = new JdbcPurgeBatch(dataSource, IdempotencyStatements.of(DatabasePlatform.POSTGRESQL),
				archivedOperations, batchSize, Duration.ofHours(1));
		return new IdempotencyPurger(batch, pause, List.of());
	}

}
