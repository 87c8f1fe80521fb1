package io.github.idempotency;

import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The library's architecture: a short public API, a package per technology with few public types,
 * no package cycles, and an engine that knows neither an entry point nor a particular store.
 */
class ArchitectureTests {

	/**
	 * Every public type a user may bind to; docs/api.md names each one.
	 */
	static final Set<String> PUBLIC_API = Set.of(
			// what an application annotates and reads while an operation runs
			"io.github.idempotency.annotation.Idempotent", "io.github.idempotency.annotation.IdempotencyMode",
			// orders an operation's calls by a sequence number per scope (SPEC 7b); an annotation
			// users put next to @Idempotent
			"io.github.idempotency.annotation.IdempotentSequence",
			"io.github.idempotency.IdempotencyContext",
			// the exceptions an application may catch or customise (Spring ErrorResponses)
			"io.github.idempotency.IdempotencyException", "io.github.idempotency.IdempotencyKeyInProgressException",
			"io.github.idempotency.IdempotencyProblemCustomizer",
			"io.github.idempotency.IdempotencyKeyMismatchException",
			"io.github.idempotency.IdempotencyStoreUnavailableException",
			"io.github.idempotency.IdempotentOperationFailedException", "io.github.idempotency.InvalidTenantException",
			// extension points, each a bean the application may replace
			"io.github.idempotency.TenantResolver", "io.github.idempotency.RequestFingerprinter",
			"io.github.idempotency.FingerprintRequest", "io.github.idempotency.OutcomeClassifier",
			"io.github.idempotency.Disposition", "io.github.idempotency.IdempotencyListener",
			"io.github.idempotency.Outcome", "io.github.idempotency.IdempotencyKey",
			// the store SPI
			"io.github.idempotency.store.IdempotencyStore", "io.github.idempotency.store.ClaimRequest",
			"io.github.idempotency.store.ClaimResult", "io.github.idempotency.store.IdempotencyRecord",
			"io.github.idempotency.store.RecordStatus", "io.github.idempotency.store.StoredResponse",
			"io.github.idempotency.store.IdempotencyRecordAdministration",
			"io.github.idempotency.store.RecordCounts", "io.github.idempotency.store.RecordMetadata",
			"io.github.idempotency.store.ReferencedKey", "io.github.idempotency.store.ReleaseOutcome",
			"io.github.idempotency.store.RepeatedFailure", "io.github.idempotency.store.FailureTypes",
			"io.github.idempotency.store.TransactionalIdempotencyStore",
			"io.github.idempotency.store.SequencingIdempotencyStore",
			"io.github.idempotency.store.NonBlockingIdempotencyStore",
			"io.github.idempotency.store.ReferencingIdempotencyStore",
			// the problems of the HTTP contract, each an exception an application may catch
			"io.github.idempotency.IdempotencyLeaseLostException", "io.github.idempotency.IdempotencyRateLimitedException",
			"io.github.idempotency.IdempotencyStaleSequenceException",
			"io.github.idempotency.InvalidIdempotencyKeyException", "io.github.idempotency.InvalidSequenceException",
			"io.github.idempotency.MalformedRequestBodyException",
			"io.github.idempotency.MissingIdempotencyKeyException",
			"io.github.idempotency.RequestBodyTooLargeException",
			// keys: validation, derivation and the hash that is safe to log; the default fingerprint
			"io.github.idempotency.IdempotencyKeys", "io.github.idempotency.KeyHashes",
			"io.github.idempotency.fingerprint.Sha256RequestFingerprinter",
			"io.github.idempotency.fingerprint.CanonicalJson");

