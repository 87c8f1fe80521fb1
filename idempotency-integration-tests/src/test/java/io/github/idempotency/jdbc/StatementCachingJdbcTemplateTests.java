package io.github.idempotency.jdbc;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StatementCachingJdbcTemplate} on PostgreSQL: a statement built once still binds each
 * call's own values, and one with a collection expands it per call.
 */
class StatementCachingJdbcTemplateTests {

	private static HikariDataSource dataSource;

	private static JdbcClient jdbc;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("cachingtemplate"), 2);
		jdbc = StatementCachingJdbcTemplate.client(dataSource);
		jdbc.sql("CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL)").update();
		for (int id = 1; id <= 5; id++) {
			jdbc.sql("INSERT INTO item (id, name) VALUES (:id, :name)").param("id", id).param("name", "item-" + id).update();
		}
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Test
	void eachCallOfAStatementBindsItsOwnValues() {
		String select = "SELECT name FROM item WHERE id = :id OR name = :name ORDER BY id";
		assertThat(jdbc.sql(select).param("id", 1).param("name", "item-3").query(String.class).list())
			.containsExactly("item-1", "item-3");
		assertThat(jdbc.sql(select).param("id", 2).param("name", "none").query(String.class).list())
			.containsExactly("item-2");
	}

	@Test
	void aCollectionExpandsIntoAsManyPlaceholdersAsItHasElementsOnEveryCall() {
		String select = "SELECT name FROM item WHERE id IN (:ids) ORDER BY id";
		assertThat(jdbc.sql(select).param("ids", List.of(1, 2)).query(String.class).list())
			.containsExactly("item-1", "item-2");
		assertThat(jdbc.sql(select).param("ids", List.of(3, 4, 5)).query(String.class).list())
			.containsExactly("item-3", "item-4", "item-5");
		assertThat(jdbc.sql(select).param("ids", List.of(2)).query(String.class).list()).containsExactly("item-2");
	}

}
