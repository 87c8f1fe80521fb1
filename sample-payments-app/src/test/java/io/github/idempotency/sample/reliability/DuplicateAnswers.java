package io.github.idempotency.sample.reliability;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.reliability.DuplicateStorm.Answer;
import io.github.idempotency.sample.reliability.DuplicateStorm.Payment;
import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The answers to the duplicates of one key, sorted into the original, its byte-identical
 * replays, in-progress conflicts and anything else.
 *
 * @param original the one answer that ran the payment, or {@code null}
 * @param originals how many answers claim to have run it
 * @param replays how many answers replayed the original byte for byte
 * @param conflicts how many answers were in-progress conflicts
 * @param unexpected descriptions of every other answer
 */
record DuplicateAnswers(HttpResponse<byte[]> original, int originals, int replays, int conflicts,
		List<String> unexpected) {

	private static final String IN_PROGRESS = "urn:problem-type:idempotency:in-progress";

	/**
	 * Sort the answers to the duplicates of one key.
	 * @param answers the answers
	 * @return the sorted answers
	 */
	static DuplicateAnswers of(List<Answer> answers) {
		List<HttpResponse<byte[]>> originals = answers.stream()
			.filter((answer) -> answer.status() == 201 && !answer.replayed())
			.map(Answer::response)
			.toList();
		HttpResponse<byte[]> original = (originals.size() == 1) ? originals.get(0) : null;
		int replays = 0;
		int conflicts = 0;
		List<String> unexpected = new ArrayList<>();
		for (Answer answer : answers) {
			HttpResponse<byte[]> response = answer.response();
			if (originals.contains(response)) {
				continue;
			}
			if (original != null && isReplayOf(response, original)) {
				replays++;
			}
			else if (isConflict(response)) {
				conflicts++;
			}
			else {
				unexpected.add("instance " + answer.instance() + ": " + response.statusCode() + " "
						+ response.headers().map() + " " + Http.text(response));
			}
		}
		return new DuplicateAnswers(original, originals.size(), replays, conflicts, unexpected);
	}

	/**
	 * Sort the answers of every key, asserting that each key has exactly one original and
	 * otherwise only replays and conflicts.
	 * @param answers the answers by key
	 * @return the sorted answers by key
	 */
	static Map<Payment, DuplicateAnswers> ofEveryKey(Map<Payment, List<Answer>> answers) {
		Map<Payment, DuplicateAnswers> sorted = new LinkedHashMap<>();
		answers.forEach((payment, list) -> {
			DuplicateAnswers tally = of(list);
			assertThat(tally.originals()).as("originals of %s (other answers: %s)", payment.key(), tally.unexpected())
				.isOne();
			assertThat(tally.unexpected()).as("answers other than original, replay or conflict").isEmpty();
			assertThat(tally.originals() + tally.replays() + tally.conflicts()).isEqualTo(list.size());
			sorted.put(payment, tally);
		});
		return sorted;
	}

	/**
	 * Assert that the database holds exactly one settled payment and one charge, called once, for
	 * the key, and the original's response stored for it.
	 * @param db the database
	 * @param payment the payment request
	 */
	void assertOneEffect(ReliabilityDatabase db, Payment payment) {
		assertThat(db.paymentsOf(payment.key())).as("payments of %s", payment.key()).isOne();
		assertThat(db.chargesOf(payment.key())).as("charges of %s", payment.key()).isOne();
		Map<String, Object> charge = db.chargeOf(payment.key());
		assertThat(charge).containsEntry("attempts", 1).containsEntry("status", "SUCCEEDED");
		JsonNode body = json(this.original);
		assertThat(db.paymentOf(payment.key())).containsEntry("id", body.get("id").asLong())
			.containsEntry("status", "SUCCEEDED")
			.containsEntry("gateway_charge_id", charge.get("id"));
		Map<String, Object> record = db.recordOf(payment.key());
		assertThat(record).containsEntry("status", "COMPLETED").containsEntry("response_status", 201);
		assertThat((byte[]) record.get("response_body")).isEqualTo(this.original.body());
	}

	/**
	 * Assert that every instance now replays the original byte for byte.
	 * @param instances the instances
	 * @param payment the payment request
	 */
	void assertReplayedByEvery(List<Http> instances, Payment payment) {
		for (Http instance : instances) {
			HttpResponse<byte[]> replay = instance.post("/payments").key(payment.key()).json(payment.body()).send();
			assertThat(isReplayOf(replay, this.original)).as("replay of %s: %s", payment.key(), Http.text(replay))
				.isTrue();
		}
	}

	private static boolean isReplayOf(HttpResponse<byte[]> response, HttpResponse<byte[]> original) {
		return response.statusCode() == original.statusCode()
				&& response.headers().firstValue("Idempotent-Replayed").equals(Optional.of("true"))
				&& Arrays.equals(response.body(), original.body())
				&& response.headers().firstValue("Location").equals(original.headers().firstValue("Location"))
				&& response.headers()
					.firstValue("Content-Type")
					.equals(original.headers().firstValue("Content-Type"));
	}

	private static boolean isConflict(HttpResponse<byte[]> response) {
		if (response.statusCode() != 409
				|| !response.headers().firstValue("Content-Type").equals(Optional.of("application/problem+json"))
				|| response.headers().firstValue("Retry-After").isEmpty()) {
			return false;
		}
		return IN_PROGRESS.equals(json(response).get("type").asString());
	}

}