	/**
	 * The public types of the library's jars besides the API: each technology's
	 * auto-configuration and properties, the engine's seam for entry points, and the stores.
	 */
	static final Set<String> LIBRARY_PUBLIC_TYPES = Set.of(
			// auto-configuration and properties, one package per technology
			"io.github.idempotency.engine.IdempotencyAutoConfiguration",
			"io.github.idempotency.engine.IdempotencyProperties",
			"io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration",
			"io.github.idempotency.jdbc.IdempotencyDataSource",
			"io.github.idempotency.jdbc.IdempotencyJdbcProperties", "io.github.idempotency.jdbc.IdempotencyPurgeProperties",
			"io.github.idempotency.redis.IdempotencyRedisProperties",
			"io.github.idempotency.web.IdempotencyWebProperties",
			"io.github.idempotency.web.reactive.IdempotencyWebFluxProperties",
			"io.github.idempotency.redis.IdempotencyRedisAutoConfiguration",
			"io.github.idempotency.web.servlet.IdempotencyWebMvcAutoConfiguration",
			"io.github.idempotency.web.servlet.IdempotencyServletTenantAutoConfiguration",
			"io.github.idempotency.web.reactive.IdempotencyWebFluxAutoConfiguration",
			"io.github.idempotency.web.reactive.IdempotencyReactiveTenantAutoConfiguration",
			// what reactive code reads while an operation runs, from the Reactor context
			"io.github.idempotency.web.reactive.ReactiveIdempotencyContext",
			// the filter that guards the routes of functional endpoints, a bean the application uses
			"io.github.idempotency.web.reactive.IdempotentRoutes",
			// what the two web entry points share: problems, stored headers, the tenant header
			"io.github.idempotency.web.HttpProblems", "io.github.idempotency.web.StoredHeaderPolicy",
			"io.github.idempotency.web.TenantHeader",
			// and the answers of accepted requests and their status resource
			"io.github.idempotency.web.OperationStatusResponses",
			"io.github.idempotency.actuate.IdempotencyMetricsAutoConfiguration",
			"io.github.idempotency.actuate.IdempotencyActuatorAutoConfiguration",
			"io.github.idempotency.kafka.IdempotencyKafkaAutoConfiguration",
			// the engine's seam: what an entry point (Spring MVC, Spring WebFlux) implements and calls
			"io.github.idempotency.engine.IdempotentInvocation", "io.github.idempotency.engine.CallAdapter",
			"io.github.idempotency.engine.IdempotentCall", "io.github.idempotency.engine.Answer",
			"io.github.idempotency.engine.IdempotentInvocationHandler",
			"io.github.idempotency.engine.IdempotentAttributeSource",
			"io.github.idempotency.engine.IdempotentAttributes", "io.github.idempotency.engine.KeyExpressionEvaluator",
			"io.github.idempotency.engine.OperationPolicy", "io.github.idempotency.engine.SequenceNumber",
			"io.github.idempotency.engine.IdempotentOperationNames",
			// what a messaging technology (Kafka) tells the bean-method entry point: a message's key and payload
			"io.github.idempotency.engine.MessageArguments",
			// documented extension point: operation settings from elsewhere than properties
			"io.github.idempotency.engine.OperationPolicies",
			// the stores, which an application may build itself, and the purge it may run
			"io.github.idempotency.jdbc.JdbcIdempotencyStore", "io.github.idempotency.jdbc.IdempotencyPurger",
			"io.github.idempotency.redis.RedisIdempotencyStore");

	private static final String[] LIBRARY_PACKAGES = { "io.github.idempotency.engine..",
			"io.github.idempotency.web..", "io.github.idempotency.jdbc..", "io.github.idempotency.redis..",
			"io.github.idempotency.actuate..", "io.github.idempotency.kafka.." };

	static final JavaClasses LIBRARY = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption((location) -> !location.contains("/testsupport/") && !location.contains("/benchmarks/"))
		.importPackages("io.github.idempotency");

	@Test
	void theApiIsExactlyTheListedTypes() {
		assertThat(publicTypes(true)).containsExactlyInAnyOrderElementsOf(PUBLIC_API);
	}

	@Test
	void theLibraryJarsHaveAtMostFortyPublicTypesAllListed() {
		assertThat(publicTypes(false)).containsExactlyInAnyOrderElementsOf(LIBRARY_PUBLIC_TYPES);
		assertThat(LIBRARY_PUBLIC_TYPES).hasSizeLessThanOrEqualTo(40);
	}

	private static Set<String> publicTypes(boolean api) {
		Set<String> publicTypes = new TreeSet<>();
		for (JavaClass type : LIBRARY) {
			if (type.isTopLevelClass() && type.getModifiers().contains(JavaModifier.PUBLIC) && isLibrary(type)
					&& isApi(type) == api) {
				publicTypes.add(type.getName());
			}
		}
		return publicTypes;
	}

