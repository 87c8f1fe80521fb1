package io.github.idempotency.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.idempotency.testsupport.LocalPorts;

/**
 * A PostgreSQL cluster of one test's own, made with the server's {@code initdb} in a temporary
 * directory, so that the test can crash it (an immediate shutdown: no checkpoint, no WAL flush)
 * without touching the machine's server.
 */
public final class PrivatePostgresCluster implements AutoCloseable {

	private final Path bin;

	private final Path directory;

	private final int port;

	private PrivatePostgresCluster(Path bin, Path directory, int port) {
		this.bin = bin;
		this.directory = directory;
		this.port = port;
	}

	/**
	 * Create and start a cluster with the given extra settings for {@code postgresql.conf}.
	 * @param settings lines such as {@code wal_writer_delay = 10s}
	 * @return the running cluster
	 */
	public static PrivatePostgresCluster start(String... settings) {
		Path bin = serverBinaries();
		try {
			Path directory = Files.createTempDirectory("idempotency-pg-");
			PrivatePostgresCluster cluster = new PrivatePostgresCluster(bin, directory, freePort());
			cluster.run(List.of("chown", "-R", "postgres:postgres", directory.toString()), false);
			cluster.run(List.of(bin.resolve("initdb").toString(), "-D", cluster.data().toString(), "-U", "postgres",
					"--auth=trust", "-E", "UTF8", "--no-locale"), true);
			List<String> conf = new ArrayList<>(List.of("port = " + cluster.port, "listen_addresses = '127.0.0.1'",
					"unix_socket_directories = '" + directory + "'", "fsync = on"));
			conf.addAll(List.of(settings));
			Files.write(cluster.data().resolve("postgresql.conf"), conf, StandardCharsets.UTF_8,
					java.nio.file.StandardOpenOption.APPEND);
			cluster.pgCtl("start", "-w", "-t", "60", "-l", directory.resolve("server.log").toString());
			return cluster;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot create a PostgreSQL cluster", ex);
		}
	}

	public String url() {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/postgres";
	}

	/**
	 * Crash the server as a power cut of its processes would: an immediate shutdown, which
	 * writes nothing more; then start it again, which recovers from the WAL on disk.
	 */
	public void crashAndRestart() {
		pgCtl("stop", "-m", "immediate", "-w", "-t", "60");
		pgCtl("start", "-w", "-t", "60", "-l", this.directory.resolve("server.log").toString());
	}

	@Override
	public void close() {
		try {
			pgCtl("stop", "-m", "immediate", "-w", "-t", "60");
		}
		finally {
			try (Stream<Path> paths = Files.walk(this.directory)) {
				paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
			catch (IOException ex) {
				// A temporary directory left behind.
			}
		}
	}

	private Path data() {
		return this.directory.resolve("data");
	}

	private void pgCtl(String... arguments) {
		List<String> command = new ArrayList<>(List.of(this.bin.resolve("pg_ctl").toString(), "-D", data().toString()));
		command.addAll(List.of(arguments));
		run(command, true);
	}

	private void run(List<String> command, boolean asPostgres) {
		List<String> full = new ArrayList<>();
		if (asPostgres && isRoot()) {
			full.addAll(List.of("runuser", "-u", "postgres", "--"));
		}
		full.addAll(command);
		try {
			Process process = new ProcessBuilder(full).redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("commands.log").toFile())
				.start();
			if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException("'" + String.join(" ", full) + "' failed: "
						+ Files.readString(this.directory.resolve("commands.log")));
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + full, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + full, ex);
		}
	}

	private static boolean isRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	private static Path serverBinaries() {
		try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
			return versions.map((version) -> version.resolve("bin"))
				.filter((bin) -> Files.isExecutable(bin.resolve("initdb")))
				.max(Comparator.comparing((bin) -> Integer.parseInt(bin.getParent().getFileName().toString())))
				.orElseThrow();
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalStateException("These tests need PostgreSQL's server binaries (initdb, pg_ctl) under "
					+ "/usr/lib/postgresql/<version>/bin: run scripts/ensure-postgres.sh", ex);
		}
	}

	private static int freePort() {
		return LocalPorts.free();
	}

}
