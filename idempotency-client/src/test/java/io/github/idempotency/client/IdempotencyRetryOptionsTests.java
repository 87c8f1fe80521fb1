package io.github.idempotency.client;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.UUID;

import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link IdempotencyRetryOptions}.
 */
class IdempotencyRetryOptionsTests {

	@Test
	void theDefaultsAreKeysOnPostAndPatchFiveAttemptsAndDoublingFullJitterBackoff() {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.defaults();

		assertThat(options.headerName()).isEqualTo("Idempotency-Key");
		assertThat(options.methods()).containsExactlyInAnyOrder(HttpMethod.POST, HttpMethod.PATCH);
		assertThat(options.maxAttempts()).isEqualTo(5);
		assertThat(options.initialDelay()).isEqualTo(Duration.ofMillis(100));
		assertThat(options.multiplier()).isEqualTo(2.0);
		assertThat(options.maxDelay()).isEqualTo(Duration.ofSeconds(10));
		assertThat(options.jitter()).isEqualTo(Jitter.FULL);
		assertThat(options.deadline()).isNull();
		assertThat(options.listener()).isInstanceOf(LoggingRetryListener.class);
	}

	@Test
	void theDefaultKeyGeneratorMakesUuidV7Keys() {
		String key = IdempotencyRetryOptions.defaults().keyGenerator().get();

		assertThat(UUID.fromString(key).version()).isEqualTo(7);
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(ints = { 408, 409, 425, 429, 500, 502, 503, 504, 599 })
	void transientStatusesAreRetriedByDefault(int status) {
		assertThat(IdempotencyRetryOptions.DEFAULT_RETRYABLE_STATUS.test(HttpStatusCode.valueOf(status))).isTrue();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(ints = { 200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 405, 410, 413, 415, 422 })
	void successesRedirectsAndFinalClientErrorsAreNotRetriedByDefault(int status) {
		assertThat(IdempotencyRetryOptions.DEFAULT_RETRYABLE_STATUS.test(HttpStatusCode.valueOf(status))).isFalse();
	}

	@Test
	void refusedConnectionsAndTimeoutsAreRetriedButUnknownHostsAndTlsFailuresAreNot() {
		var retryable = IdempotencyRetryOptions.DEFAULT_RETRYABLE_EXCEPTION;

		assertThat(retryable.test(new ConnectException("refused"))).isTrue();
		assertThat(retryable.test(new SocketTimeoutException("read timed out"))).isTrue();
		assertThat(retryable.test(new UnknownHostException("nowhere.invalid"))).isFalse();
		assertThat(retryable.test(new SSLHandshakeException("bad certificate"))).isFalse();
	}

	@Test
	void invalidValuesAreRejectedWhenTheyAreSet() {
		IdempotencyRetryOptions.Builder builder = IdempotencyRetryOptions.builder();

		assertThatIllegalArgumentException().isThrownBy(() -> builder.maxAttempts(0));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.initialDelay(Duration.ofMillis(-1)));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.maxDelay(Duration.ofMillis(-1)));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.multiplier(0.5));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.multiplier(Double.NaN));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.multiplier(Double.POSITIVE_INFINITY));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.deadline(Duration.ZERO));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.deadline(Duration.ofSeconds(-1)));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.headerName(" "));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.headerName("Idempotency Key"));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.methods((HttpMethod) null));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.sleeper(null));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.listener(null));
	}

	@Test
	void anInitialDelayLongerThanTheMaxDelayIsRejectedOnBuild() {
		IdempotencyRetryOptions.Builder builder = IdempotencyRetryOptions.builder()
			.initialDelay(Duration.ofSeconds(5))
			.maxDelay(Duration.ofSeconds(1));

		assertThatIllegalArgumentException().isThrownBy(builder::build).withMessageContaining("initialDelay");
	}

	@Test
	void mutateStartsFromTheExistingSettings() {
		IdempotencyRetryOptions original = IdempotencyRetryOptions.builder()
			.maxAttempts(3)
			.methods(HttpMethod.PUT)
			.deadline(Duration.ofSeconds(30))
			.build();

		IdempotencyRetryOptions changed = original.mutate().jitter(Jitter.EQUAL).build();

		assertThat(changed.maxAttempts()).isEqualTo(3);
		assertThat(changed.methods()).containsExactly(HttpMethod.PUT);
		assertThat(changed.deadline()).isEqualTo(Duration.ofSeconds(30));
		assertThat(changed.jitter()).isEqualTo(Jitter.EQUAL);
		assertThat(original.jitter()).isEqualTo(Jitter.FULL);
	}

	@Test
	void theMethodSetCannotBeChangedAfterBuilding() {
		IdempotencyRetryOptions options = IdempotencyRetryOptions.defaults();

		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> options.methods().add(HttpMethod.DELETE));
	}

	@Test
	void anEmptyMethodSetMeansKeysOnlyWhereTheCallerSetsThem() {
		assertThat(IdempotencyRetryOptions.builder().methods().build().methods()).isEmpty();
	}

}
