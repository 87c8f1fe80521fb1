package io.github.idempotency.sample.intents;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /intent-mandates} keys each mandate by its user and a canonical hash of the intent,
 * {@code intent_mandate:{userId}:{intentHash}}: the same intent, however its JSON is laid out and
 * its merchants and skus are ordered, gets the same mandate; any changed term a new one.
 */
class IntentMandateIdempotencyTests extends PostgresFlowTest {

	/**
	 * Midnight UTC thirty days from now, within the 90 days a mandate may run.
	 */
	static final Instant EXPIRY = LocalDate.now(ZoneOffset.UTC).plusDays(30).atStartOfDay(ZoneOffset.UTC).toInstant();

	private static final String EXPIRES_AT = EXPIRY.toString();

	private String user;

	@BeforeEach
	void newUser() {
		this.user = "user-" + UUID.randomUUID().toString().substring(0, 8);
	}

	@Test
	void sameIntentTwiceGetsTheSameMandateAsAReplay() {
		String intent = intent(this.user, "[\"m-2\",\"m-1\"]", "[\"T-9\",\"T-1\"]", 20000, "EUR", EXPIRES_AT);
		HttpResponse<byte[]> first = this.http.post("/intent-mandates").json(intent).send();
		HttpResponse<byte[]> again = this.http.post("/intent-mandates").json(intent).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(again.statusCode()).isEqualTo(201);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(this.db.intentMandates()).isOne();
	}

	@Test
	void sameIntentWithReorderedListsMembersAndAnotherOffsetGetsTheSameMandate() {
		HttpResponse<byte[]> first = this.http.post("/intent-mandates")
			.json(intent(this.user, "[\"m-2\",\"m-1\"]", "[\"T-9\",\"T-1\"]", 20000, "EUR", EXPIRES_AT))
			.send();
		String sameInstant = DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(EXPIRY.atOffset(ZoneOffset.ofHours(1)));
		String reordered = "{\"expiresAt\":\"" + sameInstant + "\",\"currency\":\"EUR\",\"maxAmount\":20000,"
				+ "\"skus\":[\"T-1\",\"T-9\"],\"merchants\":[\"m-1\",\"m-2\"],"
				+ "\"description\":\"Two tickets for Friday\",\"userId\":\"" + this.user + "\"}";
		HttpResponse<byte[]> again = this.http.post("/intent-mandates").json(reordered).send();
		assertThat(again.statusCode()).isEqualTo(201);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(this.db.intentMandates()).isOne();
	}

	@Test
	void absentListsAndBooleansMeanTheSameIntentAsTheirDefaultsSpelledOut() {
		String absent = "{\"userId\":\"" + this.user + "\",\"description\":\"Anything for the kids\","
				+ "\"maxAmount\":5000,\"currency\":\"USD\",\"expiresAt\":\"" + EXPIRES_AT + "\"}";
		String spelledOut = "{\"userId\":\"" + this.user + "\",\"description\":\"Anything for the kids\","
				+ "\"merchants\":[],\"skus\":[],\"requiresRefundability\":false,\"userCartConfirmationRequired\":true,"
				+ "\"maxAmount\":5000,\"currency\":\"USD\",\"expiresAt\":\"" + EXPIRES_AT + "\"}";
		HttpResponse<byte[]> first = this.http.post("/intent-mandates").json(absent).send();
		HttpResponse<byte[]> again = this.http.post("/intent-mandates").json(spelledOut).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		JsonNode mandate = json(first);
		assertThat(mandate.get("requiresRefundability").asBoolean()).isFalse();
		assertThat(mandate.get("userCartConfirmationRequired").asBoolean()).isTrue();
		assertThat(this.db.intentMandates()).isOne();
	}

	@Test
	void anyChangedTermIsANewIntentWithAHashOfItsOwn() {
		List<String> intents = List.of(intent(this.user, "[\"m-1\"]", "[\"T-1\"]", 20000, "EUR", EXPIRES_AT),
				intent(this.user, "[\"m-1\",\"m-3\"]", "[\"T-1\"]", 20000, "EUR", EXPIRES_AT),
				intent(this.user, "[\"m-1\"]", "[\"T-2\"]", 20000, "EUR", EXPIRES_AT),
				intent(this.user, "[\"m-1\"]", "[\"T-1\"]", 20001, "EUR", EXPIRES_AT),
				intent(this.user, "[\"m-1\"]", "[\"T-1\"]", 20000, "USD", EXPIRES_AT),
				intent(this.user, "[\"m-1\"]", "[\"T-1\"]", 20000, "EUR", EXPIRY.plusMillis(1).toString()),
				intent(this.user, "[\"m-1\"]", "[\"T-1\"]", 20000, "EUR", EXPIRES_AT)
					.replace("Two tickets for Friday", "Two tickets for Saturday"),
				intent(this.user, "[\"m-1\"]", "[\"T-1\"]", 20000, "EUR", EXPIRES_AT)
					.replace("\"currency\"", "\"requiresRefundability\":true,\"currency\""),
				intent(this.user + "-2", "[\"m-1\"]", "[\"T-1\"]", 20000, "EUR", EXPIRES_AT));
		Set<String> ids = new HashSet<>();
		Set<String> hashes = new HashSet<>();
		for (String intent : intents) {
			HttpResponse<byte[]> response = this.http.post("/intent-mandates").json(intent).send();
			assertThat(response.statusCode()).as(intent).isEqualTo(201);
			assertThat(response.headers().firstValue("Idempotent-Replayed")).as(intent).isEmpty();
			ids.add(json(response).get("id").asString());
			hashes.add(json(response).get("intentHash").asString());
		}
		assertThat(ids).hasSize(intents.size());
		assertThat(hashes).as("the user is in the key, not in the hash").hasSize(intents.size() - 1);
		assertThat(this.db.intentMandates()).isEqualTo(intents.size());
	}

