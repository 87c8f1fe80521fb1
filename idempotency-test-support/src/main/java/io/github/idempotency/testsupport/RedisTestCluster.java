package io.github.idempotency.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Redis Cluster for tests: three primaries with one replica each, started once per JVM from
 * the local {@code redis-server} on free loopback ports in a temporary directory, without
 * persistence, and stopped when the JVM exits. {@code scripts/ensure-redis.sh} installs Redis.
 */
public final class RedisTestCluster {

	private static final Logger logger = LoggerFactory.getLogger(RedisTestCluster.class);

	private static final String HOST = "127.0.0.1";

	private static final int PRIMARIES = 3;

	private static final Duration STARTUP = Duration.ofSeconds(60);

	private static final Duration POLL = Duration.ofMillis(50);

	private static @Nullable RedisTestCluster cluster;

	private final List<Integer> primaries;

	private final List<Integer> replicas;

	private final Map<Integer, Process> processes;

	private RedisTestCluster(List<Integer> primaries, List<Integer> replicas, Map<Integer, Process> processes) {
		this.primaries = primaries;
		this.replicas = replicas;
		this.processes = processes;
	}

	/**
	 * Return the cluster of this JVM, starting it on first use.
	 * @return the cluster
	 */
	public static synchronized RedisTestCluster get() {
		if (cluster == null) {
			cluster = start();
		}
		return cluster;
	}

	/**
	 * Return the address of every node, as a client's seed list.
	 * @return {@code host:port} of each primary and replica
	 */
	public List<String> nodes() {
		return Stream.concat(this.primaries.stream(), this.replicas.stream()).map((port) -> HOST + ":" + port).toList();
	}

	public String host() {
		return HOST;
	}

	public List<Integer> primaryPorts() {
		return this.primaries;
	}

	public List<Integer> replicaPorts() {
		return this.replicas;
	}

	/**
	 * Send one command to one node.
	 * @param port the node's port
	 * @param arguments the command and its arguments
	 * @return the reply: a {@link String}, a {@link Long}, a {@link List} of replies, or {@code null}
	 */
	public @Nullable Object command(int port, String... arguments) {
		return RespConnection.command(HOST, port, arguments);
	}

	/**
	 * Read a key from whichever replica holds its slot, as a client that reads from replicas would.
	 * @param arguments a read command of one key, such as {@code HGET key field}
	 * @return the reply of the replica that serves the key's slot
	 */
	public @Nullable Object readFromReplica(String... arguments) {
		IllegalStateException redirected = null;
		for (int port : this.replicas) {
			try {
				return RespConnection.commands(HOST, port, new String[] { "READONLY" }, arguments);
			}
			catch (IllegalStateException ex) {
				redirected = ex;
			}
		}
		throw new IllegalStateException("No replica serves the key", redirected);
	}

	/**
	 * Stop every replica process in its tracks ({@code SIGSTOP}), as a replica that hangs or a
	 * network partition would, until the returned handle is closed ({@code SIGCONT}).
	 * @return the handle that resumes the replicas
	 */
	public Frozen freezeReplicas() {
		this.replicas.forEach((port) -> signal("STOP", this.processes.get(port)));
		return () -> this.replicas.forEach((port) -> signal("CONT", this.processes.get(port)));
	}

