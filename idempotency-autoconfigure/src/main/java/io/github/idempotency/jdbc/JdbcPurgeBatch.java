package io.github.idempotency.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.SqlArrayValue;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.idempotency.IdempotencyKey;

/**
 * Deletes one batch of records, archiving those of archived operations in the same transaction:
 * one statement on PostgreSQL, a locked batch of keys archived and deleted by key on H2.
 */
final class JdbcPurgeBatch {

	private final NamedParameterJdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private final IdempotencyStatements statements;

	private final Set<String> archivedOperations;

	private final int batchSize;

	private final Duration stuckAfter;

	/**
	 * Create the batches of one data source.
	 * @param dataSource the data source of the idempotency tables
	 * @param statements the statements of its database
	 * @param archivedOperations the operations whose records are archived before they are deleted
	 * @param batchSize the largest number of records one batch deletes
	 * @param stuckAfter how long past its lease a record in progress counts as stuck
	 */
	JdbcPurgeBatch(DataSource dataSource, IdempotencyStatements statements, Set<String> archivedOperations,
			int batchSize, Duration stuckAfter) {
		if (batchSize < 1) {
			throw new IllegalArgumentException("The purge batch size must be positive, not " + batchSize);
		}
		if (stuckAfter.isNegative()) {
			throw new IllegalArgumentException("The purge stuck-after must not be negative");
		}
		this.jdbc = new NamedParameterJdbcTemplate(dataSource);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.statements = statements;
		this.archivedOperations = Set.copyOf(archivedOperations);
		this.batchSize = batchSize;
		this.stuckAfter = stuckAfter;
	}

	/**
	 * Return the largest number of records one batch deletes.
	 * @return the batch size
	 */
	public int batchSize() {
		return this.batchSize;
	}

	/**
	 * Return how long past its lease a record in progress counts as stuck.
	 * @return the stuck-after duration
	 */
	public Duration stuckAfter() {
		return this.stuckAfter;
	}

	/**
	 * Delete one batch of completed records past their expiry.
	 * @return what was deleted, per operation
	 */
	public List<PurgedRecords> purgeExpired() {
		return run(this.statements.purgeExpired(), new MapSqlParameterSource("batchSize", this.batchSize));
	}

	/**
	 * Delete one batch of records left in progress long past their lease.
	 * @return what was deleted, per operation
	 */
	public List<PurgedRecords> purgeStuck() {
		return run(this.statements.purgeStuck(), new MapSqlParameterSource("batchSize", this.batchSize)
			.addValue("stuckAfterMillis", this.stuckAfter.toMillis()));
	}

	/**
	 * Delete one batch of sequence scopes past their expiry.
	 * @return how many were deleted
	 */
	public int purgeExpiredSequences() {
		return this.jdbc.update(this.statements.purgeExpiredSequences(),
				new MapSqlParameterSource("batchSize", this.batchSize));
	}

	/**
	 * Delete one batch of references whose record is gone, past their expiry, archiving those of
	 * archived operations; where the database takes two statements for it, all of them at once.
	 * @return how many were deleted
	 */
	public long purgeOrphanReferences() {
		String inOneStatement = this.statements.purgeOrphanReferences();
		if (inOneStatement != null) {
			return this.jdbc.queryForObject(inOneStatement, new MapSqlParameterSource("batchSize", this.batchSize)
				.addValue("archivedOperations", new SqlArrayValue("varchar", this.archivedOperations.toArray())),
					Long.class);
		}
		Integer deleted = this.transactions.execute((status) -> {
			if (!this.archivedOperations.isEmpty()) {
				this.jdbc.update(this.statements.archiveOrphanReferences(),
						new MapSqlParameterSource("archivedOperations", List.copyOf(this.archivedOperations)));
			}
			return this.jdbc.update(this.statements.deleteOrphanReferences(), new MapSqlParameterSource());
		});
		return (deleted != null) ? deleted : 0;
	}

	private List<PurgedRecords> run(String statement, MapSqlParameterSource params) {
		return this.statements.purgesInOneStatement() ? inOneStatement(statement, params) : byKey(statement, params);
	}

	private List<PurgedRecords> inOneStatement(String statement, MapSqlParameterSource params) {
		params.addValue("archivedOperations", new SqlArrayValue("varchar", this.archivedOperations.toArray()));
		return this.jdbc.query(statement, params,
				(rs, n) -> new PurgedRecords(rs.getString("operation"), rs.getLong("deleted"), rs.getLong("archived")));
	}

	private List<PurgedRecords> byKey(String statement, MapSqlParameterSource params) {
		return this.transactions.execute((status) -> {
			List<IdempotencyKey> keys = this.jdbc.query(statement, params,
					(rs, n) -> new IdempotencyKey(rs.getString(1), rs.getString(2), rs.getString(3)));
			List<IdempotencyKey> archived = keys.stream()
				.filter((key) -> this.archivedOperations.contains(key.operation()))
				.toList();
			Map<String, long[]> counts = new LinkedHashMap<>();
			tally(counts, archived, update(this.statements.archiveByKey(), archived), 1);
			update(this.statements.archiveReferencesByKey(), archived);
			update(this.statements.deleteReferencesByKey(), keys);
			tally(counts, keys, update(this.statements.deleteByKey(), keys), 0);
			List<PurgedRecords> purged = new ArrayList<>(counts.size());
			counts.forEach((operation, count) -> purged.add(new PurgedRecords(operation, count[0], count[1])));
			return purged;
		});
	}

	private int[] update(String statement, List<IdempotencyKey> keys) {
		if (keys.isEmpty()) {
			return new int[0];
		}
		return this.jdbc.batchUpdate(statement, keys.stream()
			.map((key) -> new MapSqlParameterSource("tenant", key.tenant()).addValue("operation", key.operation())
				.addValue("key", key.key()))
			.toArray(SqlParameterSource[]::new));
	}

	private static void tally(Map<String, long[]> counts, List<IdempotencyKey> keys, int[] rows, int slot) {
		for (int i = 0; i < rows.length; i++) {
			if (rows[i] > 0) {
				counts.computeIfAbsent(keys.get(i).operation(), (operation) -> new long[2])[slot] += rows[i];
			}
		}
	}

}
