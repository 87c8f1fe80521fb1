package io.github.idempotency.testsupport;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.testcontainers.mariadb.MariaDBContainer;

/**
 * A throw-away MariaDB database for one test class, on the local server when one listens on
 * 127.0.0.1:3306 and in a Testcontainers container otherwise.
 */
public final class MariaDbTestDatabase extends TestDatabase {

	private static TestDatabaseServer server;

	private MariaDbTestDatabase(TestDatabaseServer server, String prefix) {
		super(server, prefix);
	}

	/**
	 * Create a new, empty database whose name starts with the given prefix; it is dropped when the
	 * JVM exits.
	 * @param prefix a short lower-case prefix naming the test
	 * @return the new database
	 */
	public static synchronized MariaDbTestDatabase create(String prefix) {
		if (server == null) {
			server = TestDatabaseServer.start(new MariaDb());
		}
		return new MariaDbTestDatabase(server, prefix);
	}

	private static final class MariaDb implements TestDatabaseServer.Dialect {

		@Override
		public String product() {
			return "MariaDB";
		}

		@Override
		public int port() {
			return 3306;
		}

		@Override
		public String localAdminDatabase() {
			return "test";
		}

		@Override
		public String localUsername() {
			return "root";
		}

		@Override
		public TestDatabaseServer.Endpoint startContainer() {
			return Container.start();
		}

		@Override
		public String url(String host, int port, String database) {
			return "jdbc:mariadb://" + host + ":" + port + "/" + database;
		}

		@Override
		public int terminateOthers(Statement statement, String database) throws SQLException {
			List<Long> ids = new ArrayList<>();
			try (ResultSet rs = statement.executeQuery("SELECT id FROM information_schema.processlist "
					+ "WHERE db = '" + database + "' AND id <> CONNECTION_ID()")) {
				while (rs.next()) {
					ids.add(rs.getLong(1));
				}
			}
			int killed = 0;
			for (long id : ids) {
				try {
					statement.execute("KILL CONNECTION " + id);
					killed++;
				}
				catch (SQLException ex) {
					// Gone in the meantime.
				}
			}
			return killed;
		}

		@Override
		public String drop(String database) {
			return "DROP DATABASE IF EXISTS " + database;
		}

	}

	/**
	 * Names the product's Testcontainers class, so that only starting a container loads it.
	 */
	private static final class Container {

		@SuppressWarnings("resource")
		static TestDatabaseServer.Endpoint start() {
			MariaDBContainer container = new MariaDBContainer("mariadb:10.11").withUsername("root");
			container.start();
			return new TestDatabaseServer.Endpoint(container.getHost(), container.getMappedPort(3306),
					container.getDatabaseName(), container.getUsername(), container.getPassword());
		}

	}

}
