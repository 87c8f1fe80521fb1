package io.github.idempotency.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.mariadb.MariaDBContainer;

/**
 * A throw-away MariaDB database for one test class, on the local server when one listens on
 * 127.0.0.1:3306 and in a Testcontainers container otherwise.
 */
public final class MariaDbTestDatabase {

	private static final Logger logger = LoggerFactory.getLogger(MariaDbTestDatabase.class);

	private static final String LOCAL_HOST = "127.0.0.1";

	private static final int LOCAL_PORT = 3306;

	private static Server server;

	private final String name;

	private final String url;

	private MariaDbTestDatabase(String name, String url) {
		this.name = name;
		this.url = url;
	}

	/**
	 * Create a new, empty database whose name starts with the given prefix; it is dropped when the
	 * JVM exits.
	 * @param prefix a short lower-case prefix naming the test
	 * @return the new database
	 */
	public static synchronized MariaDbTestDatabase create(String prefix) {
		Server server = server();
		String name = (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12))
			.toLowerCase(Locale.ROOT);
		server.execute("CREATE DATABASE " + name);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> server.dropQuietly(name)));
		return new MariaDbTestDatabase(name, server.urlFor(name));
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
	 * Kill every other connection to this database, as a database restart would.
	 * @return how many connections were killed
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
			logger.info("Using the local MariaDB server on {}:{}", LOCAL_HOST, LOCAL_PORT);
			return new Server(LOCAL_HOST, LOCAL_PORT, "test", "root", "");
		}

		@SuppressWarnings("resource")
		static Server container() {
			logger.info("No MariaDB server on {}:{}; starting one with Testcontainers", LOCAL_HOST, LOCAL_PORT);
			MariaDBContainer container = new MariaDBContainer("mariadb:10.11").withUsername("root");
			container.start();
			return new Server(container.getHost(), container.getMappedPort(3306), container.getDatabaseName(),
					container.getUsername(), container.getPassword());
		}

		String urlFor(String database) {
			return "jdbc:mariadb://" + this.host + ":" + this.port + "/" + database;
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
			catch (SQLException ex) {
				throw new IllegalStateException("Cannot terminate connections to " + database, ex);
			}
		}

		void dropQuietly(String database) {
			try {
				execute("DROP DATABASE IF EXISTS " + database);
			}
			catch (RuntimeException ex) {
				// The server may already be gone at JVM exit; the database is then left behind.
			}
		}

	}

}
