package io.github.idempotency.engine;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.javapoet.ClassName;

import io.github.idempotency.annotation.Idempotent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application context with the starter's {@code aot.factories} processed ahead of time, as a
 * native build does: the hints it contributes.
 */
class IdempotencyAotTests {

	private static final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

	@Test
	void everyMigrationOfTheStarterIsAResource() throws IOException {
		RuntimeHints hints = processAheadOfTime();
		Resource[] migrations = new PathMatchingResourcePatternResolver()
			.getResources("classpath*:db/idempotency/**/*.sql");
		assertThat(migrations).hasSizeGreaterThanOrEqualTo(4);
		for (Resource migration : migrations) {
			String url = migration.getURL().toString();
			String path = url.substring(url.lastIndexOf("db/idempotency/"));
			assertThat(RuntimeHintsPredicates.resource().forResource(path)).as(path).accepts(hints);
		}
		assertThat(RuntimeHintsPredicates.resource().forResource("db/migration/V1__app.sql")).rejects(hints);
	}

	@Test
	void theJpaEntityAndItsIdAreOpenToReflection() {
		RuntimeHints hints = processAheadOfTime();
		assertThat(reflection.onType(type("io.github.idempotency.jdbc.IdempotencyRecordEntity"))
			.withMemberCategories(MemberCategory.ACCESS_DECLARED_FIELDS, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
					MemberCategory.INVOKE_DECLARED_METHODS))
			.accepts(hints);
		assertThat(reflection.onFieldAccess(type("io.github.idempotency.jdbc.IdempotencyRecordEntity"), "responseBody")).accepts(hints);
		assertThat(reflection.onType(TypeReference.of("io.github.idempotency.jdbc.IdempotencyRecordId"))
			.withMemberCategories(MemberCategory.ACCESS_DECLARED_FIELDS, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS))
			.accepts(hints);
	}

	@Test
	void theBackOffFunctionOfAKafkaErrorHandlerIsOpenToReflection() {
		RuntimeHints hints = processAheadOfTime();
		assertThat(reflection.onFieldAccess(type("org.springframework.kafka.listener.FailedRecordProcessor"),
				"userBackOffFunction"))
			.accepts(hints);
	}

	@Test
	void whatTheActuatorEndpointReturnsCanBeWrittenAsJson() {
		RuntimeHints hints = processAheadOfTime();
		assertThat(reflection.onMethodInvocation(type("io.github.idempotency.actuate.IdempotencyEndpoint$CountsDescriptor"), "operations"))
			.accepts(hints);
		assertThat(reflection.onMethodInvocation(type("io.github.idempotency.actuate.IdempotencyEndpoint$OperationDescriptor"), "stuck"))
			.accepts(hints);
		assertThat(reflection.onMethodInvocation(type("io.github.idempotency.actuate.IdempotencyEndpoint$RecordDescriptor"), "keyHash"))
			.accepts(hints);
		assertThat(reflection.onMethodInvocation(type("io.github.idempotency.actuate.IdempotencyEndpoint$ReleaseDescriptor"), "outcome"))
			.accepts(hints);
	}

	@Test
	void returnAndParameterTypesOfIdempotentBeanMethodsCanBeReadAndWrittenAsJson() {
		RuntimeHints hints = processAheadOfTime(Ledger.class);
		assertThat(reflection.onType(Receipt.class).withMemberCategories(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS))
			.accepts(hints);
		assertThat(reflection.onMethodInvocation(Receipt.class, "amount")).accepts(hints);
		assertThat(reflection.onMethodInvocation(Money.class, "currency")).accepts(hints);
		assertThat(reflection.onMethodInvocation(Entry.class, "account")).accepts(hints);
		assertThat(reflection.onMethodInvocation(Posting.class, "reference")).accepts(hints);
	}

	@Test
	void typesOfMethodsThatAreNotIdempotentGetNoHints() {
		RuntimeHints hints = processAheadOfTime(Ledger.class);
		assertThat(reflection.onType(Balance.class)).rejects(hints);
	}

	@Test
	void idempotentMethodsDeclaredOnAnInterfaceGetHints() {
		RuntimeHints hints = processAheadOfTime(BankTransfers.class);
		assertThat(reflection.onMethodInvocation(TransferReceipt.class, "transferId")).accepts(hints);
	}

	private static RuntimeHints processAheadOfTime(Class<?>... beanClasses) {
		GenericApplicationContext context = new GenericApplicationContext();
		for (Class<?> beanClass : beanClasses) {
			context.registerBean(beanClass);
		}
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(IdempotencyAotTests.class)), new InMemoryGeneratedFiles());
		new ApplicationContextAotGenerator().processAheadOfTime(context, generationContext);
		return generationContext.getRuntimeHints();
	}

	static class Ledger {

		@Idempotent(operation = "post")
		Receipt post(Posting posting) {
			return new Receipt("r-1", new Money(BigDecimal.TEN, "EUR"));
		}

		@Idempotent(operation = "entries")
		public List<Entry> entries(String account) {
			return List.of(new Entry(account, BigDecimal.ONE));
		}

		public Balance balance(String account) {
			return new Balance(account, BigDecimal.ZERO);
		}

	}

	interface Transfers {

		@Idempotent(operation = "transfer")
		TransferReceipt transfer(String from, String to);

	}

	static class BankTransfers implements Transfers {

		@Override
		public TransferReceipt transfer(String from, String to) {
			return new TransferReceipt("t-1");
		}

	}

	record Posting(String reference, Money amount) {
	}

	record Receipt(String id, Money amount) {
	}

	record Money(BigDecimal value, String currency) {
	}

	record Entry(String account, BigDecimal amount) {
	}

	record Balance(String account, BigDecimal amount) {
	}

	record TransferReceipt(String transferId) {
	}

	private static Class<?> type(String name) {
		try {
			return Class.forName(name);
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
