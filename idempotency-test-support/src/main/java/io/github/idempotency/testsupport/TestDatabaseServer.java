package io.github.idempotency.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database server that test databases are created on: the local one when it listens on its
 * usual port, a Testcontainers container otherwise.
 */
final class TestDatabaseServer {

	private static final Logger logger = LoggerFactory.getLogger(TestDatabaseServer.class);

	private static final String LOCAL_HOST = "127.0.0.1";

	private final Dialect dialect;

	private final String host;

	private final int port;

	private final String adminDatabase;

	private final String username;

	private final String password;

	private TestDatabaseServer(Dialect dialect, String host, int port, String adminDatabase, String username,
			String password) {
		this.dialect = dialect;
		this.host = host;
		this.port = port;
		this.adminDatabase = adminDatabase;
		this.username = username;
		this.password = password;
	}

	/**
	 * Return the local server of a database product when one listens, or start a container.
	 * @param dialect what differs between the products
	 * @return the server
	 */
	static TestDatabaseServer start(Dialect dialect) {
		if (localServerIsUp(dialect.port())) {
			logger.info("Using the local {} server on {}:{}", dialect.product(), LOCAL_HOST, dialect.port());
			return new TestDatabaseServer(dialect, LOCAL_HOST, dialect.port(), dialect.localAdminDatabase(),
					dialect.localUsername(), "");
		}
		logger.info("No {} server on {}:{}; starting one with Testcontainers", dialect.product(), LOCAL_HOST,
				dialect.port());
		Endpoint container = dialect.startContainer();
		return new TestDatabaseServer(dialect, container.host(), container.port(), container.adminDatabase(),
				container.username(), container.password());
	}

	private static boolean localServerIsUp(int port) {
		if (Boolean.getBoolean("idempotency.test.use-testcontainers")) {
			return false;
		}
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(LOCAL_HOST, port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Create a new, empty database whose name starts with the given prefix, dropped when the JVM
	 * exits.
	 * @param prefix a short lower-case prefix naming the test
	 * @return the database's name
	 */
	synchronized String createDatabase(String prefix) {
		String name = (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12))
			.toLowerCase(Locale.ROOT);
		execute("CREATE DATABASE " + name);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> dropQuietly(name)));
		return name;
	}

	String urlFor(String database) {
		return this.dialect.url(this.host, this.port, database);
	}

	String username() {
		return this.username;
	}

	String password() {
		return this.password;
	}

	int terminate(String database) {
		try (Connection connection = connectAdmin(); Statement statement = connection.createStatement()) {
			return this.dialect.terminateOthers(statement, database);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot terminate connections to " + database, ex);
		}
	}

	private void execute(String sql) {
		try (Connection connection = connectAdmin(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot execute '" + sql + "'", ex);
		}
	}

	private Connection connectAdmin() throws SQLException {
		return DriverManager.getConnection(urlFor(this.adminDatabase), this.username, this.password);
	}

	private void dropQuietly(String database) {
		try {
			execute(this.dialect.drop(database));
		}
		catch (RuntimeException ex) {
			// The server may already be gone at JVM exit; the database is then left behind.
		}
	}

	/**
	 * Where a started container listens, and its credentials.
	 *
	 * @param host the host
	 * @param port the mapped port
	 * @param adminDatabase the database to create others from
	 * @param username the user
	 * @param password the password
	 */
	record Endpoint(String host, int port, String adminDatabase, String username, String password) {
	}

	/**
	 * What differs between the database products.
	 */
	interface Dialect {

		String product();

		int port();

		String localAdminDatabase();

		String localUsername();

		/**
		 * Start a container of the product. Only this method may name the product's Testcontainers
		 * module, which a test class path without a container need not have.
		 * @return where the container listens, and its credentials
		 */
		Endpoint startContainer();

		String url(String host, int port, String database);

		/**
		 * End every connection to a database but the statement's own, as a restart would.
		 * @param statement a statement on the server's administration database
		 * @param database the database
		 * @return how many connections were ended
		 * @throws SQLException if the server refuses
		 */
		int terminateOthers(Statement statement, String database) throws SQLException;

		String drop(String database);

	}

}
