package io.github.idempotency.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the external gateway ({@link ChaosGateway}) recorded: one JSON line per call, a charge or
 * the capture of one, written and forced to the disk before the call was answered.
 *
 * @param calls every call, in the order they ended
 * @param charges every charge made, one per key that was charged
 */
record GatewayLog(List<Call> calls, List<Charge> charges) {

	static final String CHARGE = "charge";

	static final String CAPTURE = "capture";

	/**
	 * Read a gateway's log file.
	 * @param file the file
	 * @return what it holds
	 */
	static GatewayLog read(Path file) {
		List<Call> calls = new ArrayList<>();
		List<Charge> made = new ArrayList<>();
		try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.isBlank()) {
					continue;
				}
				Call call = History.JSON.readValue(line, Call.class);
				calls.add(call);
				if (call.created()) {
					made.add(new Charge(call.scopedKey(), call.chargeId(), call.status()));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new GatewayLog(calls, made);
	}

	/**
	 * Return the charges as the checker counts them: per client key, with how often the gateway
	 * was asked for it.
	 * @return the charges
	 */
	List<DatabaseState.Charge> checkedCharges() {
		Map<String, Integer> callsPerKey = new LinkedHashMap<>();
		this.calls.stream()
			.filter((call) -> CHARGE.equals(call.kind()))
			.forEach((call) -> callsPerKey.merge(call.scopedKey(), 1, Integer::sum));
		return this.charges.stream()
			.map((charge) -> new DatabaseState.Charge(Call.clientKey(charge.scopedKey()), charge.id(), charge.status(),
					callsPerKey.getOrDefault(charge.scopedKey(), 0)))
			.toList();
	}

	/**
	 * One call.
	 *
	 * @param kind {@code charge} or {@code capture}
	 * @param scopedKey the gateway's idempotency key, {@code tenant:operation:key}
	 * @param token the caller's fencing token, or {@code none}
	 * @param start when the call arrived, epoch milliseconds
	 * @param end when it was answered (just before its line was written), epoch milliseconds
	 * @param chargeId the charge it answered with, or captured
	 * @param created whether this call made the charge
	 * @param status the charge's status, {@code SUCCEEDED} or {@code DECLINED}
	 * @param latencyMillis how long the gateway meant the call to take
	 */
	record Call(String kind, String scopedKey, String token, long start, long end, String chargeId, boolean created,
			String status, long latencyMillis) {

		/**
		 * Return the client's idempotency key.
		 * @return the key without its {@code tenant:operation:} scope
		 */
		String key() {
			return clientKey(this.scopedKey);
		}

		/**
		 * Return the idempotent operation that called.
		 * @return the operation, such as {@code create-payment}
		 */
		String operation() {
			int last = this.scopedKey.lastIndexOf(':');
			int first = this.scopedKey.lastIndexOf(':', last - 1);
			return (first >= 0 && last > first) ? this.scopedKey.substring(first + 1, last) : "";
		}

		static String clientKey(String scopedKey) {
			return scopedKey.substring(scopedKey.lastIndexOf(':') + 1);
		}

	}

	/**
	 * One charge.
	 *
	 * @param scopedKey the gateway's idempotency key it was made for
	 * @param id its id
	 * @param status {@code SUCCEEDED} or {@code DECLINED}
	 */
	record Charge(String scopedKey, String id, String status) {

	}

}
