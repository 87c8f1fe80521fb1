package io.github.idempotency.jdbc;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.store.jpa.app.AppConfiguration;
import io.github.idempotency.store.jpa.app.AppOrder;
import io.github.idempotency.test.StarterColumns;
import io.github.idempotency.test.StarterMigrations;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyRecordEntity} in an application's persistence unit: registered by the
 * starter when asked for, validated by Hibernate against the schema that the starter's migrations
 * create, after the application's own Flyway migrations, and mapped so exactly that Hibernate's
 * {@code ddl-auto=update} changes nothing.
 */
class IdempotencyRecordEntityTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
				FlywayAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class))
		.withUserConfiguration(AppConfiguration.class)
		.withPropertyValues("spring.jpa.hibernate.ddl-auto=validate",
				"spring.flyway.locations=classpath:db/schematest/app", "idempotency.jdbc.jpa-entity=true");

	@Test
	void byDefaultTheEntityStaysOutOfTheApplicationsPersistenceUnit() {
		this.runner.withPropertyValues(h2())
			.withPropertyValues("idempotency.jdbc.jpa-entity=false")
			.run((context) -> assertThat(context.getBean(EntityManagerFactory.class).getMetamodel().getEntities())
				.<Class<?>>extracting((entity) -> entity.getJavaType())
				.containsExactly(AppOrder.class));
	}

	@Test
	void ddlAutoUpdateLeavesTheColumnsAsMigratedOnPostgres() {
		PostgresTestDatabase reference = PostgresTestDatabase.create("jpaupdateref");
		List<String> migrated = StarterColumns.asMigrated(new SimpleDriverDataSource(new org.postgresql.Driver(),
				reference.url(), reference.username(), reference.password()));
		this.runner.withPropertyValues(postgres())
			.withPropertyValues("spring.jpa.hibernate.ddl-auto=update")
			.run((context) -> assertThat(StarterColumns.of(context.getBean(DataSource.class)))
				.containsExactlyElementsOf(migrated));
	}

	@Test
	void ddlAutoUpdateLeavesTheColumnsAsMigratedOnH2() {
		List<String> migrated = StarterColumns.asMigrated(new SimpleDriverDataSource(new org.h2.Driver(),
				h2()[0].substring("spring.datasource.url=".length()), "sa", ""));
		this.runner.withPropertyValues(h2())
			.withPropertyValues("spring.jpa.hibernate.ddl-auto=update")
			.run((context) -> assertThat(StarterColumns.of(context.getBean(DataSource.class)))
				.containsExactlyElementsOf(migrated));
	}

	/**
	 * The mapping is the migrations' schema: where Hibernate drops the migrated table and creates
	 * it again from the entity, every column has the migrated type, length, nullability and
	 * default, and the start-up check finds nothing missing.
	 */
	@Test
	void theTableHibernateCreatesFromTheEntityHasTheMigratedColumnsOnH2() {
		List<String> migrated = StarterColumns.asMigrated(new SimpleDriverDataSource(new org.h2.Driver(),
				h2()[0].substring("spring.datasource.url=".length()), "sa", ""));
		this.runner.withPropertyValues(h2())
			.withPropertyValues("spring.jpa.hibernate.ddl-auto=create")
			.run((context) -> assertThat(StarterColumns.of(context.getBean(DataSource.class)))
				.containsExactlyInAnyOrderElementsOf(migrated));
	}

	@Test
	void validatesAndReadsRecordsOnPostgres() {
		this.runner.withPropertyValues(postgres()).run(this::validatesAndReadsRecords);
	}

	@Test
	void validatesAndReadsRecordsOnH2() {
		this.runner.withPropertyValues(h2()).run(this::validatesAndReadsRecords);
	}

	@Test
	void validationFailsOnPostgresWithoutTheStarterSchema() {
		this.runner.withPropertyValues(postgres())
			.withPropertyValues("idempotency.jdbc.initialize-schema=never")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("idempotency_record"));
	}

	@Test
	void validationFailsOnH2WithoutTheStarterSchema() {
		this.runner.withPropertyValues(h2())
			.withPropertyValues("idempotency.jdbc.initialize-schema=never")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("idempotency_record"));
	}

	private void validatesAndReadsRecords(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		EntityManagerFactory entityManagerFactory = context.getBean(EntityManagerFactory.class);
		assertThat(entityManagerFactory.getMetamodel().getEntities())
			.<Class<?>>extracting((entity) -> entity.getJavaType())
			.contains(IdempotencyRecordEntity.class, AppOrder.class);
		DataSource dataSource = context.getBean(DataSource.class);
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		assertThat(jdbc.queryForList("SELECT \"version\" FROM \"flyway_schema_history\" WHERE \"type\" = 'SQL' "
				+ "ORDER BY \"installed_rank\"", String.class)).containsExactly("1", "2");
		assertThat(jdbc.queryForList("SELECT \"version\" FROM \"idempotency_schema_history\" WHERE \"type\" = 'SQL' "
				+ "ORDER BY \"installed_rank\"", String.class))
			.containsExactlyElementsOf(StarterMigrations.versions(DatabasePlatform.of(dataSource).id()));
		IdempotencyStore store = context.getBean(IdempotencyStore.class);
		IdempotencyKey key = new IdempotencyKey("acme", "POST /orders", "order-1");
		UUID token = ((ClaimResult.Claimed) store
			.claim(new ClaimRequest(key, "f".repeat(64), Duration.ofMinutes(1), Duration.ofHours(1)))).token();
		byte[] body = { 0, 1, 2, (byte) 0xFF };
		assertThat(store.complete(key, token,
				new StoredResponse(201, Map.of("Location", List.of("/orders/1")), body), Duration.ofHours(1)))
			.isTrue();
		EntityManager entityManager = entityManagerFactory.createEntityManager();
		try {
			entityManager.getTransaction().begin();
			entityManager.persist(new AppOrder(1L, new BigDecimal("9.99"), "with a key"));
			entityManager.getTransaction().commit();
			IdempotencyRecordEntity entity = entityManager.find(IdempotencyRecordEntity.class,
					new IdempotencyRecordId("acme", "POST /orders", "order-1"));
			assertThat(entity.getId().getTenantId()).isEqualTo("acme");
			assertThat(entity.getStatus()).isEqualTo(RecordStatus.COMPLETED);
			assertThat(entity.getRequestFingerprint()).isEqualTo("f".repeat(64));
			assertThat(entity.getFencingToken()).isEqualTo(token);
			assertThat(entity.getResponseStatus()).isEqualTo(201);
			assertThat(entity.getResponseHeaders()).isEqualTo("Location: /orders/1\n");
			assertThat(entity.getResponseBody()).isEqualTo(body);
			assertThat(entity.getLockedUntil()).isNull();
			assertThat(entity.getCreatedAt()).isNotNull();
			assertThat(entity.getCompletedAt()).isNotNull();
			assertThat(entity.getExpiresAt()).isAfter(entity.getCompletedAt());
			assertThat(jdbc.queryForObject("SELECT note FROM app_order WHERE id = 1", String.class))
				.isEqualTo("with a key");
		}
		finally {
			entityManager.close();
		}
	}

	private static String[] postgres() {
		PostgresTestDatabase database = PostgresTestDatabase.create("jpavalidate");
		return new String[] { "spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password() };
	}

	private static String[] h2() {
		return new String[] { "spring.datasource.url=jdbc:h2:mem:jpa_" + UUID.randomUUID().toString().replace("-", "")
				+ ";DB_CLOSE_DELAY=-1" };
	}

}