	private static boolean isApi(JavaClass type) {
		return Set.of("io.github.idempotency", "io.github.idempotency.annotation", "io.github.idempotency.store",
				"io.github.idempotency.fingerprint")
			.contains(type.getPackageName());
	}

	@Test
	void packagesHaveNoCycles() {
		slices().assignedFrom(new LibraryPackages()).should().beFreeOfCycles().check(LIBRARY);
	}

	@Test
	void publicApiDependsOnNothingInternal() {
		noClasses().that()
			.resideInAnyPackage("io.github.idempotency", "io.github.idempotency.annotation",
					"io.github.idempotency.store", "io.github.idempotency.fingerprint")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(LIBRARY_PACKAGES)
			.check(LIBRARY);
	}

	@Test
	void theEngineKnowsNoEntryPointNoParticularStoreAndNoOperationsSurface() {
		noClasses().that()
			.resideInAPackage("io.github.idempotency.engine..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.web..", "io.github.idempotency.jdbc..",
					"io.github.idempotency.redis..", "io.github.idempotency.actuate..", "io.github.idempotency.kafka..",
					"jakarta.servlet..", "org.springframework.web.servlet..", "org.springframework.kafka..",
					"org.apache.kafka..")
			.check(LIBRARY);
	}

	@Test
	void storesNeverReadTheTransactionStateOfTheirCaller() {
		noClasses().that()
			.resideInAnyPackage("io.github.idempotency.jdbc..", "io.github.idempotency.redis..")
			.should()
			.dependOnClassesThat()
			.haveFullyQualifiedName("org.springframework.transaction.support.TransactionSynchronizationManager")
			.because("the claim request tells a store whether it runs in the operation's transaction")
			.check(LIBRARY);
	}

	@Test
	void onlyTheSettlementsDecideOnTheCallersTransaction() {
		noClasses().that()
			.doNotImplement("io.github.idempotency.engine.Settlement")
			.and()
			.doNotHaveFullyQualifiedName("io.github.idempotency.engine.Settlement")
			.and()
			.doNotHaveFullyQualifiedName("io.github.idempotency.engine.IdempotencyTransactions")
			.should()
			.callMethod("io.github.idempotency.engine.IdempotencyTransactions", "callerTransactionActive")
			.orShould()
			.callMethod("io.github.idempotency.engine.IdempotencyTransactions",
					"storeJoinsCallerTransaction")
			.orShould()
			.callMethod("org.springframework.transaction.TransactionStatus", "isNewTransaction")
			.check(LIBRARY);
	}

	@Test
	void requestPathReachesTheStoreOnlyThroughItsInterface() {
		noClasses().that()
			.resideInAnyPackage("io.github.idempotency.web..", "io.github.idempotency.engine..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.jdbc..", "io.github.idempotency.redis..",
					"org.springframework.jdbc.core..", "org.springframework.data.redis..")
			.check(LIBRARY);
	}

	@Test
	void entryPointsDependOnTheEngineAndNotOnEachOtherOrOnAStore() {
		noClasses().that()
			.resideInAnyPackage("io.github.idempotency.web..", "io.github.idempotency.kafka..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.jdbc..", "io.github.idempotency.redis..",
					"io.github.idempotency.actuate..")
			.check(LIBRARY);
		noClasses().that()
			.resideInAPackage("io.github.idempotency.kafka..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.web..")
			.check(LIBRARY);
		noClasses().that()
			.resideInAPackage("io.github.idempotency.web..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.kafka..")
			.check(LIBRARY);
	}

	@Test
	void storesKnowNoEntryPoint() {
		noClasses().that()
			.resideInAnyPackage("io.github.idempotency.jdbc..", "io.github.idempotency.redis..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.web..", "io.github.idempotency.kafka..",
					"io.github.idempotency.actuate..")
			.check(LIBRARY);
	}

	private static boolean isLibrary(JavaClass type) {
		return !type.getPackageName().startsWith("io.github.idempotency.sample")
				&& !type.getPackageName().startsWith("io.github.idempotency.client");
	}

	/**
	 * One slice per package of the library, the API's root package included.
	 */
	static final class LibraryPackages implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
			return isLibrary(javaClass) ? SliceIdentifier.of(javaClass.getPackageName()) : SliceIdentifier.ignore();
		}

		@Override
		public String getDescription() {
			return "packages of the library";
		}

	}

}
