package io.github.idempotency.testsupport;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A throw-away PostgreSQL database for one test class, on the local server when one listens on
 * 127.0.0.1:5432 and in a Testcontainers container otherwise.
 */
public final class PostgresTestDatabase extends TestDatabase {

	private static TestDatabaseServer server;

	private PostgresTestDatabase(TestDatabaseServer server, String prefix) {
		super(server, prefix);
	}

	/**
	 * Create a new, empty database whose name starts with the given prefix; it is dropped when the
	 * JVM exits.
	 * @param prefix a short lower-case prefix naming the test
	 * @return the new database
	 */
	public static synchronized PostgresTestDatabase create(String prefix) {
		if (server == null) {
			server = TestDatabaseServer.start(new Postgres());
		}
		return new PostgresTestDatabase(server, prefix);
	}

	private static final class Postgres implements TestDatabaseServer.Dialect {

		@Override
		public String product() {
			return "PostgreSQL";
		}

		@Override
		public int port() {
			return 5432;
		}

		@Override
		public String localAdminDatabase() {
			return "test";
		}

		@Override
		public String localUsername() {
			return "postgres";
		}

		@Override
		public TestDatabaseServer.Endpoint startContainer() {
			return Container.start();
		}

		@Override
		public String url(String host, int port, String database) {
			return "jdbc:postgresql://" + host + ":" + port + "/" + database;
		}

		@Override
		public int terminateOthers(Statement statement, String database) throws SQLException {
			try (ResultSet rs = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
					+ "WHERE datname = '" + database + "' AND pid <> pg_backend_pid()")) {
				rs.next();
				return rs.getInt(1);
			}
		}

		@Override
		public String drop(String database) {
			return "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)";
		}

	}

	/**
	 * Names the product's Testcontainers class, so that only starting a container loads it.
	 */
	private static final class Container {

		@SuppressWarnings("resource")
		static TestDatabaseServer.Endpoint start() {
			PostgreSQLContainer container = new PostgreSQLContainer("postgres:16-alpine");
			container.start();
			return new TestDatabaseServer.Endpoint(container.getHost(), container.getMappedPort(5432),
					container.getDatabaseName(), container.getUsername(), container.getPassword());
		}

	}

}
