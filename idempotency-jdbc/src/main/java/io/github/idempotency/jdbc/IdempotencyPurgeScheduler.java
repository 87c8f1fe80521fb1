package io.github.idempotency.jdbc;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.config.CronTask;
import org.springframework.scheduling.config.ScheduledTask;
import org.springframework.scheduling.config.ScheduledTaskHolder;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.scheduling.support.ScheduledMethodRunnable;
import org.springframework.util.ReflectionUtils;

/**
 * Runs the purge as a Spring cron task, as a {@code @Scheduled} method runs (listed by Actuator's
 * {@code scheduledtasks} endpoint, observed as {@code tasks.scheduled.execution}), without
 * enabling scheduling for the application's beans; stopping it interrupts a run between two
 * batches.
 */
class IdempotencyPurgeScheduler implements ScheduledTaskHolder, SmartLifecycle {

	/**
	 * The thread name prefix of the scheduler of its own.
	 */
	public static final String THREAD_NAME_PREFIX = "idempotency-purge-";

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyPurgeScheduler.class);

	private static final Method PURGE = Objects
		.requireNonNull(ReflectionUtils.findMethod(IdempotencyPurger.class, "purge"));

	private final CronTask task;

	private final @Nullable TaskScheduler applicationScheduler;

	private final @Nullable Supplier<ThreadPoolTaskScheduler> ownScheduler;

	private volatile @Nullable Running running;

	private IdempotencyPurgeScheduler(IdempotencyPurger purger, String cron,
			Supplier<ObservationRegistry> observationRegistry, @Nullable TaskScheduler applicationScheduler,
			@Nullable Supplier<ThreadPoolTaskScheduler> ownScheduler) {
		this.task = new CronTask(new ScheduledMethodRunnable(purger, PURGE, null, observationRegistry), cron);
		this.applicationScheduler = applicationScheduler;
		this.ownScheduler = ownScheduler;
	}

	/**
	 * Create a schedule on the application's task scheduler, which the application shuts down.
	 * @param purger the purger to run
	 * @param cron the cron expression, in the server's time zone
	 * @param observationRegistry the registry that observes each run
	 * @param scheduler the application's task scheduler
	 * @return the schedule
	 */
	public static IdempotencyPurgeScheduler onApplicationScheduler(IdempotencyPurger purger, String cron,
			Supplier<ObservationRegistry> observationRegistry, TaskScheduler scheduler) {
		return new IdempotencyPurgeScheduler(purger, cron, observationRegistry, scheduler, null);
	}

	/**
	 * Create a schedule on a task scheduler of its own, created, not yet initialized, at each start
	 * and shut down at each stop.
	 * @param purger the purger to run
	 * @param cron the cron expression, in the server's time zone
	 * @param observationRegistry the registry that observes each run
	 * @param scheduler creates the scheduler of its own
	 * @return the schedule
	 */
	public static IdempotencyPurgeScheduler onOwnScheduler(IdempotencyPurger purger, String cron,
			Supplier<ObservationRegistry> observationRegistry, Supplier<ThreadPoolTaskScheduler> scheduler) {
		return new IdempotencyPurgeScheduler(purger, cron, observationRegistry, null, scheduler);
	}

	@Override
	public void start() {
		ThreadPoolTaskScheduler own = (this.ownScheduler != null) ? this.ownScheduler.get() : null;
		if (own != null) {
			own.initialize();
		}
		ScheduledTaskRegistrar registrar = new ScheduledTaskRegistrar();
		registrar.setTaskScheduler((own != null) ? own : Objects.requireNonNull(this.applicationScheduler));
		registrar.addCronTask(this.task);
		registrar.afterPropertiesSet();
		this.running = new Running(registrar, own);
		logger.debug("Idempotency purge scheduled at '{}'", this.task.getExpression());
	}

	@Override
	public void stop() {
		Running running = this.running;
		this.running = null;
		if (running != null) {
			running.registrar().getScheduledTasks().forEach((task) -> task.cancel(true));
			ThreadPoolTaskScheduler own = running.own();
			if (own != null) {
				own.shutdown();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running != null;
	}

	@Override
	public Set<ScheduledTask> getScheduledTasks() {
		Running running = this.running;
		return (running != null) ? running.registrar().getScheduledTasks() : Set.of();
	}

	/**
	 * The scheduled task while it runs, and the scheduler of its own if it has one.
	 */
	private record Running(ScheduledTaskRegistrar registrar, @Nullable ThreadPoolTaskScheduler own) {

	}

}
