package io.github.idempotency.jdbc;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;


/**
 * Explains a start-up of the JDBC store on a database other than PostgreSQL, MariaDB and H2, and
 * the ways out, such as a test context on another database.
 */
class UnsupportedDatabaseFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedDatabaseException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedDatabaseException cause) {
		if (cause.mysqlDriverOnMariadb()) {
			return new FailureAnalysis("The application's DataSource reaches a MariaDB server (" + cause.product()
					+ ") through MySQL's JDBC driver (Connector/J), which refuses the INSERT ... RETURNING "
					+ "statements the idempotency store runs on MariaDB.", """
					Use MariaDB's driver for this DataSource: depend on org.mariadb.jdbc:mariadb-java-client \
					instead of com.mysql:mysql-connector-j, and start spring.datasource.url with jdbc:mariadb:// \
					instead of jdbc:mysql:// (Hibernate and Flyway work with it unchanged); or keep the records in \
					a DataSource of their own on MariaDB's driver, qualified @IdempotencyDataSource.""", cause);
		}
		return new FailureAnalysis("The application's DataSource is " + cause.product() + " (as its JDBC driver "
				+ "names it), and the idempotency starter's JDBC store supports PostgreSQL, MariaDB 10.6 or later "
				+ "and H2 only, so @Idempotent methods would have no store for their records.", """
				Do one of these for this application context:
				    - set idempotency.enabled=false to turn the starter off where idempotency is not under test, \
				such as a test context on another database (@Idempotent methods then run unguarded);
				    - define an IdempotencyStore bean of your own for this database (the starter then creates no \
				tables in it);
				    - keep the records in Redis: add spring-boot-starter-data-redis and set \
				idempotency.store.type=redis;
				    - or run on PostgreSQL, MariaDB 10.6 or later, or H2.""", cause);
	}

}
