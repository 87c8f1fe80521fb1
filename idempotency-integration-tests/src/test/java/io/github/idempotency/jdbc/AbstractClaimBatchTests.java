package io.github.idempotency.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.RecordStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * LEASED claims that arrive while another is being written share one statement and one commit,
 * each with its own outcome and fencing token; a batch that fails is written one by one, so that
 * only the claim at fault fails. The first claim of each test is held on a row lock the test takes,
 * so that the others are known to wait for it. A subclass gives the database.
 */
abstract class AbstractClaimBatchTests {

	static final String FINGERPRINT = "f".repeat(64);

	final AtomicInteger connections = new AtomicInteger();

	/**
	 * The number of the connection that the data source refuses, as an unreachable database would;
	 * none when 0.
	 */
	private volatile int refused;

	JdbcIdempotencyStore store;

	final String tenant = "t-" + UUID.randomUUID();

	/**
	 * The database, migrated, with a connection for each of 40 threads.
	 * @return the data source
	 */
	abstract DataSource dataSource();

	/**
	 * An insert of an uncommitted record of key {@code held}, operation {@code pay}, in the tenant
	 * given as its one parameter, on which a claim of that key waits.
	 * @return the statement
	 */
	abstract String insertHeldRecord();

	/**
	 * A query of how many statements of the database wait for a lock.
	 * @return the query
	 */
	abstract String lockWaitsQuery();

	@BeforeEach
	void createStore() {
		DataSource counting = new DelegatingDataSource(dataSource()) {

			@Override
			public Connection getConnection() throws SQLException {
				if (AbstractClaimBatchTests.this.connections.incrementAndGet() == AbstractClaimBatchTests.this.refused) {
					throw new SQLException("Connection refused", "08001");
				}
				return super.getConnection();
			}

		};
		this.store = new JdbcIdempotencyStore(StatementCachingJdbcTemplate.client(counting),
				IdempotencyStatements.of(dataSource()), 32);
	}

