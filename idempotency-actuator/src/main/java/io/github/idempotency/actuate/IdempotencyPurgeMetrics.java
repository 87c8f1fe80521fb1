package io.github.idempotency.actuate;

import java.util.EnumMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeListener;
import io.github.idempotency.jdbc.IdempotencyPurger.PurgeReason;
import io.github.idempotency.jdbc.IdempotencyPurger.PurgeResult;

/**
 * Records what the purge of this instance does as Micrometer meters, all registered up front.
 */
class IdempotencyPurgeMetrics implements PurgeListener {

	/**
	 * Counter of records the purge deleted, tagged {@code reason}.
	 */
	public static final String DELETED = "idempotency.purge.deleted";

	/**
	 * Counter of records the purge copied to the archive table before deleting them.
	 */
	public static final String ARCHIVED = "idempotency.purge.archived";

	/**
	 * Timer of purge runs, pauses included.
	 */
	public static final String RUNS = "idempotency.purge.runs";

	private final Map<PurgeReason, Counter> deleted = new EnumMap<>(PurgeReason.class);

	private final Counter archived;

	private final Timer runs;

	public IdempotencyPurgeMetrics(MeterRegistry registry) {
		for (PurgeReason reason : PurgeReason.values()) {
			this.deleted.put(reason, Counter.builder(DELETED)
				.description("Idempotency records deleted by the purge")
				.tag("reason", reason.tag())
				.register(registry));
		}
		this.archived = Counter.builder(ARCHIVED)
			.description("Idempotency records copied to the archive table by the purge")
			.register(registry);
		this.runs = Timer.builder(RUNS).description("Runs of the idempotency purge").register(registry);
	}

	@Override
	public void onBatch(PurgeReason reason, long deleted, long archived) {
		this.deleted.get(reason).increment(deleted);
		this.archived.increment(archived);
	}

	@Override
	public void onRunFinished(PurgeResult result) {
		this.runs.record(result.duration());
	}

}
