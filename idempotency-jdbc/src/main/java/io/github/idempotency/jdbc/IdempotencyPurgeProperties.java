package io.github.idempotency.jdbc;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the JDBC store's scheduled purge of expired records and of records
 * stuck in progress.
 */
@ConfigurationProperties("idempotency.purge")
public class IdempotencyPurgeProperties {

	static final String DEFAULT_CRON = "0 * * * * *";

	static final int DEFAULT_BATCH_SIZE = 500;

	static final Duration DEFAULT_PAUSE = Duration.ofMillis(200);

	static final Duration DEFAULT_STUCK_AFTER = Duration.ofHours(1);

	/**
	 * Cron expression, in the server's time zone, of the purge that every instance runs as a
	 * scheduled task, on the application's task scheduler if it has one. "-" disables it.
	 */
	private String cron = DEFAULT_CRON;

	/**
	 * Largest number of records one batch deletes, each batch in a transaction of its own.
	 */
	private int batchSize = DEFAULT_BATCH_SIZE;

	/**
	 * Pause between two batches of one purge run, so that the purge leaves the database to
	 * live claims. Zero purges as fast as the database allows.
	 */
	private Duration pause = DEFAULT_PAUSE;

	/**
	 * How long past the end of its lease a record left in progress, whose request never
	 * finished and was never retried, counts as stuck and is reclaimed by the purge.
	 */
	private Duration stuckAfter = DEFAULT_STUCK_AFTER;

	public String getCron() {
		return this.cron;
	}

	public void setCron(String cron) {
		this.cron = cron;
	}

	public int getBatchSize() {
		return this.batchSize;
	}

	public void setBatchSize(int batchSize) {
		this.batchSize = batchSize;
	}

	public Duration getPause() {
		return this.pause;
	}

	public void setPause(Duration pause) {
		this.pause = pause;
	}

	public Duration getStuckAfter() {
		return this.stuckAfter;
	}

	public void setStuckAfter(Duration stuckAfter) {
		this.stuckAfter = stuckAfter;
	}

}
