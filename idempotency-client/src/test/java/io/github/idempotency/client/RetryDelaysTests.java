package io.github.idempotency.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryDelays} and {@link Jitter}.
 */
class RetryDelaysTests {

	private static final Instant NOW = Instant.parse("2026-03-01T10:15:30Z");

	private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

	@Test
	void theBackoffIsTheInitialDelayTimesTheMultiplierToThePowerOfTheRetryNumberCappedByTheMaxDelay() {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.builder()
			.initialDelay(Duration.ofMillis(100))
			.multiplier(3)
			.maxDelay(Duration.ofSeconds(2))
			.build();

		assertThat(RetryDelays.backoff(options, 1)).isEqualTo(Duration.ofMillis(100));
		assertThat(RetryDelays.backoff(options, 2)).isEqualTo(Duration.ofMillis(300));
		assertThat(RetryDelays.backoff(options, 3)).isEqualTo(Duration.ofMillis(900));
		assertThat(RetryDelays.backoff(options, 4)).isEqualTo(Duration.ofSeconds(2));
		assertThat(RetryDelays.backoff(options, 1_000)).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void fullJitterWaitsBetweenZeroAndTheBackoff() {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.builder()
			.jitter(Jitter.FULL)
			.initialDelay(Duration.ofMillis(800))
			.random(new SplittableRandom(7))
			.build();

		Duration shortest = Duration.ofDays(1);
		Duration longest = Duration.ZERO;
		for (int i = 0; i < 10_000; i++) {
			Duration delay = RetryDelays.next(options, 1, null);
			assertThat(delay).isBetween(Duration.ZERO, Duration.ofMillis(800));
			shortest = (delay.compareTo(shortest) < 0) ? delay : shortest;
			longest = (delay.compareTo(longest) > 0) ? delay : longest;
		}
		assertThat(shortest).isLessThan(Duration.ofMillis(100));
		assertThat(longest).isGreaterThan(Duration.ofMillis(700));
	}

	@Test
	void equalJitterWaitsBetweenHalfTheBackoffAndTheBackoff() {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.builder()
			.jitter(Jitter.EQUAL)
			.initialDelay(Duration.ofMillis(800))
			.random(new SplittableRandom(8))
			.build();

		for (int i = 0; i < 10_000; i++) {
			assertThat(RetryDelays.next(options, 1, null)).isBetween(Duration.ofMillis(400), Duration.ofMillis(800));
		}
	}

	@Test
	void noJitterWaitsExactlyTheBackoff() {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.builder()
			.jitter(Jitter.NONE)
			.initialDelay(Duration.ofMillis(250))
			.build();

		assertThat(RetryDelays.next(options, 2, null)).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void aRetryAfterInSecondsIsWaitedAsSentWithoutJitter() {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.builder().jitter(Jitter.FULL).build();

		assertThat(RetryDelays.next(options, 1, retryAfter("7"))).isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void aRetryAfterDateIsTheTimeFromTheClockUntilThatDate() {
		String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(42).atZone(ZoneOffset.UTC));

		assertThat(RetryDelays.retryAfter(retryAfter(date), CLOCK)).isEqualTo(Duration.ofSeconds(42));
	}

	@Test
	void aRetryAfterDateInThePastMeansRetryNow() {
		String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.minusSeconds(42).atZone(ZoneOffset.UTC));

		assertThat(RetryDelays.retryAfter(retryAfter(date), CLOCK)).isEqualTo(Duration.ZERO);
	}

	@ParameterizedTest(name = "\"{0}\"")
	@ValueSource(strings = { "soon", "-5", "1.5", "", "Mon, 99 Foo 2026 99:99:99 GMT" })
	void aMalformedRetryAfterIsIgnoredInFavourOfTheBackoff(String value) {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.builder()
			.jitter(Jitter.NONE)
			.initialDelay(Duration.ofMillis(100))
			.build();

		assertThat(RetryDelays.retryAfter(retryAfter(value), CLOCK)).isNull();
		assertThat(RetryDelays.next(options, 1, retryAfter(value))).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void aRetryAfterIsCappedByTheMaxDelayEvenWhenItIsHuge() {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.builder().maxDelay(Duration.ofSeconds(30)).build();

		assertThat(RetryDelays.next(options, 1, retryAfter("99999999999999999999999")))
			.isEqualTo(Duration.ofSeconds(30));
		assertThat(RetryDelays.next(options, 1, retryAfter("120"))).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void withoutARetryAfterHeaderThereIsNoServerDelay() {
		assertThat(RetryDelays.retryAfter(new HttpHeaders(), CLOCK)).isNull();
	}

	private static HttpHeaders retryAfter(String value) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, value);
		return headers;
	}

}
