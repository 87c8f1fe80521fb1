package io.github.idempotency.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A throw-away database for one test class, dropped when the JVM exits.
 */
public abstract class TestDatabase {

	private final TestDatabaseServer server;

	private final String name;

	private final String url;

	TestDatabase(TestDatabaseServer server, String prefix) {
		this.server = server;
		this.name = server.createDatabase(prefix);
		this.url = server.urlFor(this.name);
	}

	public String name() {
		return this.name;
	}

	public String url() {
		return this.url;
	}

	public String username() {
		return this.server.username();
	}

	public String password() {
		return this.server.password();
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
	 * End every other connection to this database, as a database restart would.
	 * @return how many connections were ended
	 */
	public int terminateConnections() {
		return this.server.terminate(this.name);
	}

}
