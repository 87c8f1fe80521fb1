package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.core.simple.JdbcClient.StatementSpec;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.store.ReferencingIdempotencyStore;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.TransactionalIdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

/**
 * {@link IdempotencyStore} over the {@code idempotency_record} table through plain JDBC, so that
 * the request path costs one statement per step and no ORM work.
 */
public class JdbcIdempotencyStore implements TransactionalIdempotencyStore, SequencingIdempotencyStore,
		ReferencingIdempotencyStore {

	private static final int MAX_CLAIM_ATTEMPTS = 16;

	private final JdbcClient jdbc;

	private final IdempotencyStatements statements;

	private final boolean claimReturnsExisting;

	private final boolean advanceSequenceReturnsHighest;

	private final Statements sql;

	private final @Nullable WriteBatches<ClaimRequest, ClaimResult> claimBatches;

	private final @Nullable WriteBatches<Completion, Boolean> completionBatches;

	private final String[] claimBatchStatements;

	private final String[] completeBatchStatements;

	private final boolean joinsApplicationTransactions;

	/**
	 * Create a store over the starter's tables in the given database, whose kind it asks once.
	 * @param dataSource the database, PostgreSQL, MariaDB or H2
	 */
	public JdbcIdempotencyStore(DataSource dataSource) {
		this(StatementCachingJdbcTemplate.client(dataSource), IdempotencyStatements.of(dataSource));
	}

	JdbcIdempotencyStore(JdbcClient jdbc, IdempotencyStatements statements) {
		this(jdbc, statements, 1);
	}

	/**
	 * Create a store that writes the LEASED claims, and the completions outside transactions, that
	 * arrive together in one statement, where the database has one.
	 * @param jdbc the database
	 * @param statements its statements
	 * @param batchSize the most claims, or completions, one statement writes; 1 writes each alone
	 */
	JdbcIdempotencyStore(JdbcClient jdbc, IdempotencyStatements statements, int batchSize) {
		this(jdbc, statements, batchSize, true);
	}

	/**
	 * Create a store as {@link #JdbcIdempotencyStore(JdbcClient, IdempotencyStatements, int)} does,
	 * on a database that is the application's, whose transactions its writes join, or not.
	 * @param jdbc the database
	 * @param statements its statements
	 * @param batchSize the most claims, or completions, one statement writes; 1 writes each alone
	 * @param joinsApplicationTransactions whether the database is the application's
	 */
	JdbcIdempotencyStore(JdbcClient jdbc, IdempotencyStatements statements, int batchSize,
			boolean joinsApplicationTransactions) {
		this.joinsApplicationTransactions = joinsApplicationTransactions;
		this.jdbc = jdbc;
		this.statements = statements;
		this.claimReturnsExisting = statements.claimReturnsExisting();
		this.advanceSequenceReturnsHighest = statements.advanceSequenceReturnsHighest();
		this.sql = new Statements(statements);
		Predicate<RuntimeException> unreachable = (failure) -> failure instanceof DataAccessResourceFailureException;
		this.claimBatchStatements = batchStatements(batchSize, statements::claimBatch);
		this.completeBatchStatements = batchStatements(batchSize, statements::completeBatch);
		this.claimBatches = (this.claimBatchStatements.length > 0)
				? new WriteBatches<>(batchSize, this::writeClaims, unreachable) : null;
		this.completionBatches = (this.completeBatchStatements.length > 0)
				? new WriteBatches<>(batchSize, this::writeCompletions, unreachable) : null;
	}

	/**
	 * The batch statements of each size from 2 up to the batch size, by size; none where batches are
	 * off or the database has no such statement.
	 */
	private static String[] batchStatements(int batchSize, IntFunction<@Nullable String> statement) {
		if (batchSize < 2 || statement.apply(2) == null) {
			return new String[0];
		}
		String[] statements = new String[batchSize + 1];
		for (int size = 2; size <= batchSize; size++) {
			statements[size] = statement.apply(size);
		}
		return statements;
	}

	@Override
	public boolean joinsApplicationTransactions() {
		return this.joinsApplicationTransactions;
	}

	@Override
	public ClaimResult claim(ClaimRequest request) {
		try {
			// A claim in an ATOMIC operation's transaction commits with it: it cannot share a batch.
			ClaimResult batched = (this.claimBatches != null && !request.inTransaction())
					? this.claimBatches.write(request) : null;
			return (batched != null) ? batched : claimOrRetry(request);
		}
		catch (DataAccessException ex) {
			throw LockTimeouts.translate(ex);
		}
	}

	private ClaimResult claimOrRetry(ClaimRequest request) {
		for (int round = 0; round < MAX_CLAIM_ATTEMPTS; round++) {
			UUID token = UUID.randomUUID();
			Row row = insertOrSelect(request, token);
			if (row == null) {
				continue;
			}
			if (row.claimed()) {
				return new ClaimResult.Claimed(token, false, 1);
			}
			ClaimResult.Existing live = decided(request, row);
			if (live != null) {
				return live;
			}
			IdempotencyRecord existing = row.record();
			boolean released = existing.status() == RecordStatus.RELEASED;
			// The token read with the record guards the take-over, and the attempts of a record
			// change only with its token, so they are still what was read.
			int attempt = row.expired() ? 1 : existing.attempts() + 1;
			if (takeOver(request, existing, row.expired(), token, attempt)) {
				return new ClaimResult.Claimed(token, !row.expired() && !released, attempt);
			}
		}
		throw new IllegalStateException("Could not claim " + request.key() + " after " + MAX_CLAIM_ATTEMPTS
				+ " attempts; the key is changing hands continuously");
	}

	/**
	 * Return how many claims wait for the claim being written, to share the next batch.
	 * @return the number waiting; 0 where claims are not batched
	 */
	int claimsWaiting() {
		return (this.claimBatches != null) ? this.claimBatches.waiting() : 0;
	}

	/**
	 * Return how many completions wait for the completion being written, to share the next batch.
	 * @return the number waiting; 0 where completions are not batched
	 */
	int completionsWaiting() {
		return (this.completionBatches != null) ? this.completionBatches.waiting() : 0;
	}

	/**
	 * Write claims that arrived together: one alone as ever; several in one statement, each
	 * answered claimed, or with the record that holds its key where that decides it, or
	 * {@code null} to be written alone (a take-over, or a race lost to a concurrent insert).
	 */
	private List<ClaimResult> writeClaims(List<ClaimRequest> requests) {
		if (requests.size() == 1) {
			return List.of(claimOrRetry(requests.get(0)));
		}
		// Rows go in key order, so that two batches that share keys lock them in one order.
		List<Integer> order = IntStream.range(0, requests.size())
			.boxed()
			.sorted(Comparator.comparing((Integer i) -> requests.get(i).key().tenant())
				.thenComparing((i) -> requests.get(i).key().operation())
				.thenComparing((i) -> requests.get(i).key().key()))
			.toList();
		List<UUID> tokens = new ArrayList<>(Collections.nCopies(requests.size(), null));
		StatementSpec claim = this.jdbc.sql(this.claimBatchStatements[requests.size()]);
		for (int row = 0; row < order.size(); row++) {
			ClaimRequest request = requests.get(order.get(row));
			UUID token = UUID.randomUUID();
			tokens.set(order.get(row), token);
			claim = keyParams(claim, request.key(), row).param("fingerprint" + row, request.fingerprint())
				.param("token" + row, token)
				.param("leaseMillis" + row, request.lease().toMillis())
				.param("ttlMillis" + row, request.ttl().toMillis());
		}
		List<ClaimResult> results = new ArrayList<>(Collections.nCopies(requests.size(), null));
		AtomicInteger rows = new AtomicInteger();
		claim.query((rs) -> {
			int index = order.get(rows.getAndIncrement());
			ClaimRequest request = requests.get(index);
			UUID token = tokens.get(index);
			if (rs.getBoolean("claimed") || token.equals(rs.getObject("fencing_token", UUID.class))) {
				results.set(index, new ClaimResult.Claimed(token, false, 1));
			}
			else if (rs.getString("status") != null) {
				results.set(index, decided(request, Row.of(rs, request.key(), this.statements)));
			}
		});
		if (rows.get() != requests.size()) {
			throw new IllegalStateException("A batch of " + requests.size() + " claims answered " + rows.get() + " rows");
		}
		return results;
	}

	/**
	 * Answer a claim from the live record that holds its key, or {@code null} when the record is
	 * free to take over.
	 */
	private static ClaimResult.@Nullable Existing decided(ClaimRequest request, Row row) {
		IdempotencyRecord existing = row.record();
		boolean leaseRanOut = existing.status() == RecordStatus.IN_PROGRESS && row.leaseExpired()
				&& existing.fingerprint().equals(request.fingerprint());
		boolean released = existing.status() == RecordStatus.RELEASED;
		if (row.expired() || leaseRanOut || released) {
			return null;
		}
		return new ClaimResult.Existing(existing, Duration.ofMillis(row.leaseRemainingMillis()));
	}

	/**
	 * Read the record that holds the key, or insert the claim when there is none. Returns
	 * {@code null} when a concurrent claim committed after this statement's snapshot, so that the
	 * caller retries.
	 */
	private @Nullable Row insertOrSelect(ClaimRequest request, UUID token) {
		IdempotencyKey key = request.key();
		StatementSpec claim = claimParams(this.jdbc.sql(this.sql.claim()), request, token);
		if (this.claimReturnsExisting) {
			return first(claim.query((rs, n) -> Row.of(rs, key, this.statements)).list());
		}
		try {
			claim.update();
			return Row.CLAIMED;
		}
		catch (DuplicateKeyException ex) {
			return select(key);
		}
	}

	/**
	 * Take the key over from a record that expired or whose lease ran out; an expired record of an
	 * archived operation is archived in the same statement where the database allows, otherwise
	 * right after from what was read, which the fencing token guarantees is what was replaced.
	 */
	private boolean takeOver(ClaimRequest request, IdempotencyRecord existing, boolean expired, UUID newToken,
			int attempt) {
		// A released record never had an effect: there is nothing to keep of it.
		boolean archive = request.archive() && expired && existing.status() != RecordStatus.RELEASED;
		String takeOverArchiving = this.sql.takeOverArchiving();
		if (archive && takeOverArchiving != null) {
			if (takeOverParams(takeOverArchiving, request, existing.token(), newToken).query(Long.class)
				.single() != 1) {
				return false;
			}
			forgetReferences(request);
			return true;
		}
		if (takeOverParams(this.sql.takeOver(), request, existing.token(), newToken).param("attempt", attempt)
			.update() != 1) {
			return false;
		}
		if (archive) {
			archive(existing);
		}
		if (expired) {
			forgetReferences(request);
		}
		return true;
	}

	/**
	 * A new request replaced an expired record: the references of the old one go, to the archive
	 * first for an archived operation. Not inside a transaction (ATOMIC): deleting them there would
	 * hold their rows locked until it ends, while the operation attaches its references outside it,
	 * so that attaching one of them again would wait for a transaction that waits for it. They then
	 * stay with the key until its record is purged.
	 */
	private void forgetReferences(ClaimRequest request) {
		if (request.inTransaction()) {
			return;
		}
		if (request.archive()) {
			keyParams(this.jdbc.sql(this.sql.archiveReferencesByKey()), request.key()).update();
		}
		keyParams(this.jdbc.sql(this.sql.deleteReferencesByKey()), request.key()).update();
	}

	private StatementSpec takeOverParams(String statement, ClaimRequest request, UUID oldToken, UUID newToken) {
		return keyParams(this.jdbc.sql(statement), request.key()).param("oldToken", oldToken)
			.param("fingerprint", request.fingerprint())
			.param("newToken", newToken)
			.param("leaseMillis", request.lease().toMillis())
			.param("ttlMillis", request.ttl().toMillis());
	}

	private void archive(IdempotencyRecord record) {
		StoredResponse response = record.response();
		keyParams(this.jdbc.sql(this.sql.archiveRecord()), record.key()).param("status", record.status().name())
			.param("fingerprint", record.fingerprint())
			.param("token", record.token())
			.param("createdAt", this.statements.timestamp(record.createdAt()))
			.param("completedAt", this.statements.timestamp(record.completedAt()))
			.param("expiresAt", this.statements.timestamp(record.expiresAt()))
			.param("responseStatus", (response != null) ? response.status() : null, Types.INTEGER)
			.param("responseHeaders", (response != null) ? StoredHeaders.encode(response.headers()) : null,
					Types.VARCHAR)
			.param("responseBody", (response != null) ? response.body() : null, Types.VARBINARY)
			.update();
	}

	@Override
	public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
		return keyParams(this.jdbc.sql(this.sql.complete()), key).param("token", token)
			.param("responseStatus", response.status())
			.param("responseHeaders", StoredHeaders.encode(response.headers()))
			.param("responseBody", response.body())
			.param("ttlMillis", ttl.toMillis())
			.update() == 1;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * On PostgreSQL, completions that arrive while another is being written share the next
	 * statement and its commit.
	 */
	@Override
	public boolean completeOutsideTransaction(IdempotencyKey key, UUID token, StoredResponse response,
			Duration ttl) {
		if (this.completionBatches == null) {
			return complete(key, token, response, ttl);
		}
		Boolean completed = this.completionBatches.write(new Completion(key, token, response, ttl));
		return (completed != null) ? completed : complete(key, token, response, ttl);
	}

	/**
	 * Write completions that arrived together: one alone as ever; several in one statement, each
	 * answered whether its token still held its key.
	 */
	private List<Boolean> writeCompletions(List<Completion> completions) {
		if (completions.size() == 1) {
			Completion only = completions.get(0);
			return List.of(complete(only.key(), only.token(), only.response(), only.ttl()));
		}
		StatementSpec complete = this.jdbc.sql(this.completeBatchStatements[completions.size()]);
		for (int i = 0; i < completions.size(); i++) {
			Completion completion = completions.get(i);
			complete = keyParams(complete, completion.key(), i).param("token" + i, completion.token())
				.param("responseStatus" + i, completion.response().status())
				.param("responseHeaders" + i, StoredHeaders.encode(completion.response().headers()))
				.param("responseBody" + i, completion.response().body())
				.param("ttlMillis" + i, completion.ttl().toMillis());
		}
		List<Boolean> results = new ArrayList<>(Collections.nCopies(completions.size(), false));
		complete.query((rs) -> {
			results.set(rs.getInt("idx"), true);
		});
		return results;
	}

	@Override
	public boolean release(IdempotencyKey key, UUID token) {
		return release(key, token, null);
	}

	@Override
	public boolean release(IdempotencyKey key, UUID token, @Nullable String failure) {
		return keyParams(this.jdbc.sql(this.sql.release()), key).param("token", token)
			.param("failure", FailureTypes.bounded(failure), Types.VARCHAR)
			.update() == 1;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A renewal that the database cannot finish within a third of the lease (at least a second),
	 * such as one waiting on a row lock, is cancelled: the next renewal tries again.
	 */
	@Override
	public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
		int timeoutSeconds = (int) Math.max(1, lease.toSeconds() / 3);
		return keyParams(this.jdbc.sql(this.sql.extendLease()), key).param("token", token)
			.param("leaseMillis", lease.toMillis())
			.withQueryTimeout(timeoutSeconds)
			.update() == 1;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The conditional write decides; only when it refused is the scope read, for the number that
	 * beat this one, where the write does not answer with it.
	 */
	@Override
	public SequenceAdvance advanceSequence(String tenant, String scope, long sequence, Duration ttl) {
		if (sequence < 0) {
			throw new IllegalArgumentException("A sequence number must not be negative, but was " + sequence);
		}
		if (this.advanceSequenceReturnsHighest) {
			long highest = sequenceParams(tenant, scope, sequence, ttl).query(Long.class).single();
			return new SequenceAdvance(highest == sequence, highest);
		}
		for (int round = 0; round < MAX_CLAIM_ATTEMPTS; round++) {
			int advanced;
			try {
				advanced = sequenceParams(tenant, scope, sequence, ttl).update();
			}
			catch (DuplicateKeyException ex) {
				// A concurrent first advance of the scope inserted it: compare with it now.
				continue;
			}
			if (advanced == 1) {
				return new SequenceAdvance(true, sequence);
			}
			Optional<Long> highest = this.jdbc.sql(this.sql.selectSequence())
				.param("tenant", tenant)
				.param("scope", scope)
				.query(Long.class)
				.optional();
			if (highest.isPresent() && highest.get() > sequence) {
				return new SequenceAdvance(false, highest.get());
			}
		}
		throw new IllegalStateException("Could not advance the sequence of a scope after " + MAX_CLAIM_ATTEMPTS
				+ " attempts; it is changing continuously");
	}

	private StatementSpec sequenceParams(String tenant, String scope, long sequence, Duration ttl) {
		return this.jdbc.sql(this.sql.advanceSequence())
			.param("tenant", tenant)
			.param("scope", scope)
			.param("sequence", sequence)
			.param("ttlMillis", ttl.toMillis());
	}

	@Override
	public void addReference(IdempotencyKey key, String name, String value, Duration ttl) {
		try {
			keyParams(this.jdbc.sql(this.sql.addReference()), key).param("name", name)
				.param("value", value)
				.param("ttlMillis", ttl.toMillis())
				.update();
		}
		catch (DuplicateKeyException ex) {
			// Attached by a concurrent call in the meantime: there it is.
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Sorted here, as the database's collation may order text otherwise.
	 */
	@Override
	public Map<String, List<String>> references(IdempotencyKey key) {
		Map<String, List<String>> references = new TreeMap<>();
		keyParams(this.jdbc.sql(this.sql.selectReferences()), key).query((ResultSet rs) -> {
			references.computeIfAbsent(rs.getString("reference_name"), (name) -> new ArrayList<>())
				.add(rs.getString("reference_value"));
		});
		references.values().forEach(Collections::sort);
		return references;
	}

	@Override
	public List<IdempotencyKey> findByReference(String name, String value, int limit) {
		return this.jdbc.sql(this.sql.findByReference())
			.param("name", name)
			.param("value", value)
			.param("limit", limit)
			.query((rs, n) -> new IdempotencyKey(rs.getString("tenant_id"), rs.getString("operation"),
					rs.getString("idempotency_key")))
			.list();
	}

	@Override
	public Optional<IdempotencyRecord> find(IdempotencyKey key) {
		return Optional.ofNullable(select(key)).map(Row::record);
	}

	private @Nullable Row select(IdempotencyKey key) {
		return first(keyParams(this.jdbc.sql(this.sql.select()), key).query((rs, n) -> Row.of(rs, key, this.statements))
			.list());
	}

	private static @Nullable Row first(List<Row> rows) {
		return rows.isEmpty() ? null : rows.get(0);
	}

	private static StatementSpec claimParams(StatementSpec statement, ClaimRequest request, UUID token) {
		return keyParams(statement, request.key()).param("fingerprint", request.fingerprint())
			.param("token", token)
			.param("leaseMillis", request.lease().toMillis())
			.param("ttlMillis", request.ttl().toMillis());
	}

	static StatementSpec keyParams(StatementSpec statement, IdempotencyKey key) {
		return statement.param("tenant", key.tenant()).param("operation", key.operation()).param("key", key.key());
	}

	/**
	 * Bind the key of the given row of a batch statement.
	 */
	private static StatementSpec keyParams(StatementSpec statement, IdempotencyKey key, int row) {
		return statement.param("tenant" + row, key.tenant())
			.param("operation" + row, key.operation())
			.param("key" + row, key.key());
	}

	/**
	 * A completion waiting to be written with others.
	 */
	private record Completion(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
	}

	/**
	 * One row of the claim or select statements.
	 */
	private record Row(boolean claimed, IdempotencyRecord record, boolean expired, boolean leaseExpired,
			long leaseRemainingMillis) {

		static final Row CLAIMED = new Row(true, null, false, false, 0);

		static Row of(ResultSet rs, IdempotencyKey key, IdempotencyStatements time) throws SQLException {
			if (rs.getBoolean("claimed")) {
				return CLAIMED;
			}
			RecordStatus status = RecordStatus.valueOf(rs.getString("status"));
			StoredResponse response = null;
			if (status == RecordStatus.COMPLETED) {
				byte[] body = rs.getBytes("response_body");
				response = new StoredResponse(rs.getInt("response_status"),
						StoredHeaders.decode(rs.getString("response_headers")), (body != null) ? body : new byte[0]);
			}
			IdempotencyRecord record = new IdempotencyRecord(key, status, rs.getString("request_fingerprint"),
					rs.getObject("fencing_token", UUID.class), time.instant(rs, "locked_until"),
					time.instant(rs, "created_at"), time.instant(rs, "completed_at"), time.instant(rs, "expires_at"),
					response, rs.getInt("attempts"), rs.getString("last_failure"), time.instant(rs, "last_failure_at"));
			return new Row(false, record, rs.getBoolean("expired"), rs.getBoolean("lease_expired"),
					rs.getLong("lease_remaining_ms"));
		}

	}

	/**
	 * The statements of the store, composed once: the same string each call is parsed and
	 * prepared once (see {@link StatementCachingJdbcTemplate}).
	 */
	private record Statements(String claim, String select, String takeOver, @Nullable String takeOverArchiving,
			String archiveRecord, String complete, String release, String extendLease, String advanceSequence,
			String selectSequence, String addReference, String selectReferences, String findByReference,
			String archiveReferencesByKey, String deleteReferencesByKey) {

		Statements(IdempotencyStatements statements) {
			this(statements.claim(), statements.select(), statements.takeOver(), statements.takeOverArchiving(),
					statements.archiveRecord(), statements.complete(), statements.release(),
					statements.extendLease(), statements.advanceSequence(), statements.selectSequence(),
					statements.addReference(), statements.selectReferences(), statements.findByReference(),
					statements.archiveReferencesByKey(), statements.deleteReferencesByKey());
		}

	}

}
