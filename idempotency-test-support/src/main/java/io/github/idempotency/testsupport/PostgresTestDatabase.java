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
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A throw-away PostgreSQL database for one test class, on the local server when one listens on
 * 127.0.0.1:5432 and in a Testcontainers container otherwise.
 */
public final class PostgresTestDatabase {

	private static final Logger logger = LoggerFactory.getLogger(PostgresTestDatabase.class);

	private static final String LOCAL_HOST = "127.0.0.1";

	private static final int LOCAL_PORT = 5432;

	private static Server server;

	private final String name;

	private final String url;

	private PostgresTestDatabase(String name, String url) {
		this.name = name;
		this.url = url;
	}

	/**
	 * Create a new, empty database whose name starts with the given prefix; it is dropped when the
	 * JVM exits.
	 * @param prefix a short lower-case prefix naming the test
	 * @return the new database
	 */
	public static synchronized PostgresTestDatabase create(String prefix) {
		Server server = server();
		String name = (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12))
			.toLowerCase(Locale.ROOT);
		server.execute("CREATE DATABASE " + name);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> server.dropQuietly(name)));
		return new PostgresTestDatabase(name, server.urlFor(name));
	}

	public String name() {
		return this.name;
	}

	public String url() {
		return this.url;
	}

	public String username() {
		return server.username;
	}

	public String password() {
		return server.password;
	}

	/**
	 * Open a new connection to this database.
	 * @return a connection in auto-commit mode
	 */
	public Connection connect() {
		try {
			return DriverManager.getConnection(this.url, username(), password());
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot connect to " + this.url, ex);
		}
	}

	/**
	 * Terminate every other connection to this database, as a database restart would.
	 * @return how many backends were terminated
	 */
	public int terminateConnections() {
		return server.terminate(this.name);
	}

	private static Server server() {
		if (server == null) {
			server = localServerIsUp() ? Server.local() : Server.container();
		}
		return server;
	}

	private static boolean localServerIsUp() {
		if (Boolean.getBoolean("idempotency.test.use-testcontainers")) {
			return false;
		}
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(LOCAL_HOST, LOCAL_PORT), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private record Server(String host, int port, String adminDatabase, String username, String password) {

		static Server local() {
			logger.info("Using the local PostgreSQL server on {}:{}", LOCAL_HOST, LOCAL_PORT);
			return new Server(LOCAL_HOST, LOCAL_PORT, "test", "postgres", "");
		}

		@SuppressWarnings("resource")
		static Server container() {
			logger.info("No PostgreSQL server on {}:{}; starting one with Testcontainers", LOCAL_HOST, LOCAL_PORT);
			PostgreSQLContainer container = new PostgreSQLContainer("postgres:16-alpine");
			container.start();
			return new Server(container.getHost(), container.getMappedPort(5432), container.getDatabaseName(),
					container.getUsername(), container.getPassword());
		}

		String urlFor(String database) {
			return "jdbc:postgresql://" + this.host + ":" + this.port + "/" + database;
		}

		void execute(String sql) {
			try (Connection connection = DriverManager.getConnection(urlFor(this.adminDatabase), this.username,
					this.password); Statement statement = connection.createStatement()) {
				statement.execute(sql);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Cannot execute '" + sql + "'", ex);
			}
		}

		int terminate(String database) {
			try (Connection connection = DriverManager.getConnection(urlFor(this.adminDatabase), this.username,
					this.password); Statement statement = connection.createStatement()) {
				var rs = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
						+ "WHERE datname = '" + database + "' AND pid <> pg_backend_pid()");
				rs.next();
				return rs.getInt(1);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Cannot terminate connections to " + database, ex);
			}
		}

		void dropQuietly(String database) {
			try {
				execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
			}
			catch (RuntimeException ex) {
				// The server may already be gone at JVM exit; the database is then left behind.
			}
		}

	}

}