	@Test
	void claimsThatWaitForAClaimBeingWrittenShareTheNextStatementEachWithItsOwnToken() throws Exception {
		List<ClaimRequest> waiting = new ArrayList<>();
		for (int i = 0; i < 31; i++) {
			waiting.add(request("k" + i, FINGERPRINT));
		}
		List<Object> results = claimBehindAHeldClaim(waiting);
		// The held claim's statement, then one for the 31 that waited.
		assertThat(this.connections).hasValue(2);
		assertThat(results).allSatisfy((result) -> assertThat(result).isInstanceOf(ClaimResult.Claimed.class));
		assertThat(results.stream().map((result) -> ((ClaimResult.Claimed) result).token()).distinct()).hasSize(32);
		for (int i = 0; i < waiting.size(); i++) {
			assertThat(this.store.find(waiting.get(i).key())).get()
				.satisfies((record) -> assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS))
				.extracting((record) -> record.token())
				.isEqualTo(((ClaimResult.Claimed) results.get(i + 1)).token());
		}
	}

	@Test
	void aBatchThatFailsIsWrittenClaimByClaimAndOnlyTheClaimAtFaultFails() throws Exception {
		List<ClaimRequest> waiting = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			// A fingerprint longer than its column fails the statement it is in.
			waiting.add(request("k" + i, (i == 3) ? FINGERPRINT + "x" : FINGERPRINT));
		}
		List<Object> results = claimBehindAHeldClaim(waiting);
		// The held claim, the batch that failed, then each of the 8 alone.
		assertThat(this.connections).hasValue(10);
		for (int i = 0; i < waiting.size(); i++) {
			if (i == 3) {
				assertThat(results.get(i + 1)).isInstanceOf(DataAccessException.class);
				assertThat(this.store.find(waiting.get(i).key())).isEmpty();
			}
			else {
				assertThat(results.get(i + 1)).isInstanceOf(ClaimResult.Claimed.class);
				assertThat(this.store.find(waiting.get(i).key())).get()
					.extracting((record) -> record.token())
					.isEqualTo(((ClaimResult.Claimed) results.get(i + 1)).token());
			}
		}
	}

	@Test
	void aBatchThatCannotReachTheDatabaseFailsEachOfItsClaimsWithoutWritingThemAlone() throws Exception {
		List<ClaimRequest> waiting = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			waiting.add(request("k" + i, FINGERPRINT));
		}
		this.refused = 2;
		List<Object> results = claimBehindAHeldClaim(waiting);
		assertThat(results.subList(1, results.size()))
			.allSatisfy((result) -> assertThat(result).isInstanceOf(CannotGetJdbcConnectionException.class));
		// The held claim, then the batch's connection, refused: no claim is tried again alone.
		assertThat(this.connections).hasValue(2);
		for (ClaimRequest request : waiting) {
			assertThat(this.store.find(request.key())).isEmpty();
		}
	}

	@Test
	void twoClaimsOfOneKeyInOneBatchHaveOneWinnerAndTheOtherFindsItInProgress() throws Exception {
		List<Object> results = claimBehindAHeldClaim(
				List.of(request("same", FINGERPRINT), request("same", FINGERPRINT), request("other", FINGERPRINT)));
		assertThat(results.subList(1, 3)).filteredOn(ClaimResult.Claimed.class::isInstance).hasSize(1);
		assertThat(results.subList(1, 3)).filteredOn(ClaimResult.Existing.class::isInstance)
			.singleElement()
			.satisfies((existing) -> assertThat(((ClaimResult.Existing) existing).record().status())
				.isEqualTo(RecordStatus.IN_PROGRESS));
		assertThat(results.get(3)).isInstanceOf(ClaimResult.Claimed.class);
	}

	@Test
	void aLoneClaimIsWrittenAtOnceOnItsOwn() {
		assertThat(this.store.claim(request("alone", FINGERPRINT))).isInstanceOf(ClaimResult.Claimed.class);
		assertThat(this.connections).hasValue(1);
		assertThat(this.store.claimsWaiting()).isZero();
	}

	/**
	 * Claim a key whose row the test holds locked, uncommitted, so that the claim waits on it while
	 * it is being written; then the given claims, which wait in line for it; then let the first go.
	 * @return the results in order, the held claim's first: a claim result or what its claim threw
	 */
	List<Object> claimBehindAHeldClaim(List<ClaimRequest> waiting) throws Exception {
		ClaimRequest held = request("held", FINGERPRINT);
		ExecutorService threads = Executors.newFixedThreadPool(waiting.size() + 1);
		try (Connection lock = dataSource().getConnection()) {
			lock.setAutoCommit(false);
			try (PreparedStatement insert = lock.prepareStatement(insertHeldRecord())) {
				insert.setString(1, this.tenant);
				insert.executeUpdate();
			}
			List<Future<Object>> results = new ArrayList<>();
			results.add(threads.submit(() -> claim(held)));
			await().atMost(Duration.ofSeconds(30)).until(() -> this.connections.get() == 1 && lockWaits() == 1);
			for (ClaimRequest request : waiting) {
				results.add(threads.submit(() -> claim(request)));
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> this.store.claimsWaiting() == waiting.size());
			lock.rollback();
			List<Object> outcomes = new ArrayList<>();
			for (Future<Object> result : results) {
				outcomes.add(result.get(30, TimeUnit.SECONDS));
			}
			assertThat(outcomes.get(0)).isInstanceOf(ClaimResult.Claimed.class);
			return outcomes;
		}
		finally {
			threads.shutdownNow();
		}
	}

	private Object claim(ClaimRequest request) {
		try {
			return this.store.claim(request);
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	long lockWaits() {
		try (Connection connection = dataSource().getConnection();
				PreparedStatement query = connection.prepareStatement(lockWaitsQuery());
				var rs = query.executeQuery()) {
			rs.next();
			return rs.getLong(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	ClaimRequest request(String key, String fingerprint) {
		return new ClaimRequest(new IdempotencyKey(this.tenant, "pay", key), fingerprint, Duration.ofMinutes(1),
				Duration.ofHours(1));
	}

}
