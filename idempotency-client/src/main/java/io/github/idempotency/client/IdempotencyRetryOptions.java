package io.github.idempotency.client;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The immutable, validated settings of an {@link IdempotencyKeyRetryInterceptor}, built with
 * {@link #builder()}.
 */
public final class IdempotencyRetryOptions {

	/**
	 * The header that carries the key.
	 */
	public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

	/**
	 * Retries 5xx and the 4xx statuses that say "try again": 408, 409, 425 and 429. Whatever the
	 * predicate, a {@code 409} is retried only when it is the problem of a key in progress.
	 */
	public static final Predicate<HttpStatusCode> DEFAULT_RETRYABLE_STATUS = (status) -> status.is5xxServerError()
			|| status.value() == 408 || status.value() == 409 || status.value() == 425 || status.value() == 429;

	/**
	 * Retries I/O errors such as a refused connection, a reset or a read timeout, but not an
	 * unknown host, a malformed URL or a TLS handshake or certificate failure.
	 */
	public static final Predicate<IOException> DEFAULT_RETRYABLE_EXCEPTION = (ex) -> !(ex instanceof UnknownHostException
			|| ex instanceof MalformedURLException || ex instanceof SSLHandshakeException
			|| ex instanceof SSLPeerUnverifiedException);

	private static final IdempotencyRetryOptions DEFAULTS = builder().build();

	private final String headerName;

	private final Set<HttpMethod> methods;

	private final int maxAttempts;

	private final Duration initialDelay;

	private final double multiplier;

	private final Duration maxDelay;

	private final Jitter jitter;

	private final @Nullable Duration deadline;

	private final Predicate<HttpStatusCode> retryableStatus;

	private final Predicate<IOException> retryableException;

	private final Supplier<String> keyGenerator;

	private final RetrySleeper sleeper;

	private final Clock clock;

	private final @Nullable RandomGenerator random;

	private final RetryListener listener;

	private final Duration acceptedWait;

	private IdempotencyRetryOptions(Builder builder) {
		this.headerName = builder.headerName;
		this.methods = Collections.unmodifiableSet(new LinkedHashSet<>(builder.methods));
		this.maxAttempts = builder.maxAttempts;
		this.initialDelay = builder.initialDelay;
		this.multiplier = builder.multiplier;
		this.maxDelay = builder.maxDelay;
		this.jitter = builder.jitter;
		this.deadline = builder.deadline;
		this.retryableStatus = builder.retryableStatus;
		this.retryableException = builder.retryableException;
		this.keyGenerator = builder.keyGenerator;
		this.sleeper = builder.sleeper;
		this.clock = builder.clock;
		this.random = builder.random;
		this.listener = builder.listener;
		this.acceptedWait = builder.acceptedWait;
	}

	/**
	 * Return the default settings: keys on POST and PATCH, 5 attempts, 100 ms initial delay
	 * doubling up to 10 s, full jitter, no deadline, DEBUG logging.
	 * @return the default settings
	 */
	public static IdempotencyRetryOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * Return a builder that starts from the defaults.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return a builder that starts from these settings.
	 * @return a new builder
	 */
	public Builder mutate() {
		return new Builder(this);
	}

	public String headerName() {
		return this.headerName;
	}

	public Set<HttpMethod> methods() {
		return this.methods;
	}

	public int maxAttempts() {
		return this.maxAttempts;
	}

	public Duration initialDelay() {
		return this.initialDelay;
	}

	public double multiplier() {
		return this.multiplier;
	}

	public Duration maxDelay() {
		return this.maxDelay;
	}

	public Jitter jitter() {
		return this.jitter;
	}

	public @Nullable Duration deadline() {
		return this.deadline;
	}

	public Predicate<HttpStatusCode> retryableStatus() {
		return this.retryableStatus;
	}

	public Predicate<IOException> retryableException() {
		return this.retryableException;
	}

	public Supplier<String> keyGenerator() {
		return this.keyGenerator;
	}

	public RetrySleeper sleeper() {
		return this.sleeper;
	}

	public Clock clock() {
		return this.clock;
	}

	/**
	 * Return the source of jitter.
	 * @return the configured generator, or the calling thread's {@link ThreadLocalRandom}
	 */
	public RandomGenerator random() {
		return (this.random != null) ? this.random : ThreadLocalRandom.current();
	}

	public RetryListener listener() {
		return this.listener;
	}

	/**
	 * Return how long the status link of a {@code 202 Accepted} is followed.
	 * @return the wait, zero when a {@code 202} is returned as it is
	 */
	public Duration acceptedWait() {
		return this.acceptedWait;
	}

	/**
	 * Builds {@link IdempotencyRetryOptions}, validating every value as it is set.
	 */
	public static final class Builder {

		private String headerName = IDEMPOTENCY_KEY_HEADER;

		private Set<HttpMethod> methods = Set.of(HttpMethod.POST, HttpMethod.PATCH);

		private int maxAttempts = 5;

		private Duration initialDelay = Duration.ofMillis(100);

		private double multiplier = 2.0;

		private Duration maxDelay = Duration.ofSeconds(10);

		private Jitter jitter = Jitter.FULL;

		private @Nullable Duration deadline;

		private Predicate<HttpStatusCode> retryableStatus = DEFAULT_RETRYABLE_STATUS;

		private Predicate<IOException> retryableException = DEFAULT_RETRYABLE_EXCEPTION;

		private Supplier<String> keyGenerator = () -> UuidV7.randomUuid().toString();

		private RetrySleeper sleeper = RetrySleeper.threadSleep();

		private Clock clock = Clock.systemUTC();

		private @Nullable RandomGenerator random;

		private RetryListener listener = new LoggingRetryListener();

		private Duration acceptedWait = Duration.ofMinutes(5);

		private Builder() {
		}

		private Builder(IdempotencyRetryOptions options) {
			this.headerName = options.headerName;
			this.methods = options.methods;
			this.maxAttempts = options.maxAttempts;
			this.initialDelay = options.initialDelay;
			this.multiplier = options.multiplier;
			this.maxDelay = options.maxDelay;
			this.jitter = options.jitter;
			this.deadline = options.deadline;
			this.retryableStatus = options.retryableStatus;
			this.retryableException = options.retryableException;
			this.keyGenerator = options.keyGenerator;
			this.sleeper = options.sleeper;
			this.clock = options.clock;
			this.random = options.random;
			this.listener = options.listener;
			this.acceptedWait = options.acceptedWait;
		}

		/**
		 * Set the header that carries the key (default {@code Idempotency-Key}).
		 * @param headerName the header name
		 * @return this builder
		 */
		public Builder headerName(String headerName) {
			Assert.isTrue(StringUtils.hasText(headerName), "'headerName' must not be empty");
			Assert.isTrue(headerName.chars().allMatch((c) -> c > 32 && c < 127 && c != ':'),
					"'headerName' must be a valid header name");
			this.headerName = headerName;
			return this;
		}

		/**
		 * Set the methods that get a key when the caller sent none (default POST and PATCH);
		 * requests without a key are never retried.
		 * @param methods the methods, possibly none
		 * @return this builder
		 */
		public Builder methods(HttpMethod... methods) {
			Assert.noNullElements(methods, "'methods' must not contain null");
			return methods(Arrays.asList(methods));
		}

		/**
		 * Set the methods that get a key when the caller sent none (default POST and PATCH);
		 * requests without a key are never retried.
		 * @param methods the methods, possibly none
		 * @return this builder
		 */
		public Builder methods(Collection<HttpMethod> methods) {
			Assert.notNull(methods, "'methods' must not be null");
			Assert.noNullElements(methods, "'methods' must not contain null");
			this.methods = Set.copyOf(methods);
			return this;
		}

		/**
		 * Set the most attempts per call, the first one included (default 5); 1 disables
		 * retries.
		 * @param maxAttempts at least 1
		 * @return this builder
		 */
		public Builder maxAttempts(int maxAttempts) {
			Assert.isTrue(maxAttempts >= 1, "'maxAttempts' must be at least 1");
			this.maxAttempts = maxAttempts;
			return this;
		}

		/**
		 * Set the backoff before the first retry (default 100 ms).
		 * @param initialDelay zero or more, at most the max delay
		 * @return this builder
		 */
		public Builder initialDelay(Duration initialDelay) {
			Assert.notNull(initialDelay, "'initialDelay' must not be null");
			Assert.isTrue(!initialDelay.isNegative(), "'initialDelay' must not be negative");
			this.initialDelay = initialDelay;
			return this;
		}

		/**
		 * Set the factor by which the backoff grows after each retry (default 2).
		 * @param multiplier at least 1
		 * @return this builder
		 */
		public Builder multiplier(double multiplier) {
			Assert.isTrue(Double.isFinite(multiplier) && multiplier >= 1.0, "'multiplier' must be at least 1");
			this.multiplier = multiplier;
			return this;
		}

		/**
		 * Set the longest wait between attempts, which also caps {@code Retry-After}
		 * (default 10 s).
		 * @param maxDelay at least the initial delay
		 * @return this builder
		 */
		public Builder maxDelay(Duration maxDelay) {
			Assert.notNull(maxDelay, "'maxDelay' must not be null");
			Assert.isTrue(!maxDelay.isNegative(), "'maxDelay' must not be negative");
			this.maxDelay = maxDelay;
			return this;
		}

		/**
		 * Set how the backoff is randomised (default {@link Jitter#FULL}); a
		 * {@code Retry-After} is honoured as sent, without jitter.
		 * @param jitter the jitter
		 * @return this builder
		 */
		public Builder jitter(Jitter jitter) {
			Assert.notNull(jitter, "'jitter' must not be null");
			this.jitter = jitter;
			return this;
		}

		/**
		 * Set a total time budget from the start of the first attempt: no retry is started
		 * if waiting for it would pass the deadline (default none).
		 * @param deadline a positive duration, or {@code null} for none
		 * @return this builder
		 */
		public Builder deadline(@Nullable Duration deadline) {
			Assert.isTrue(deadline == null || (!deadline.isNegative() && !deadline.isZero()),
					"'deadline' must be positive");
			this.deadline = deadline;
			return this;
		}

		/**
		 * Set which response statuses are retried (default
		 * {@link IdempotencyRetryOptions#DEFAULT_RETRYABLE_STATUS}); a {@code 409} is retried
		 * only when it is the problem of a key in progress, too.
		 * @param retryableStatus the predicate
		 * @return this builder
		 */
		public Builder retryableStatus(Predicate<HttpStatusCode> retryableStatus) {
			Assert.notNull(retryableStatus, "'retryableStatus' must not be null");
			this.retryableStatus = retryableStatus;
			return this;
		}

		/**
		 * Set which I/O errors are retried (default
		 * {@link IdempotencyRetryOptions#DEFAULT_RETRYABLE_EXCEPTION}).
		 * @param retryableException the predicate
		 * @return this builder
		 */
		public Builder retryableException(Predicate<IOException> retryableException) {
			Assert.notNull(retryableException, "'retryableException' must not be null");
			this.retryableException = retryableException;
			return this;
		}

		/**
		 * Set the source of new keys (default {@link UuidV7#randomUuid()}).
		 * @param keyGenerator the generator; it must return a non-empty key
		 * @return this builder
		 */
		public Builder keyGenerator(Supplier<String> keyGenerator) {
			Assert.notNull(keyGenerator, "'keyGenerator' must not be null");
			this.keyGenerator = keyGenerator;
			return this;
		}

		/**
		 * Set how the interceptor waits between attempts (default {@link Thread#sleep}).
		 * @param sleeper the sleeper
		 * @return this builder
		 */
		public Builder sleeper(RetrySleeper sleeper) {
			Assert.notNull(sleeper, "'sleeper' must not be null");
			this.sleeper = sleeper;
			return this;
		}

		/**
		 * Set the clock for the deadline and for {@code Retry-After} dates (default UTC
		 * system clock).
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			Assert.notNull(clock, "'clock' must not be null");
			this.clock = clock;
			return this;
		}

		/**
		 * Set the source of jitter (default the calling thread's {@link ThreadLocalRandom});
		 * a shared generator must be thread-safe.
		 * @param random the generator
		 * @return this builder
		 */
		public Builder random(RandomGenerator random) {
			Assert.notNull(random, "'random' must not be null");
			this.random = random;
			return this;
		}

		/**
		 * Set the listener told about every attempt (default {@link LoggingRetryListener}).
		 * @param listener the listener, {@link RetryListener#NONE} for none
		 * @return this builder
		 */
		public Builder listener(RetryListener listener) {
			Assert.notNull(listener, "'listener' must not be null");
			this.listener = listener;
			return this;
		}

		/**
		 * Set how long the status link of a {@code 202 Accepted}, which the starter answers for a
		 * request whose work goes on, is followed until the stored response is there (default 5
		 * minutes); {@link Duration#ZERO} returns the {@code 202} as it is.
		 * @param acceptedWait the wait
		 * @return this builder
		 */
		public Builder acceptedWait(Duration acceptedWait) {
			Assert.notNull(acceptedWait, "'acceptedWait' must not be null");
			Assert.isTrue(!acceptedWait.isNegative(), "'acceptedWait' must not be negative");
			this.acceptedWait = acceptedWait;
			return this;
		}

		/**
		 * Build the settings.
		 * @return the settings
		 * @throws IllegalArgumentException if the initial delay exceeds the max delay
		 */
		public IdempotencyRetryOptions build() {
			Assert.isTrue(this.initialDelay.compareTo(this.maxDelay) <= 0,
					"'initialDelay' must not be greater than 'maxDelay'");
			return new IdempotencyRetryOptions(this);
		}

	}

}
