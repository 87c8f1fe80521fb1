package io.github.idempotency.jpaapp;

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.test.StarterColumns;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application whose tables Hibernate manages with {@code spring.jpa.hibernate.ddl-auto=update},
 * on H2 and on PostgreSQL: the starter's tables stay exactly as its migrations made them, and a
 * response with a long {@code Location} and a long body is stored and replayed byte for byte, its
 * operation run once.
 */
class JpaDdlAutoUpdateTests {

	@Test
	void onH2DdlAutoUpdateLeavesTheStartersColumnsAsMigratedAndALongResponseIsReplayedByteForByte() {
		List<String> migrated = StarterColumns.asMigrated(new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:jpaapp_reference_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1",
				"sa", ""));
		startsKeepsColumnsAndReplays(migrated, "spring.datasource.url=jdbc:h2:mem:jpaapp_"
				+ UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1");
	}

	@Test
	void onPostgresqlDdlAutoUpdateLeavesTheStartersColumnsAsMigratedAndALongResponseIsReplayedByteForByte() {
		PostgresTestDatabase database = PostgresTestDatabase.create("jpaapp");
		PostgresTestDatabase reference = PostgresTestDatabase.create("jpaappref");
		List<String> migrated = StarterColumns.asMigrated(new SimpleDriverDataSource(new org.postgresql.Driver(),
				reference.url(), reference.username(), reference.password()));
		startsKeepsColumnsAndReplays(migrated, "spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password());
	}

	private void startsKeepsColumnsAndReplays(List<String> migrated, String... database) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JpaApplication.class)
			.properties("server.port=0", "spring.jpa.hibernate.ddl-auto=update", "spring.flyway.enabled=false")
			.properties(database)
			.run()) {
			assertThat(StarterColumns.of(context.getBean(DataSource.class))).isNotEmpty()
				.containsExactlyElementsOf(migrated);
			MemoRequests.createdOnceAndReplayedByteForByte(context);
		}
	}

}
