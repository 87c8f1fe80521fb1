package io.github.idempotency.purge;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.store.jdbc.IdempotencySql;

/**
 * Deletes one batch of records, archiving those of archived operations in the same transaction:
 * one statement on PostgreSQL, a locked batch of keys archived and deleted by key on H2.
 */
final class JdbcPurgeBatch {

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private final IdempotencySql sql;

	private final Set<String> archivedOperations;

	private final int batchSize;

	private final long stuckAfterMillis;

	JdbcPurgeBatch(DataSource dataSource, IdempotencySql sql, Set<String> archivedOperations, int batchSize,
			Duration stuckAfter) {
		this.jdbc = new JdbcTemplate(dataSource);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.sql = sql;
		this.archivedOperations = Set.copyOf(archivedOperations);
		this.batchSize = batchSize;
		this.stuckAfterMillis = stuckAfter.toMillis();
	}

	/**
	 * Delete one batch.
	 * @param reason which records to delete
	 * @return what was deleted, per operation
	 */
	List<PurgedRecords> run(PurgeReason reason) {
		String statement = (reason == PurgeReason.EXPIRED) ? this.sql.purgeExpired() : this.sql.purgeStuck();
		return this.sql.purgesInOneStatement() ? inOneStatement(statement, reason) : byKey(statement, reason);
	}

	private List<PurgedRecords> inOneStatement(String statement, PurgeReason reason) {
		return this.jdbc.query(statement, (ps) -> {
			int i = bindBatch(ps, reason);
			ps.setArray(i, ps.getConnection().createArrayOf("varchar", this.archivedOperations.toArray()));
		}, (rs, n) -> new PurgedRecords(rs.getString("operation"), rs.getLong("deleted"), rs.getLong("archived")));
	}

	private List<PurgedRecords> byKey(String statement, PurgeReason reason) {
		return this.transactions.execute((status) -> {
			List<IdempotencyKey> keys = this.jdbc.query(statement, (ps) -> bindBatch(ps, reason),
					(rs, n) -> new IdempotencyKey(rs.getString(1), rs.getString(2), rs.getString(3)));
			List<IdempotencyKey> archived = keys.stream()
				.filter((key) -> this.archivedOperations.contains(key.operation()))
				.toList();
			Map<String, long[]> counts = new LinkedHashMap<>();
			tally(counts, archived, update(this.sql.archiveByKey(), archived), 1);
			tally(counts, keys, update(this.sql.deleteByKey(), keys), 0);
			List<PurgedRecords> purged = new ArrayList<>(counts.size());
			counts.forEach((operation, count) -> purged.add(new PurgedRecords(operation, count[0], count[1])));
			return purged;
		});
	}

	private int[] update(String statement, List<IdempotencyKey> keys) {
		if (keys.isEmpty()) {
			return new int[0];
		}
		return this.jdbc.batchUpdate(statement, keys, keys.size(), (ps, key) -> {
			ps.setString(1, key.tenant());
			ps.setString(2, key.operation());
			ps.setString(3, key.key());
		})[0];
	}

	private static void tally(Map<String, long[]> counts, List<IdempotencyKey> keys, int[] rows, int slot) {
		for (int i = 0; i < rows.length; i++) {
			if (rows[i] > 0) {
				counts.computeIfAbsent(keys.get(i).operation(), (operation) -> new long[2])[slot] += rows[i];
			}
		}
	}

	private int bindBatch(PreparedStatement ps, PurgeReason reason) throws SQLException {
		int i = 1;
		if (reason == PurgeReason.STUCK) {
			ps.setLong(i++, -this.stuckAfterMillis);
		}
		ps.setInt(i++, this.batchSize);
		return i;
	}

}
