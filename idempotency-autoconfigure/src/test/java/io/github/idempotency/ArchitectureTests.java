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
 * The library's architecture: a short public API, everything else internal, no package cycles,
 * and a core that knows neither the web layer nor a particular store.
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
			// configuration
			"io.github.idempotency.autoconfigure.IdempotencyProperties",
			"io.github.idempotency.autoconfigure.IdempotencyAutoConfiguration",
			"io.github.idempotency.autoconfigure.IdempotencyJdbcAutoConfiguration",
			"io.github.idempotency.autoconfigure.IdempotencyRedisAutoConfiguration",
			"io.github.idempotency.autoconfigure.IdempotencyWebMvcAutoConfiguration",
			"io.github.idempotency.autoconfigure.IdempotencyMetricsAutoConfiguration",
			"io.github.idempotency.autoconfigure.IdempotencyActuatorAutoConfiguration");

	static final JavaClasses LIBRARY = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption((location) -> !location.contains("/testsupport/") && !location.contains("/benchmarks/"))
		.importPackages("io.github.idempotency");

	@Test
	void publicTypesOutsideInternalPackagesAreExactlyTheListedApi() {
		Set<String> publicTypes = new TreeSet<>();
		for (JavaClass type : LIBRARY) {
			if (type.isTopLevelClass() && type.getModifiers().contains(JavaModifier.PUBLIC)
					&& !type.getPackageName().contains(".internal") && isLibrary(type)) {
				publicTypes.add(type.getName());
			}
		}
		assertThat(publicTypes).containsExactlyInAnyOrderElementsOf(PUBLIC_API);
		assertThat(PUBLIC_API).hasSizeLessThanOrEqualTo(32);
	}

	@Test
	void packagesHaveNoCycles() {
		slices().assignedFrom(new LibraryPackages()).should().beFreeOfCycles().check(LIBRARY);
	}

	@Test
	void publicApiDependsOnNothingInternal() {
		noClasses().that()
			.resideInAnyPackage("io.github.idempotency", "io.github.idempotency.annotation",
					"io.github.idempotency.store")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.internal..", "io.github.idempotency.autoconfigure..")
			.check(LIBRARY);
	}

	@Test
	void engineKnowsNeitherTheWebLayerNorBeanMethodsNorAParticularStore() {
		noClasses().that()
			.resideInAPackage("io.github.idempotency.internal.engine..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.internal.web..", "io.github.idempotency.internal.method..",
					"io.github.idempotency.internal.jdbc..", "io.github.idempotency.internal.redis..",
					"jakarta.servlet..", "org.springframework.web.servlet..")
			.check(LIBRARY);
	}

	@Test
	void storesNeverReadTheTransactionStateOfTheirCaller() {
		noClasses().that()
			.resideInAnyPackage("io.github.idempotency.internal.jdbc..", "io.github.idempotency.internal.redis..")
			.should()
			.dependOnClassesThat()
			.haveFullyQualifiedName("org.springframework.transaction.support.TransactionSynchronizationManager")
			.because("the claim request tells a store whether it runs in the operation's transaction")
			.check(LIBRARY);
	}

	@Test
	void onlyTheSettlementsDecideOnTheCallersTransaction() {
		noClasses().that()
			.doNotImplement("io.github.idempotency.internal.engine.Settlement")
			.and()
			.doNotHaveFullyQualifiedName("io.github.idempotency.internal.engine.Settlement")
			.and()
			.doNotHaveFullyQualifiedName("io.github.idempotency.internal.engine.IdempotencyTransactions")
			.should()
			.callMethod("io.github.idempotency.internal.engine.IdempotencyTransactions", "callerTransactionActive")
			.orShould()
			.callMethod("io.github.idempotency.internal.engine.IdempotencyTransactions",
					"storeJoinsCallerTransaction")
			.orShould()
			.callMethod("org.springframework.transaction.TransactionStatus", "isNewTransaction")
			.check(LIBRARY);
	}

	@Test
	void requestPathReachesTheStoreOnlyThroughItsInterface() {
		noClasses().that()
			.resideInAnyPackage("io.github.idempotency.internal.web..", "io.github.idempotency.internal.method..",
					"io.github.idempotency.internal.engine..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.idempotency.internal.jdbc..", "io.github.idempotency.internal.redis..",
					"org.springframework.jdbc.core..", "org.springframework.data.redis..")
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
