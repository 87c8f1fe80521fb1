package io.github.idempotency.adoption.clinic;

import io.github.idempotency.jdbc.AdoptionJdbc;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.IdempotencyMockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The clinic application, with the starter added as the README says, holds the HTTP contract
 * over real HTTP: replays byte for byte (a long {@code Location}, a long body), every refusal as
 * the starter's problem past the application's catch-all handler (which never sees one), a key
 * never run twice, authorization and bean validation before any claim, ATOMIC rollbacks, and the
 * starter's tables as its migrations made them despite {@code ddl-auto=update}. Each subclass runs
 * it on one database.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
@Import({ ServiceGate.class, StartupSnapshot.class })
abstract class ClinicContractTests {

	private static final String ADMIN = basic("admin", "admin");

	private static final String VET = basic("vet", "vet");

	private static final String PROBLEM_TYPES = "urn:problem-type:idempotency:";

	private static final JsonMapper json = JsonMapper.shared();

	@LocalServerPort
	int port;

	@Autowired
	DataSource dataSource;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	ServiceGate gate;

	@Autowired
	StartupSnapshot startup;

	@Autowired
	MockMvc mvc;

	private final ListAppender<ILoggingEvent> catchAll = new ListAppender<>();

	/**
	 * Return an empty database of the platform the application runs on.
	 * @return the database
	 */
	abstract DataSource emptyDatabase();

	@BeforeEach
	void watchTheCatchAllHandler() {
		this.catchAll.start();
		((Logger) LoggerFactory.getLogger(ApiExceptionHandler.class)).addAppender(this.catchAll);
	}

	@AfterEach
	void stopWatching() {
		((Logger) LoggerFactory.getLogger(ApiExceptionHandler.class)).detachAppender(this.catchAll);
	}

	@Test
	void aNewOwnerIsAddedOnceAndItsReplayIsByteForByteWithALongLocationAndALongBody() {
		String key = key();
		String lastName = lastName("Franklin") + "x".repeat(2000);
		String notes = "Prefers morning visits. ".repeat(4_200);
		String owner = ownerJson(lastName, telephone(), notes);

		HttpResponse<byte[]> first = addOwner(key, owner).send();
		HttpResponse<byte[]> replay = addOwner(key, owner).send();

		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(location(first)).hasSizeGreaterThan(2000).startsWith("/api/owners/");
		assertThat(first.body().length).isGreaterThan(100_000);
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(location(replay)).isEqualTo(location(first));
		assertThat(replay.headers().firstValue("Content-Type")).isEqualTo(first.headers().firstValue("Content-Type"));
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(owners(lastName)).isOne();
		assertThat(status(key)).isEqualTo("COMPLETED");
	}

	@Test
	void theSameKeyWithAnotherBodyIsRefusedWith422AndTheStoredOwnerIsNeverShown() {
		String key = key();
		String lastName = lastName("Davis");
		String other = lastName("Escobar");
		HttpResponse<byte[]> first = addOwner(key, ownerJson(lastName, telephone(), null)).send();

		HttpResponse<byte[]> reused = addOwner(key, ownerJson(other, telephone(), null)).send();

		assertThat(first.statusCode()).isEqualTo(201);
		assertStartersProblem(reused, 422, "key-reused");
		assertThat(Http.text(reused)).doesNotContain(lastName);
		assertThat(owners(lastName)).isOne();
		assertThat(owners(other)).isZero();
		assertTheCatchAllSawNothing();
	}

	@Test
	void aRequestWithoutAKeyIsRefusedWith400AndAddsNoOwner() {
		String lastName = lastName("Keyless");

		HttpResponse<byte[]> refused = addOwner(null, ownerJson(lastName, telephone(), null)).send();

		assertStartersProblem(refused, 400, "missing-key");
		assertThat(owners(lastName)).isZero();
		assertTheCatchAllSawNothing();
	}

	@Test
	void aMalformedKeyIsRefusedWith400AndAddsNoOwner() {
		String lastName = lastName("Longkey");

		HttpResponse<byte[]> refused = addOwner("k".repeat(256), ownerJson(lastName, telephone(), null)).send();

		assertStartersProblem(refused, 400, "invalid-key");
		assertThat(owners(lastName)).isZero();
		assertTheCatchAllSawNothing();
	}

	@Test
	void aBodyWithADuplicateMemberIsRefusedWith400MalformedBodyAndAddsNoOwner() {
		String lastName = lastName("Twice");
		String duplicateMember = ownerJson(lastName, telephone(), null).replace("{", "{\"city\":\"Madison\",");

		HttpResponse<byte[]> refused = addOwner(key(), duplicateMember).send();

		assertStartersProblem(refused, 400, "malformed-body");
		assertThat(owners(lastName)).isZero();
		assertTheCatchAllSawNothing();
	}

