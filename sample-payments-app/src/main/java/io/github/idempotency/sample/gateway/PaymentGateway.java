package io.github.idempotency.sample.gateway;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The payment gateway: by default a fake one that records at most one charge per idempotency key
 * in its own {@code gateway_charge} table, in a transaction of its own; with
 * {@code sample.gateway.url} set, an external gateway reached over HTTP
 * ({@link HttpGatewayClient}).
 */
@Component
public class PaymentGateway {

	private static final String DECLINED_PREFIX = "decline-";

	private static final String FLAKY_PREFIX = "flaky-";

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private final GatewayProperties properties;

	private final Set<String> failedFlakyCustomers = ConcurrentHashMap.newKeySet();

	private final HttpGatewayClient external;

	PaymentGateway(GatewayDataSource dataSource, GatewayProperties properties) {
		this.jdbc = new JdbcTemplate(dataSource.dataSource());
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource.dataSource()));
		// A charge looks its key up before inserting it: in InnoDB's REPEATABLE READ the look-up of
		// a missing key locks the gap, and charges of two new keys in one gap deadlock.
		this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		this.properties = properties;
		this.external = (properties.url() != null) ? new HttpGatewayClient(properties) : null;
	}

	/**
	 * Charge a customer once per idempotency key: the first call for a key records a charge, every
	 * later call returns that charge and counts the attempt. Customers whose id starts with
	 * {@code decline-} are declined, and the first call for a customer whose id starts with
	 * {@code flaky-} fails. An external gateway decides all this itself.
	 * @param request the charge request
	 * @return the charge recorded for the request's key, new or earlier
	 * @throws GatewayUnavailableException if the gateway failed and nothing was charged
	 */
	public GatewayCharge charge(ChargeRequest request) {
		if (this.external != null) {
			return this.external.charge(request);
		}
		simulateLatency();
		try {
			return this.transactions.execute((status) -> chargeOnce(request));
		}
		catch (DuplicateKeyException ex) {
			return this.transactions.execute((status) -> {
				GatewayCharge existing = findAndCount(request.idempotencyKey());
				if (existing == null) {
					throw ex;
				}
				return existing;
			});
		}
	}

	/**
	 * Capture a charge once the payment it pays for is recorded: an external gateway is told, the
	 * fake one charges at once and has nothing to capture. Capturing again changes nothing.
	 * @param request the request the charge was made for
	 * @param charge the charge
	 * @throws GatewayUnavailableException if the gateway could not be reached or failed
	 */
	public void capture(ChargeRequest request, GatewayCharge charge) {
		if (this.external != null) {
			this.external.capture(request, charge);
		}
	}

	private GatewayCharge chargeOnce(ChargeRequest request) {
		GatewayCharge existing = findAndCount(request.idempotencyKey());
		if (existing != null) {
			return existing;
		}
		if (request.customerId().startsWith(FLAKY_PREFIX) && this.failedFlakyCustomers.add(request.customerId())) {
			throw new GatewayUnavailableException("The payment gateway timed out; nothing was charged.");
		}
		ChargeStatus status = request.customerId().startsWith(DECLINED_PREFIX) ? ChargeStatus.DECLINED
				: ChargeStatus.SUCCEEDED;
		String id = "ch_" + UUID.randomUUID().toString().replace("-", "");
		this.jdbc.update(
				"INSERT INTO gateway_charge (id, idempotency_key, customer_id, amount, currency, status, attempts) "
						+ "VALUES (?, ?, ?, ?, ?, ?, 1)",
				id, request.idempotencyKey(), request.customerId(), request.amount(), request.currency(),
				status.name());
		return new GatewayCharge(id, status, 1);
	}

	private GatewayCharge findAndCount(String idempotencyKey) {
		int updated = this.jdbc.update("UPDATE gateway_charge SET attempts = attempts + 1 WHERE idempotency_key = ?",
				idempotencyKey);
		if (updated == 0) {
			return null;
		}
		return this.jdbc.queryForObject("SELECT id, status, attempts FROM gateway_charge WHERE idempotency_key = ?",
				(rs, rowNum) -> new GatewayCharge(rs.getString("id"), ChargeStatus.valueOf(rs.getString("status")),
						rs.getInt("attempts")),
				idempotencyKey);
	}

	private void simulateLatency() {
		long millis = this.properties.latency().toMillis();
		if (millis <= 0) {
			return;
		}
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new GatewayUnavailableException("The payment gateway call was interrupted; nothing was charged.");
		}
	}

}
