package io.github.idempotency.benchmarks.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * One listener per scenario, each writing one row per record, started by the benchmark when it
 * has produced a round's records.
 */
public class BenchmarkListeners {

	static final String UNGUARDED = "unguarded";

	static final String LEASED = "leased";

	static final String ATOMIC = "atomic";

	private final JdbcTemplate jdbc;

	private final Map<String, Meter> meters = new ConcurrentHashMap<>();

	BenchmarkListeners(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
		jdbc.execute("CREATE TABLE IF NOT EXISTS bench_effect (id BIGSERIAL PRIMARY KEY, scenario TEXT NOT NULL, "
				+ "event_key TEXT NOT NULL, payload TEXT NOT NULL)");
	}

	static String topic(String scenario) {
		return "bench-" + scenario;
	}

	@KafkaListener(id = UNGUARDED, topics = "bench-" + UNGUARDED, autoStartup = "false")
	public void unguarded(ConsumerRecord<String, String> record) {
		effect(UNGUARDED, record);
	}

	@KafkaListener(id = LEASED, topics = "bench-" + LEASED, autoStartup = "false")
	@Idempotent(operation = "bench-leased", mode = IdempotencyMode.LEASED)
	public void leased(ConsumerRecord<String, String> record) {
		effect(LEASED, record);
	}

	@KafkaListener(id = ATOMIC, topics = "bench-" + ATOMIC, autoStartup = "false")
	@Idempotent(operation = "bench-atomic", mode = IdempotencyMode.ATOMIC)
	public void atomic(ConsumerRecord<String, String> record) {
		effect(ATOMIC, record);
	}

	private void effect(String scenario, ConsumerRecord<String, String> record) {
		this.jdbc.update("INSERT INTO bench_effect (scenario, event_key, payload) VALUES (?, ?, ?)", scenario,
				record.key(), record.value());
		this.meters.get(scenario).record();
	}

	Meter meter(String scenario, int records) {
		Meter meter = new Meter(records);
		this.meters.put(scenario, meter);
		return meter;
	}

	/**
	 * Return the rows written, by scenario, and how many keys have more than one.
	 */
	Map<String, Object> effects() {
		Map<String, Object> effects = new LinkedHashMap<>();
		this.jdbc.queryForList("SELECT scenario, count(*) AS n FROM bench_effect GROUP BY scenario ORDER BY scenario")
			.forEach((row) -> effects.put((String) row.get("scenario"), row.get("n")));
		effects.put("keys with two effects", this.jdbc.queryForObject(
				"SELECT count(*) FROM (SELECT event_key FROM bench_effect GROUP BY event_key HAVING count(*) > 1) d",
				Long.class));
		return effects;
	}

	/**
	 * Times one round of a scenario, from its first record's effect to its last.
	 */
	static final class Meter {

		private final int records;

		private final AtomicInteger count = new AtomicInteger();

		private final AtomicLong first = new AtomicLong();

		private final AtomicLong last = new AtomicLong();

		private final CountDownLatch done = new CountDownLatch(1);

		Meter(int records) {
			this.records = records;
		}

		void record() {
			long now = System.nanoTime();
			int n = this.count.incrementAndGet();
			if (n == 1) {
				this.first.set(now);
			}
			if (n == this.records) {
				this.last.set(now);
				this.done.countDown();
			}
		}

		int count() {
			return this.count.get();
		}

		boolean await(long nanos) throws InterruptedException {
			return this.done.await(nanos, TimeUnit.NANOSECONDS);
		}

		double recordsPerSecond() {
			return (this.records - 1) / ((this.last.get() - this.first.get()) / 1e9);
		}

	}

}