	@Test
	void aBodyOverTheLimitIsRefusedWith413AndAddsNoOwner() {
		String lastName = lastName("Verbose");
		String owner = ownerJson(lastName, telephone(), "Talks a lot. ".repeat(100_000));

		HttpResponse<byte[]> refused = addOwner(key(), owner).send();

		assertStartersProblem(refused, 413, "body-too-large");
		assertThat(owners(lastName)).isZero();
		assertTheCatchAllSawNothing();
	}

	@Test
	void aDuplicateWhileTheFirstIsStillRunningGets409WithRetryAfterAndTheOwnerIsAddedOnce() throws Exception {
		String key = key();
		String lastName = lastName("Held");
		String owner = ownerJson(lastName, telephone(), null);
		ServiceGate.Hold hold = this.gate.hold(lastName);
		CompletableFuture<HttpResponse<byte[]>> first;
		HttpResponse<byte[]> duplicate;
		try {
			first = addOwner(key, owner).sendAsync();
			hold.awaitEntered();
			duplicate = addOwner(key, owner).send();
		}
		finally {
			hold.release();
		}
		HttpResponse<byte[]> original = first.get(60, TimeUnit.SECONDS);
		HttpResponse<byte[]> replay = addOwner(key, owner).send();

		assertStartersProblem(duplicate, 409, "in-progress");
		assertThat(duplicate.headers().firstValue("Retry-After")).hasValueSatisfying(
				(retryAfter) -> assertThat(Integer.parseInt(retryAfter)).isPositive());
		assertThat(original.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(original.body());
		assertThat(owners(lastName)).isOne();
		assertTheCatchAllSawNothing();
	}

	@Test
	void aFinalClientErrorIsStoredAndReplayed() {
		String telephone = telephone();
		String taken = lastName("First");
		String refusedName = lastName("Second");
		String key = key();
		assertThat(addOwner(key(), ownerJson(taken, telephone, null)).send().statusCode()).isEqualTo(201);

		HttpResponse<byte[]> refused = addOwner(key, ownerJson(refusedName, telephone, null)).send();
		HttpResponse<byte[]> replay = addOwner(key, ownerJson(refusedName, telephone, null)).send();

		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(field(refused, "detail")).contains("already registered");
		assertThat(refused.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(replay.statusCode()).isEqualTo(400);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(refused.body());
		assertThat(status(key)).isEqualTo("COMPLETED");
		assertThat(owners(refusedName)).isZero();
	}

	@Test
	void aTransientServerErrorReleasesTheKeyAndTheRetryAddsTheOwnerOnce() {
		String key = key();
		String lastName = lastName("Unlucky");
		String owner = ownerJson(lastName, telephone(), null);
		this.gate.failOnce(lastName, new IllegalStateException("The reminder service is unavailable"));

		HttpResponse<byte[]> failed = addOwner(key, owner).send();

		assertThat(failed.statusCode()).isEqualTo(500);
		assertThat(owners(lastName)).isZero();
		assertThat(status(key)).isEqualTo("RELEASED");
		assertThat(this.catchAll.list).hasSize(1);

		HttpResponse<byte[]> retried = addOwner(key, owner).send();

		assertThat(retried.statusCode()).isEqualTo(201);
		assertThat(retried.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(owners(lastName)).isOne();
		assertThat(status(key)).isEqualTo("COMPLETED");
	}

	@Test
	void twentyParallelRequestsWithOneKeyAddExactlyOneOwnerAndEachGetsTheOriginalAReplayOrA409() throws Exception {
		String key = key();
		String lastName = lastName("Crowd");
		String owner = ownerJson(lastName, telephone(), null);
		List<HttpResponse<byte[]>> responses = parallel(20, () -> addOwner(key, owner).send());

		List<HttpResponse<byte[]>> originals = responses.stream()
			.filter((response) -> response.statusCode() == 201)
			.filter((response) -> response.headers().firstValue("Idempotent-Replayed").isEmpty())
			.toList();
		assertThat(originals).hasSize(1);
		byte[] original = originals.get(0).body();
		assertThat(responses).allSatisfy((response) -> {
			if (response.statusCode() == 409) {
				assertStartersProblem(response, 409, "in-progress");
			}
			else {
				assertThat(response.statusCode()).isEqualTo(201);
				assertThat(response.body()).isEqualTo(original);
			}
		});
		assertThat(owners(lastName)).isOne();
		assertTheCatchAllSawNothing();
	}

	@Test
	void aUserWithoutTheRoleIsRefusedWith403AndLeavesNoRecordForTheKey() {
		String key = key();
		String lastName = lastName("Forbidden");
		String owner = ownerJson(lastName, telephone(), null);

		HttpResponse<byte[]> refused = new Http(this.port).post("/api/owners")
			.header(HttpHeaders.AUTHORIZATION, VET)
			.key(key)
			.json(owner)
			.send();
		HttpResponse<byte[]> refusedWithoutKey = new Http(this.port).post("/api/owners")
			.header(HttpHeaders.AUTHORIZATION, VET)
			.json(owner)
			.send();
		HttpResponse<byte[]> anonymous = new Http(this.port).post("/api/owners").key(key).json(owner).send();

		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(field(refused, "type")).doesNotStartWith(PROBLEM_TYPES);
		assertThat(refusedWithoutKey.statusCode()).isEqualTo(403);
		assertThat(anonymous.statusCode()).isEqualTo(401);
		assertThat(records(key)).as("records of any status").isZero();
		assertThat(owners(lastName)).isZero();

		assertThat(addOwner(key, owner).send().statusCode()).isEqualTo(201);
		assertThat(owners(lastName)).isOne();
	}

	@Test
	void aBeanValidationFailureIsTheApplicationsOwn400AndStoresNothingSoTheKeyThenWorks() {
		String key = key();
		String lastName = lastName("Blank");

		HttpResponse<byte[]> invalid = addOwner(key, ownerJson(lastName, telephone(), null).replace("\"George\"", "\"\""))
			.send();

		assertThat(invalid.statusCode()).isEqualTo(400);
		assertThat(field(invalid, "type")).doesNotStartWith(PROBLEM_TYPES);
		assertThat(Http.text(invalid)).contains("firstName");
		assertThat(records(key)).as("records of any status").isZero();

		HttpResponse<byte[]> valid = addOwner(key, ownerJson(lastName, telephone(), null)).send();

		assertThat(valid.statusCode()).isEqualTo(201);
		assertThat(valid.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(owners(lastName)).isOne();
	}

	@Test
	void ddlAutoUpdateLeftTheStartersTablesAsItsMigrationsMadeThem() {
		DataSource reference = emptyDatabase();
		AdoptionJdbc.createSchema(reference);

		assertThat(AdoptionJdbc.columnShortfalls(this.jdbc, this.dataSource)).isEmpty();
		assertThat(starterColumns(this.jdbc)).isNotEmpty()
			.containsExactlyElementsOf(starterColumns(new JdbcTemplate(reference)));
	}

	@Test
	void theApplicationsDataSqlRanAndTheStartersTablesWereThereBeforeTheFirstRequest() {
		assertThat(this.startup.users()).containsExactly("admin:ROLE_OWNER_ADMIN", "vet:ROLE_VET_ADMIN");
		assertThat(this.startup.starterShortfalls()).isEmpty();
		assertThat(this.startup.starterMigrations()).isPositive();
	}

	@Test
	void mockMvcWithAutoConfigureMockMvcAddsTheOwnerOnceAndReplaysIt() throws Exception {
		String key = key();
		String lastName = lastName("Mock");
		String owner = ownerJson(lastName, telephone(), null);

		MvcResult first = this.mvc.perform(post("/api/owners").with(IdempotencyMockMvc.idempotencyKey(key))
			.header(HttpHeaders.AUTHORIZATION, ADMIN)
			.contentType(MediaType.APPLICATION_JSON)
			.content(owner)).andReturn();
		MvcResult replay = this.mvc.perform(post("/api/owners").with(IdempotencyMockMvc.idempotencyKey(key))
			.header(HttpHeaders.AUTHORIZATION, ADMIN)
			.contentType(MediaType.APPLICATION_JSON)
			.content(owner)).andReturn();
		MvcResult another = this.mvc.perform(post("/api/owners").with(IdempotencyMockMvc.idempotencyKey())
			.header(HttpHeaders.AUTHORIZATION, ADMIN)
			.contentType(MediaType.APPLICATION_JSON)
			.content(ownerJson(lastName("Mock"), telephone(), null))).andReturn();

		assertThat(first.getResponse().getStatus()).isEqualTo(201);
		assertThat(replay.getResponse().getStatus()).isEqualTo(201);
		assertThat(replay.getResponse().getHeader("Idempotent-Replayed")).isEqualTo("true");
		assertThat(replay.getResponse().getHeader("Location")).isEqualTo(first.getResponse().getHeader("Location"));
		assertThat(replay.getResponse().getContentAsByteArray()).isEqualTo(first.getResponse().getContentAsByteArray());
		assertThat(another.getResponse().getStatus()).isEqualTo(201);
		assertThat(owners(lastName)).isOne();
	}

	@Test
	void aNewPetIsAddedOnceInTheTransactionOfItsRecordAndItsReplayIsByteForByte() {
		int ownerId = newOwner();
		String key = key();
		String pet = petJson("Leo");

		HttpResponse<byte[]> first = addPet(ownerId, key, pet).send();
		HttpResponse<byte[]> replay = addPet(ownerId, key, pet).send();

		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(location(first)).startsWith("/api/owners/" + ownerId + "/pets/");
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(location(replay)).isEqualTo(location(first));
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(pets(ownerId)).isOne();
		assertThat(status(key)).isEqualTo("COMPLETED");
	}

	@Test
	void twentyRequestsWithOneKeyOnTheAtomicEndpointWaitForTheFirstHoweverLongItRunsAndAddOnePet() throws Exception {
		int ownerId = newOwner();
		String key = key();
		String name = "Luna" + UUID.randomUUID().toString().substring(0, 8);
		ServiceGate.Hold hold = this.gate.hold(name);
		List<CompletableFuture<HttpResponse<byte[]>>> sent = new ArrayList<>();
		try {
			for (int i = 0; i < 20; i++) {
				sent.add(addPet(ownerId, key, petJson(name)).sendAsync());
			}
			hold.awaitEntered();
			// ATOMIC duplicates wait for the first request to commit, so none may answer while it
			// is held; it is held past H2's lock timeout (2 s), unless one answers first.
			try {
				CompletableFuture.anyOf(sent.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
			}
			catch (TimeoutException ex) {
				// None answered while the first was held, as it should be.
			}
		}
		finally {
			hold.release();
		}
		List<HttpResponse<byte[]>> responses = new ArrayList<>();
		for (CompletableFuture<HttpResponse<byte[]>> response : sent) {
			responses.add(response.get(60, TimeUnit.SECONDS));
		}

		assertThat(responses).allSatisfy(
				(response) -> assertThat(response.statusCode()).as(() -> Http.text(response)).isEqualTo(201));
		assertThat(responses).filteredOn((response) -> response.headers().firstValue("Idempotent-Replayed").isEmpty())
			.hasSize(1);
		assertThat(responses).extracting(HttpResponse::body).containsOnly(responses.get(0).body());
		assertThat(pets(ownerId)).isOne();
		assertTheCatchAllSawNothing();
	}

	@Test
	void aPetWriteTheDatabaseRefusesRollsBackWithItsKeysRecordAndTheKeyIsFreeAgain() {
		int ownerId = newOwner();
		assertThat(addPet(ownerId, key(), petJson("Rex")).send().statusCode()).isEqualTo(201);
		String key = key();

		HttpResponse<byte[]> failed = addPet(ownerId, key, petJson("Rex")).send();

		assertThat(failed.statusCode()).isEqualTo(500);
		assertThat(pets(ownerId)).isOne();
		assertThat(records(key)).as("records of any status").isZero();

		HttpResponse<byte[]> other = addPet(ownerId, key, petJson("Max")).send();

		assertThat(other.statusCode()).isEqualTo(201);
		assertThat(other.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(pets(ownerId)).isEqualTo(2);
	}

	@Test
	void aPetOverTheLimitIsRolledBackAfterItsInsertAndItsFinal400IsStoredAndReplayed() {
		int ownerId = newOwner();
		for (int i = 1; i <= ClinicService.MAX_PETS_PER_OWNER; i++) {
			assertThat(addPet(ownerId, key(), petJson("Pet" + i)).send().statusCode()).isEqualTo(201);
		}
		String key = key();

		HttpResponse<byte[]> refused = addPet(ownerId, key, petJson("OneTooMany")).send();
		HttpResponse<byte[]> replay = addPet(ownerId, key, petJson("OneTooMany")).send();

		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(field(refused, "detail")).contains("at most");
		assertThat(pets(ownerId)).isEqualTo(ClinicService.MAX_PETS_PER_OWNER);
		assertThat(status(key)).isEqualTo("COMPLETED");
		assertThat(replay.statusCode()).isEqualTo(400);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(refused.body());
		assertThat(pets(ownerId)).isEqualTo(ClinicService.MAX_PETS_PER_OWNER);
	}

	@Test
	void aPetForAnUnknownOwnerIsAFinal404ThatIsStoredAndReplayed() {
		String key = key();

		HttpResponse<byte[]> notFound = addPet(Integer.MAX_VALUE, key, petJson("Stray")).send();
		HttpResponse<byte[]> replay = addPet(Integer.MAX_VALUE, key, petJson("Stray")).send();

		assertThat(notFound.statusCode()).isEqualTo(404);
		assertThat(replay.statusCode()).isEqualTo(404);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(notFound.body());
		assertThat(status(key)).isEqualTo("COMPLETED");
	}

	/**
	 * Send the same request from many threads at once.
	 */
	private static List<HttpResponse<byte[]>> parallel(int requests, Callable<HttpResponse<byte[]>> request)
			throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(requests);
		try {
			List<Future<HttpResponse<byte[]>>> futures = new ArrayList<>();
			for (int i = 0; i < requests; i++) {
				futures.add(threads.submit(() -> {
					start.await();
					return request.call();
				}));
			}
			start.countDown();
			List<HttpResponse<byte[]>> responses = new ArrayList<>();
			for (Future<HttpResponse<byte[]>> future : futures) {
				responses.add(future.get(60, TimeUnit.SECONDS));
			}
			return responses;
		}
		finally {
			threads.shutdownNow();
		}
	}

	private Http.Request addOwner(String key, String owner) {
		Http.Request request = new Http(this.port).post("/api/owners")
			.header(HttpHeaders.AUTHORIZATION, ADMIN)
			.json(owner);
		return (key != null) ? request.key(key) : request;
	}

	private Http.Request addPet(int ownerId, String key, String pet) {
		return new Http(this.port).post("/api/owners/" + ownerId + "/pets")
			.header(HttpHeaders.AUTHORIZATION, ADMIN)
			.key(key)
			.json(pet);
	}

	private int newOwner() {
		HttpResponse<byte[]> added = addOwner(key(), ownerJson(lastName("Petowner"), telephone(), null)).send();
		assertThat(added.statusCode()).isEqualTo(201);
		return json.readTree(added.body()).path("id").asInt();
	}

	private void assertStartersProblem(HttpResponse<byte[]> response, int status, String type) {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(field(response, "type")).isEqualTo(PROBLEM_TYPES + type);
		assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
	}

	private void assertTheCatchAllSawNothing() {
		assertThat(this.catchAll.list).filteredOn((event) -> event.getLevel() == Level.ERROR).isEmpty();
	}

	private long owners(String lastName) {
		return this.jdbc.queryForObject("SELECT count(*) FROM owners WHERE last_name = ?", Long.class, lastName);
	}

	private long pets(int ownerId) {
		return this.jdbc.queryForObject("SELECT count(*) FROM pets WHERE owner_id = ?", Long.class, ownerId);
	}

	private long records(String key) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key = ?",
				Long.class, key);
	}

	private String status(String key) {
		return this.jdbc.queryForObject("SELECT status FROM idempotency_record WHERE idempotency_key = ?",
				String.class, key);
	}

	private static List<String> starterColumns(JdbcTemplate jdbc) {
		return jdbc.queryForList("""
				SELECT LOWER(table_name) || '.' || LOWER(column_name) || ' ' || LOWER(data_type) || ' '
				  || COALESCE(CAST(character_maximum_length AS VARCHAR(20)), '-') || ' nullable=' || is_nullable
				  || ' default=' || COALESCE(column_default, '-')
				FROM information_schema.columns
				WHERE table_schema = CURRENT_SCHEMA AND LOWER(table_name) IN ('idempotency_record',
				  'idempotency_record_archive', 'idempotency_sequence', 'idempotency_reference',
				  'idempotency_reference_archive')
				ORDER BY LOWER(table_name), ordinal_position
				""", String.class);
	}

	private static String field(HttpResponse<byte[]> response, String name) {
		JsonNode body = json.readTree(response.body());
		return body.path(name).asString();
	}

	private static String location(HttpResponse<byte[]> response) {
		return response.headers().firstValue("Location").orElseThrow();
	}

	private static String ownerJson(String lastName, String telephone, String notes) {
		return """
				{"firstName":"George","lastName":"%s","address":"110 W. Liberty St.","city":"Madison",\
				"telephone":"%s","notes":%s}""".formatted(lastName, telephone,
				(notes != null) ? "\"" + notes + "\"" : "null");
	}

	private static String petJson(String name) {
		return """
				{"name":"%s","birthDate":"2020-09-07","type":"cat"}""".formatted(name);
	}

	private static String lastName(String prefix) {
		return prefix + UUID.randomUUID().toString().replace("-", "");
	}

	private static String key() {
		return UUID.randomUUID().toString();
	}

	private static String telephone() {
		return Long.toString(ThreadLocalRandom.current().nextLong(1_000_000_000L, 10_000_000_000L));
	}

	private static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

}
