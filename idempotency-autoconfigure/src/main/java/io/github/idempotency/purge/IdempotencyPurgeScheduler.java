package io.github.idempotency.purge;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.support.CronTrigger;

/**
 * Runs the purge on a cron schedule, on a thread of its own, so that the application needs no
 * {@code @EnableScheduling}; stopping it interrupts a run between two batches.
 */
public class IdempotencyPurgeScheduler implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyPurgeScheduler.class);

	private final IdempotencyPurger purger;

	private final CronTrigger trigger;

	private volatile ThreadPoolTaskScheduler scheduler;

	/**
	 * Create a scheduler.
	 * @param purger the purger to run
	 * @param cron the cron expression, in the server's time zone
	 */
	public IdempotencyPurgeScheduler(IdempotencyPurger purger, String cron) {
		this.purger = purger;
		this.trigger = new CronTrigger(cron);
	}

	@Override
	public void start() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setPoolSize(1);
		scheduler.setThreadNamePrefix("idempotency-purge-");
		scheduler.setDaemon(true);
		scheduler.setWaitForTasksToCompleteOnShutdown(false);
		scheduler.initialize();
		scheduler.schedule(this::purge, this.trigger);
		this.scheduler = scheduler;
		logger.debug("Idempotency purge scheduled at '{}'", this.trigger.getExpression());
	}

	@Override
	public void stop() {
		ThreadPoolTaskScheduler scheduler = this.scheduler;
		this.scheduler = null;
		if (scheduler != null) {
			scheduler.shutdown();
		}
	}

	@Override
	public boolean isRunning() {
		return this.scheduler != null;
	}

	private void purge() {
		try {
			this.purger.purge();
		}
		catch (RuntimeException ex) {
			logger.warn("Idempotency purge failed; retrying at the next scheduled run", ex);
		}
	}

}
