package io.github.idempotency.kafka;

import java.lang.reflect.Field;
import java.util.function.BiFunction;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;

import io.github.idempotency.Disposition;
import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.IdempotentOperationFailedException;
import io.github.idempotency.InvalidIdempotencyKeyException;
import io.github.idempotency.MissingIdempotencyKeyException;
import io.github.idempotency.OutcomeClassifier;

/**
 * The back-off of a Kafka error handler for the failures of {@code @Idempotent} listeners: a
 * record whose key is in progress elsewhere is retried until that call ends, however long (its
 * lease bounds it); a final failure, its replay, a reused or a missing key go to the recoverer at
 * once, as no retry can end otherwise; any other failure gets the handler's own back-off.
 */
final class IdempotentRecordBackOff implements BiFunction<ConsumerRecord<?, ?>, Exception, @Nullable BackOff> {

	/**
	 * The field of Spring Kafka's {@code FailedRecordProcessor} that holds the back-off function
	 * it was given.
	 */
	static final String CONFIGURED_FIELD = "userBackOffFunction";

	private static final BackOff NO_RETRIES = new FixedBackOff(0, 0);

	private final OutcomeClassifier classifier;

	private final BiFunction<ConsumerRecord<?, ?>, Exception, @Nullable BackOff> others;

	private final BackOff inProgress;

	IdempotentRecordBackOff(OutcomeClassifier classifier,
			@Nullable BiFunction<ConsumerRecord<?, ?>, Exception, @Nullable BackOff> others) {
		this.classifier = classifier;
		this.others = (others != null) ? others : (record, failure) -> null;
		ExponentialBackOff inProgress = new ExponentialBackOff(100, 2);
		inProgress.setMaxInterval(5_000);
		this.inProgress = inProgress;
	}

	@Override
	public @Nullable BackOff apply(ConsumerRecord<?, ?> record, Exception failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof IdempotencyKeyInProgressException) {
				return this.inProgress;
			}
			if (cause instanceof IdempotentOperationFailedException || cause instanceof IdempotencyKeyMismatchException
					|| cause instanceof MissingIdempotencyKeyException
					|| cause instanceof InvalidIdempotencyKeyException) {
				return NO_RETRIES;
			}
		}
		if (this.classifier.classify(failure) == Disposition.STORE) {
			return NO_RETRIES;
		}
		return this.others.apply(record, failure);
	}

	/**
	 * Return the back-off function an error handler was given, so that this one keeps it for the
	 * failures it leaves alone; {@code null} if it cannot be read.
	 */
	@SuppressWarnings("unchecked")
	static @Nullable BiFunction<ConsumerRecord<?, ?>, Exception, @Nullable BackOff> configuredOn(Object handler) {
		Field field = ReflectionUtils.findField(handler.getClass(), CONFIGURED_FIELD);
		if (field == null || !BiFunction.class.isAssignableFrom(field.getType())) {
			return null;
		}
		ReflectionUtils.makeAccessible(field);
		return (BiFunction<ConsumerRecord<?, ?>, Exception, @Nullable BackOff>) ReflectionUtils.getField(field,
				handler);
	}

}
