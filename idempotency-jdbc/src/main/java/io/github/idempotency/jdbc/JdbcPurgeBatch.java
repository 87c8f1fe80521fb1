package io.github.idempotency.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.SqlArrayValue;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;


/**
 * Deletes one batch of records, archiving those of archived operations in the same transaction:
 * one statement on PostgreSQL, a locked batch of keys archived and deleted by key on MariaDB and
 * H2.
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
		// InnoDB's default REPEATABLE READ would lock the gaps next to the rows a batch reads, and
		// so hold up claims whose insert falls into one until the batch commits.
		this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
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
		return run(this.statements.purgeExpired(), this.statements::lockExpired,
				new MapSqlParameterSource("batchSize", this.batchSize));
	}

	/**
	 * Delete one batch of records left in progress long past their lease.
	 * @return what was deleted, per operation
	 */
	public List<PurgedRecords> purgeStuck() {
		return run(this.statements.purgeStuck(), this.statements::lockStuck,
				new MapSqlParameterSource("batchSize", this.batchSize)
			.addValue("stuckAfterMillis", this.stuckAfter.toMillis()));
	}

	/**
	 * Delete one batch of sequence scopes past their expiry.
	 * @return how many were deleted
	 */
	public int purgeExpiredSequences() {
		Integer deleted = this.transactions.execute((status) -> this.jdbc
			.update(this.statements.purgeExpiredSequences(), new MapSqlParameterSource("batchSize", this.batchSize)));
		return (deleted != null) ? deleted : 0;
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

	private List<PurgedRecords> run(String statement, Supplier<String> lock, MapSqlParameterSource params) {
		return this.statements.purgesInOneStatement() ? inOneStatement(statement, params)
				: byKey(statement, lock.get(), params);
	}

	private List<PurgedRecords> inOneStatement(String statement, MapSqlParameterSource params) {
		params.addValue("archivedOperations", new SqlArrayValue("varchar", this.archivedOperations.toArray()));
		return this.jdbc.query(statement, params,
				(rs, n) -> new PurgedRecords(rs.getString("operation"), rs.getLong("deleted"), rs.getLong("archived")));
	}

	/**
	 * Read candidates for a batch without locking anything, lock up to a batch of those that still
	 * qualify by key, skipping those held elsewhere, archive them all at once and delete them one
	 * by one; the locks hold the records as read, so the counts are those of the keys locked. Twice as many candidates as a batch let purgers running at once each lock a
	 * batch of their own.
	 */
	private List<PurgedRecords> byKey(String candidates, String lock, MapSqlParameterSource params) {
		return this.transactions.execute((status) -> {
			List<Object[]> keys = this.jdbc.query(candidates, params.addValue("candidates", 2 * this.batchSize),
					(rs, n) -> new Object[] { rs.getString(1), rs.getString(2), rs.getString(3) });
			if (keys.isEmpty()) {
				return List.of();
			}
			List<Locked> locked = this.jdbc.query(lock, params.addValue("keys", keys), (rs, n) -> new Locked(
					rs.getString(1), rs.getString(2), rs.getString(3), "RELEASED".equals(rs.getString(4))));
			List<Locked> archived = locked.stream()
				.filter((key) -> this.archivedOperations.contains(key.operation()))
				.toList();
			updateAll(this.statements.archiveByKeys(), archived);
			updateAll(this.statements.archiveReferencesByKeys(), archived);
			updateEach(this.statements.deleteReferencesByKey(), locked);
			updateEach(this.statements.deleteByKey(), locked);
			Map<String, long[]> counts = new LinkedHashMap<>();
			for (Locked key : locked) {
				long[] count = counts.computeIfAbsent(key.operation(), (operation) -> new long[2]);
				count[0]++;
				if (!key.released() && this.archivedOperations.contains(key.operation())) {
					count[1]++;
				}
			}
			List<PurgedRecords> purged = new ArrayList<>(counts.size());
			counts.forEach((operation, count) -> purged.add(new PurgedRecords(operation, count[0], count[1])));
			return purged;
		});
	}

	/**
	 * Run a statement once for all the keys, as its parameter {@code keys}.
	 */
	private void updateAll(String statement, List<Locked> keys) {
		if (!keys.isEmpty()) {
			this.jdbc.update(statement, new MapSqlParameterSource("keys",
					keys.stream().map((key) -> new Object[] { key.tenant(), key.operation(), key.key() }).toList()));
		}
	}

	/**
	 * Run a statement once per key, in one batch.
	 */
	private void updateEach(String statement, List<Locked> keys) {
		if (!keys.isEmpty()) {
			this.jdbc.batchUpdate(statement, keys.stream()
				.map((key) -> new MapSqlParameterSource("tenant", key.tenant()).addValue("operation", key.operation())
					.addValue("key", key.key()))
				.toArray(SqlParameterSource[]::new));
		}
	}

	/**
	 * The key of a record that a batch locked, and whether a transient failure released it.
	 */
	private record Locked(String tenant, String operation, String key, boolean released) {

	}

}
