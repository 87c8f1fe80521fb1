package io.github.idempotency.engine;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

import io.github.idempotency.Disposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests for {@link DefaultOutcomeClassifier}.
 */
class DefaultOutcomeClassifierTests {

	private final DefaultOutcomeClassifier classifier = new DefaultOutcomeClassifier();

	private final DefaultOutcomeClassifier configured = new DefaultOutcomeClassifier(
			DefaultOutcomeClassifier.DEFAULT_TRANSIENT_STATUSES, List.of(CardDeclinedException.class),
			List.of(GatewayBusyException.class));

	@ParameterizedTest
	@ValueSource(ints = { 200, 201, 202, 204, 301, 302, 303, 304, 307 })
	void storesSuccessfulAndRedirectingResponses(int status) {
		assertThat(this.classifier.classify(status, null)).isEqualTo(Disposition.STORE);
	}

	@ParameterizedTest
	@ValueSource(ints = { 400, 401, 402, 403, 404, 405, 410, 412, 413, 415, 422 })
	void storesFinalClientErrors(int status) {
		assertThat(this.classifier.classify(status, null)).isEqualTo(Disposition.STORE);
	}

	@ParameterizedTest
	@ValueSource(ints = { 408, 409, 425, 429 })
	void releasesRetryableClientErrors(int status) {
		assertThat(this.classifier.classify(status, null)).isEqualTo(Disposition.RELEASE);
	}

	@ParameterizedTest
	@ValueSource(ints = { 500, 501, 502, 503, 504, 599 })
	void releasesServerErrors(int status) {
		assertThat(this.classifier.classify(status, null)).isEqualTo(Disposition.RELEASE);
	}

	@Test
	void configuredTransientStatusesReplaceTheDefaults() {
		DefaultOutcomeClassifier classifier = new DefaultOutcomeClassifier(Set.of(423), List.of(), List.of());
		assertThat(classifier.classify(423, null)).isEqualTo(Disposition.RELEASE);
		assertThat(classifier.classify(429, null)).isEqualTo(Disposition.STORE);
		assertThat(classifier.classify(500, null)).isEqualTo(Disposition.RELEASE);
	}

	@Test
	void unmappedExceptionFollowsTheStatusItWasRenderedWith() {
		assertThat(this.classifier.classify(400, new IllegalArgumentException())).isEqualTo(Disposition.STORE);
		assertThat(this.classifier.classify(500, new IllegalArgumentException())).isEqualTo(Disposition.RELEASE);
	}

	@Test
	void finalExceptionIsStoredWhateverItsStatus() {
		assertThat(this.configured.classify(500, new CardDeclinedException())).isEqualTo(Disposition.STORE);
		assertThat(this.configured.classify(429, new CardDeclinedException())).isEqualTo(Disposition.STORE);
	}

	@Test
	void finalExceptionIsFoundInTheCauseChain() {
		RuntimeException wrapped = new IllegalStateException("wrapper",
				new RuntimeException(new CardDeclinedException()));
		assertThat(this.configured.classify(500, wrapped)).isEqualTo(Disposition.STORE);
		assertThat(this.configured.classify(wrapped)).isEqualTo(Disposition.STORE);
	}

	@Test
	void finalExceptionTypesMatchSubclasses() {
		assertThat(this.configured.classify(500, new ExpiredCardException())).isEqualTo(Disposition.STORE);
	}

	@Test
	void transientExceptionIsReleasedWhateverItsStatus() {
		assertThat(this.configured.classify(200, new GatewayBusyException())).isEqualTo(Disposition.RELEASE);
		assertThat(this.configured.classify(400, new RuntimeException(new GatewayBusyException())))
			.isEqualTo(Disposition.RELEASE);
	}

	@Test
	void transientWinsOverFinalInOneCauseChain() {
		assertThat(this.configured.classify(400, new CardDeclinedException(new GatewayBusyException())))
			.isEqualTo(Disposition.RELEASE);
	}

	@Test
	void lostOrRefusedDatabaseConnectionsAreTransient() {
		assertThat(this.classifier.classify(400, new CannotGetJdbcConnectionException("refused")))
			.isEqualTo(Disposition.RELEASE);
		assertThat(this.classifier.classify(400, new DataAccessResourceFailureException("gone")))
			.isEqualTo(Disposition.RELEASE);
		assertThat(this.classifier.classify(400, new QueryTimeoutException("slow"))).isEqualTo(Disposition.RELEASE);
		assertThat(this.classifier.classify(400, new CannotCreateTransactionException("no connection")))
			.isEqualTo(Disposition.RELEASE);
		assertThat(this.classifier.classify(400, new RuntimeException(new SQLTransientConnectionException())))
			.isEqualTo(Disposition.RELEASE);
	}

	@Test
	void databaseConnectionFailuresAreTransientEvenIfConfiguredFinal() {
		DefaultOutcomeClassifier classifier = new DefaultOutcomeClassifier(
				DefaultOutcomeClassifier.DEFAULT_TRANSIENT_STATUSES, List.of(RuntimeException.class), List.of());
		assertThat(classifier.classify(400, new CannotGetJdbcConnectionException("refused")))
			.isEqualTo(Disposition.RELEASE);
	}

	@Test
	void timeoutsAndIoErrorsAreTransient() {
		assertThat(this.classifier.classify(400, new UncheckedIOException(new ConnectException())))
			.isEqualTo(Disposition.RELEASE);
		assertThat(this.classifier.classify(400, new RuntimeException(new SocketTimeoutException())))
			.isEqualTo(Disposition.RELEASE);
		assertThat(this.classifier.classify(new java.util.concurrent.TimeoutException()))
			.isEqualTo(Disposition.RELEASE);
	}

	@Test
	void methodThatReturnedIsStored() {
		assertThat(this.classifier.classify(null)).isEqualTo(Disposition.STORE);
	}

	@Test
	void methodThatThrewIsReleasedUnlessTheExceptionIsFinal() {
		assertThat(this.configured.classify(new IllegalStateException())).isEqualTo(Disposition.RELEASE);
		assertThat(this.configured.classify(new CardDeclinedException())).isEqualTo(Disposition.STORE);
		assertThat(this.configured.classify(new CardDeclinedException(new GatewayBusyException())))
			.isEqualTo(Disposition.RELEASE);
	}

	@Test
	void causeChainWithACycleIsClassified() {
		RuntimeException first = new RuntimeException("first");
		RuntimeException second = new RuntimeException("second");
		first.initCause(second);
		second.initCause(first);
		Disposition disposition = assertTimeoutPreemptively(Duration.ofSeconds(10),
				() -> this.configured.classify(500, first));
		assertThat(disposition).isEqualTo(Disposition.RELEASE);
		assertThat(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> this.configured.classify(first)))
			.isEqualTo(Disposition.RELEASE);
		CardDeclinedException declined = new CardDeclinedException();
		RuntimeException wrapper = new RuntimeException(declined);
		declined.initCause(wrapper);
		assertThat(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> this.configured.classify(500, wrapper)))
			.isEqualTo(Disposition.STORE);
	}

	static class CardDeclinedException extends RuntimeException {

		CardDeclinedException() {
		}

		CardDeclinedException(Throwable cause) {
			super(cause);
		}

	}

	static class ExpiredCardException extends CardDeclinedException {

	}

	static class GatewayBusyException extends RuntimeException {

	}

}