	private static void signal(String signal, Process process) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("Could not send SIG" + signal + " to Redis process " + process.pid());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Frozen replicas, resumed on {@link #close()}.
	 */
	@FunctionalInterface
	public interface Frozen extends AutoCloseable {

		@Override
		void close();

	}

	private static RedisTestCluster start() {
		String server = executable("redis-server");
		String cli = executable("redis-cli");
		Path directory = createDirectory();
		Map<Integer, Process> processes = new ConcurrentHashMap<>();
		Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(processes.values(), directory)));
		List<Integer> ports = new ArrayList<>();
		for (int i = 0; i < PRIMARIES * 2; i++) {
			ports.add(startNode(directory, server, processes));
		}
		List<String> create = new ArrayList<>(List.of(cli, "--cluster", "create"));
		ports.forEach((port) -> create.add(HOST + ":" + port));
		create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
		Process creation = run(directory, "cluster-create.out", create.toArray(String[]::new));
		awaitExit(creation, directory.resolve("cluster-create.out"));
		List<Integer> primaries = new ArrayList<>();
		List<Integer> replicas = new ArrayList<>();
		for (int port : ports) {
			awaitContains(port, "cluster_state:ok", "CLUSTER", "INFO");
			Object role = RespConnection.command(HOST, port, "ROLE");
			boolean primary = role instanceof List<?> reply && "master".equals(reply.get(0));
			(primary ? primaries : replicas).add(port);
		}
		for (int port : primaries) {
			awaitContains(port, "state=online", "INFO", "replication");
		}
		logger.info("Started a Redis Cluster for tests: primaries {}, replicas {}, in {}", primaries, replicas,
				directory);
		return new RedisTestCluster(List.copyOf(primaries), List.copyOf(replicas), processes);
	}

	/**
	 * Start one node on ports that were free, and start it again on others should one of them be
	 * taken before the node binds it (its process then exits).
	 */
	private static int startNode(Path directory, String server, Map<Integer, Process> processes) {
		String failures = "";
		for (int attempt = 0; attempt < 10; attempt++) {
			int port = LocalPorts.free();
			int busPort = LocalPorts.free();
			Process process = run(directory, "redis-" + port + ".out", server, "--port", String.valueOf(port), "--bind",
					HOST, "--protected-mode", "no", "--cluster-enabled", "yes", "--cluster-port", String.valueOf(busPort),
					"--cluster-config-file", "nodes-" + port + ".conf", "--cluster-node-timeout", "5000", "--dir",
					directory.toString(), "--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0");
			processes.put(port, process);
			Awaitility.await()
				.atMost(STARTUP)
				.pollInterval(POLL)
				.ignoreExceptions()
				.until(() -> !process.isAlive() || "PONG".equals(RespConnection.command(HOST, port, "PING")));
			if (process.isAlive()) {
				return port;
			}
			processes.remove(port);
			process.destroy();
			failures += " port " + port + "/" + busPort + ": " + output(directory.resolve("redis-" + port + ".out"));
		}
		throw new IllegalStateException("Could not start a Redis Cluster node:" + failures);
	}

	private static String output(Path file) {
		try {
			return Files.readString(file).strip();
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	private static Process run(Path directory, String output, String... command) {
		try {
			return new ProcessBuilder(command).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve(output).toFile())
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot run " + command[0], ex);
		}
	}

	private static void awaitExit(Process process, Path output) {
		try {
			if (!process.waitFor(STARTUP.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException("redis-cli --cluster create failed: " + Files.readString(output));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void awaitContains(int port, String expected, String... command) {
		await(port, command, (reply) -> reply instanceof String text && text.contains(expected));
	}

	private static void await(int port, String[] command, Predicate<@Nullable Object> done) {
		try {
			Awaitility.await()
				.atMost(STARTUP)
				.pollInterval(POLL)
				.ignoreExceptions()
				.until(() -> done.test(RespConnection.command(HOST, port, command)));
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException("Redis on port " + port + " did not answer " + String.join(" ", command)
					+ " as expected within " + STARTUP, ex);
		}
	}

	private static void stop(Collection<Process> processes, Path directory) {
		processes.forEach((process) -> {
			process.destroy();
			try {
				signal("CONT", process);
			}
			catch (RuntimeException ex) {
				// Not running any more.
			}
		});
		for (Process process : processes) {
			try {
				if (!process.waitFor(5, TimeUnit.SECONDS)) {
					process.destroyForcibly();
				}
			}
			catch (InterruptedException ex) {
				process.destroyForcibly();
			}
		}
		try (Stream<Path> files = Files.walk(directory)) {
			files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
		}
		catch (IOException ex) {
			// Left behind in the temporary directory.
		}
	}

	private static String executable(String name) {
		String path = System.getenv("PATH");
		List<String> directories = new ArrayList<>((path != null) ? List.of(path.split(File.pathSeparator)) : List.of());
		directories.addAll(List.of("/usr/bin", "/usr/local/bin"));
		for (String directory : directories) {
			File candidate = new File(directory, name);
			if (candidate.canExecute()) {
				return candidate.getPath();
			}
		}
		throw new IllegalStateException(name + " is not installed; run scripts/ensure-redis.sh, which installs it");
	}

	private static Path createDirectory() {
		try {
			return Files.createTempDirectory("redis-test-cluster");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
