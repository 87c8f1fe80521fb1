package io.github.idempotency.jdbc;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Configuration properties of the JDBC store.
 */
@ConfigurationProperties("idempotency.jdbc")
public class IdempotencyJdbcProperties {

	static final String DEFAULT_FLYWAY_HISTORY_TABLE = "idempotency_schema_history";

	/**
	 * Database schema initialization mode: when the starter creates and upgrades its tables
	 * with its own Flyway migrations at start-up. Use never to create them yourself from the
	 * shipped scripts.
	 */
	private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.ALWAYS;

	/**
	 * Flyway history table of the starter's migrations, kept apart from the application's.
	 */
	private String flywayHistoryTable = DEFAULT_FLYWAY_HISTORY_TABLE;

	/**
	 * Whether the read-only JPA entity IdempotencyRecordEntity joins the application's
	 * persistence unit, for JPA queries of the records. It maps the table as the migrations
	 * create it: use it with spring.jpa.hibernate.ddl-auto none, validate or update (create
	 * and create-drop would recreate the table), without
	 * spring.jpa.defer-datasource-initialization.
	 */
	private boolean jpaEntity;

	/**
	 * The most LEASED claims, or completions outside transactions, written in one statement and
	 * one commit, from requests that write while another such write is in flight (PostgreSQL); a
	 * lone write is made at once. 1 writes each alone.
	 */
	private int writeBatchSize = 32;

	public DatabaseInitializationMode getInitializeSchema() {
		return this.initializeSchema;
	}

	public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
		this.initializeSchema = initializeSchema;
	}

	public String getFlywayHistoryTable() {
		return this.flywayHistoryTable;
	}

	public void setFlywayHistoryTable(String flywayHistoryTable) {
		this.flywayHistoryTable = flywayHistoryTable;
	}

	public boolean isJpaEntity() {
		return this.jpaEntity;
	}

	public void setJpaEntity(boolean jpaEntity) {
		this.jpaEntity = jpaEntity;
	}

	public int getWriteBatchSize() {
		return this.writeBatchSize;
	}

	public void setWriteBatchSize(int writeBatchSize) {
		if (writeBatchSize < 1) {
			throw new IllegalArgumentException("idempotency.jdbc.write-batch-size must be at least 1, but was "
					+ writeBatchSize);
		}
		this.writeBatchSize = writeBatchSize;
	}

}
