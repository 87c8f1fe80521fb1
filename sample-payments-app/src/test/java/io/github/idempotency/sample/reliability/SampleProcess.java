package io.github.idempotency.sample.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.LocalPorts;
import io.github.idempotency.testsupport.MariaDbTestDatabase;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.awaitility.Awaitility.await;

/**
 * The packaged sample application running as a process of its own on a PostgreSQL or MariaDB
 * database, with its output in a log file, that a test can kill as {@code kill -9} would.
 */
final class SampleProcess implements AutoCloseable {

	/**
	 * System property that names the packaged application jar; set by Failsafe.
	 */
	static final String JAR_PROPERTY = "sample.jar";

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

	private final Process process;

	private final Path log;

	private final int port;

	private SampleProcess(Process process, Path log, int port) {
		this.process = process;
		this.log = log;
		this.port = port;
	}

	/**
	 * Start the application with the {@code postgres} profile on a database and wait until its
	 * health endpoint answers {@code UP}.
	 * @param database the database
	 * @param name a name for the log file
	 * @param arguments further command line arguments
	 * @return the running application
	 */
	static SampleProcess start(PostgresTestDatabase database, String name, String... arguments) {
		return start("postgres", database.url(), database.username(), database.password(), name, arguments);
	}

	/**
	 * Start the application with the {@code postgres} profile and further profiles on a database,
	 * as {@link #start(PostgresTestDatabase, String, String...)} does.
	 * @param database the database
	 * @param profiles further profiles, comma-separated
	 * @param name a name for the log file
	 * @param arguments further command line arguments
	 * @return the running application
	 */
	static SampleProcess start(PostgresTestDatabase database, String profiles, String name, String... arguments) {
		return start("postgres," + profiles, database.url(), database.username(), database.password(), name,
				arguments);
	}

	/**
	 * Start the application with the {@code mariadb} profile on a MariaDB database, as
	 * {@link #start(PostgresTestDatabase, String, String...)} does on PostgreSQL.
	 * @param database the database
	 * @param name a name for the log file
	 * @param arguments further command line arguments
	 * @return the running application
	 */
	static SampleProcess start(MariaDbTestDatabase database, String name, String... arguments) {
		return start("mariadb", database.url(), database.username(), database.password(), name, arguments);
	}

	private static SampleProcess start(String profile, String url, String username, String password, String name,
			String... arguments) {
		Path jar = jar();
		int port = freePort();
		List<String> command = new ArrayList<>(List.of(
				Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
				"-XX:+UseSerialGC", "-Xmx384m", "-jar", jar.toString(), "--spring.profiles.active=" + profile,
				"--server.port=" + port, "--spring.main.banner-mode=off"));
		command.addAll(List.of(arguments));
		try {
			Path log = Files.createTempFile(jar.getParent(), "process-" + name + "-", ".log");
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile());
			builder.environment().put("SPRING_DATASOURCE_URL", url);
			builder.environment().put("SPRING_DATASOURCE_USERNAME", username);
			builder.environment().put("SPRING_DATASOURCE_PASSWORD", password);
			SampleProcess sample = new SampleProcess(builder.start(), log, port);
			sample.awaitHealthy();
			return sample;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	Http http() {
		return new Http(this.port);
	}

	Path log() {
		return this.log;
	}

	/**
	 * Wait until the application has written a line containing the text to its log.
	 * @param text the text
	 */
	void awaitLog(String text) {
		await().atMost(STARTUP_TIMEOUT).pollInterval(Duration.ofMillis(20)).until(() -> {
			assertAlive();
			return Files.readString(this.log, StandardCharsets.UTF_8).contains(text);
		});
	}

	/**
	 * Kill the application and any process it started at once, as {@code kill -9} would, and
	 * wait until they are gone.
	 */
	void kill() {
		this.process.descendants().forEach(ProcessHandle::destroyForcibly);
		this.process.destroyForcibly();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("The application did not die");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			kill();
		}
	}

	private void awaitHealthy() {
		Http http = http();
		await().atMost(STARTUP_TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
			assertAlive();
			try {
				HttpResponse<byte[]> health = http.get("/actuator/health").send();
				return health.statusCode() == 200 && Http.text(health).contains("\"status\":\"UP\"");
			}
			catch (UncheckedIOException ex) {
				return false;
			}
		});
	}

	private void assertAlive() throws IOException {
		if (!this.process.isAlive()) {
			throw new IllegalStateException("The application exited with " + this.process.exitValue() + ":\n"
					+ Files.readString(this.log, StandardCharsets.UTF_8));
		}
	}

	private static Path jar() {
		String jar = System.getProperty(JAR_PROPERTY);
		if (jar == null || !Files.isRegularFile(Paths.get(jar))) {
			throw new IllegalStateException("System property " + JAR_PROPERTY
					+ " must name the packaged application; run the *IT classes with Failsafe after package");
		}
		return Paths.get(jar);
	}

	private static int freePort() {
		return LocalPorts.free();
	}

}