	@Test
	void mandateHoldsTheSortedIntentAndTheHashOfItsCanonicalForm() throws Exception {
		HttpResponse<byte[]> response = this.http.post("/intent-mandates")
			.json(intent(this.user, "[\"m-2\",\"m-1\"]", "[\"T-9\",\"T-1\"]", 20000, "EUR", EXPIRES_AT))
			.send();
		JsonNode mandate = json(response);
		String canonical = "{\"description\":\"Two tickets for Friday\",\"merchants\":[\"m-1\",\"m-2\"],"
				+ "\"skus\":[\"T-1\",\"T-9\"],\"maxAmount\":20000,\"currency\":\"EUR\",\"requiresRefundability\":false,"
				+ "\"userCartConfirmationRequired\":true,\"expiresAt\":\"" + EXPIRES_AT + "\"}";
		String hash = HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
		assertThat(mandate.get("id").asString()).startsWith("im_");
		assertThat(response.headers().firstValue("Location"))
			.hasValue("/intent-mandates/" + mandate.get("id").asString());
		assertThat(mandate.get("intentHash").asString()).isEqualTo(hash);
		assertThat(mandate.get("merchants").toString()).isEqualTo("[\"m-1\",\"m-2\"]");
		assertThat(mandate.get("skus").toString()).isEqualTo("[\"T-1\",\"T-9\"]");
		assertThat(mandate.get("expiresAt").asString()).isEqualTo(EXPIRES_AT);
		assertThat(this.db.record("create-intent-mandate", "intent_mandate:" + this.user + ":" + hash))
			.containsEntry("status", "COMPLETED");
		assertThat(json(this.http.get("/intent-mandates/" + mandate.get("id").asString()).send())).isEqualTo(mandate);
	}

	@Test
	void sameIntentFindsItsMandateOnceTheIdempotencyRecordHasExpired() {
		String intent = intent(this.user, "[\"m-1\"]", "[]", 20000, "EUR", EXPIRES_AT);
		JsonNode first = json(this.http.post("/intent-mandates").json(intent).send());
		this.db.expireRecord("create-intent-mandate", "intent_mandate:" + this.user + ":"
				+ first.get("intentHash").asString());
		HttpResponse<byte[]> again = this.http.post("/intent-mandates").json(intent).send();
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(json(again)).isEqualTo(first);
		assertThat(this.db.intentMandates()).isOne();
	}

	@Test
	void invalidIntentIsAStoredBadRequestThatIsReplayed() {
		String intent = intent(this.user, "[\"m-1\",\"m-1\"]", "[]", 0, "EUR", "2020-01-01T00:00:00Z");
		HttpResponse<byte[]> first = this.http.post("/intent-mandates").json(intent).send();
		HttpResponse<byte[]> again = this.http.post("/intent-mandates").json(intent).send();
		assertThat(first.statusCode()).isEqualTo(400);
		JsonNode problem = json(first);
		assertThat(problem.get("type").asString()).isEqualTo("https://payments.example/problems/invalid-intent");
		assertThat(problem.get("errors").toString()).contains("merchants[1] repeats an earlier entry",
				"maxAmount must be positive", "expiresAt must be in the future");
		assertThat(again.statusCode()).isEqualTo(400);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(this.db.intentMandates()).isZero();
	}

	@Test
	void intentWithoutAValidUserIsRefusedBeforeAnythingIsClaimed() {
		HttpResponse<byte[]> response = this.http.post("/intent-mandates")
			.json(intent("", "[]", "[]", 20000, "EUR", EXPIRES_AT))
			.send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).get("type").asString()).isEqualTo("https://payments.example/problems/invalid-intent");
		assertThat(this.db.records("create-intent-mandate")).isZero();
	}

	static String intent(String userId, String merchants, String skus, long maxAmount, String currency,
			String expiresAt) {
		return "{\"userId\":\"" + userId + "\",\"description\":\"Two tickets for Friday\",\"merchants\":" + merchants
				+ ",\"skus\":" + skus + ",\"maxAmount\":" + maxAmount + ",\"currency\":\"" + currency
				+ "\",\"expiresAt\":\"" + expiresAt + "\"}";
	}

}
