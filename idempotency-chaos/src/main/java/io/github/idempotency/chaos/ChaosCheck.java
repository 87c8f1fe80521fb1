package io.github.idempotency.chaos;

import java.nio.file.Path;

/**
 * Checks a soak: reads its history and the database, prints one summary line, the answers by
 * kind and every violation, and exits with 1 if there is any.
 * <p>
 * Arguments: {@code --history=FILE --jdbc-url=URL [--store=jdbc|redis] [--redis-url=URL]
 * [--redis-key-prefix=idempotency:] [--gateway-log=FILE]}. The payments are read from PostgreSQL;
 * the charges from the external gateway's log if there was one ({@link GatewayLog}), otherwise
 * from PostgreSQL too; the store names where the idempotency records are read from: the same
 * database, or the Redis server of {@code --redis-url} ({@link RedisRecords}).
 */
public final class ChaosCheck {

	private ChaosCheck() {
	}

	public static void main(String[] args) {
		Options options = new Options(args);
		History history = History.read(Path.of(options.get("history")));
		JdbcState database = new JdbcState(options.get("jdbc-url"));
		IdempotencyRecords records = switch (options.get("store", "jdbc")) {
			case "jdbc" -> database;
			case "redis" -> new RedisRecords(options.get("redis-url"),
					options.get("redis-key-prefix", RedisRecords.DEFAULT_PREFIX));
			default -> throw new IllegalArgumentException("Unknown store: " + options.get("store"));
		};
		GatewayLog gateway = options.has("gateway-log") ? GatewayLog.read(Path.of(options.get("gateway-log"))) : null;
		Report report = HistoryChecker.check(history, database.load(records, gateway));
		System.out.println("answers: " + report.answers());
		report.faults().forEach((kind, count) -> System.out.println("faults: " + kind.label() + " x" + count));
		for (Fault fault : history.faults()) {
			System.out.printf("fault: %-18s target=%d %6d ms %s%n", fault.kind().label(), fault.target(),
					fault.end() - fault.start(), fault.detail());
		}
		report.violations()
			.forEach((violation) -> System.out.println(
					"VIOLATION " + violation.category().label() + " key=" + violation.key() + ": " + violation.detail()));
		System.out.println(report.summary());
		if (!report.passed()) {
			System.exit(1);
		}
	}

}
