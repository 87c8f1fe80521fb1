package io.github.idempotency.chaos;

import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The faults of the nemesis; {@code bench/chaos/lib.sh} makes each of them.
 */
enum FaultKind {

	/**
	 * {@code kill -9} of an instance, then its restart.
	 */
	KILL("kill", null),

	/**
	 * An instance frozen with {@code SIGSTOP} and thawed with {@code SIGCONT}, as a long garbage
	 * collection or a suspended virtual machine would freeze it: its leases run out meanwhile.
	 */
	PAUSE("pause", null),

	/**
	 * The database server stopped with {@code pg_ctl -m immediate} (a crash) and started again.
	 */
	DATABASE_RESTART("pg-restart", null),

	/**
	 * A crash of the database server while a slow charge is inside the external gateway: one of
	 * its backends killed with {@code SIGKILL} (as the kernel's OOM killer would) the moment the
	 * gateway receives the charge, so that the server ends every backend at once and restarts
	 * through crash recovery, losing what it had not yet written of its log. The nemesis runs
	 * these on a schedule of their own, besides the other faults.
	 */
	DATABASE_CRASH("pg-crash", null),

	/**
	 * Every connection of one instance to the database ended by the server
	 * ({@code pg_terminate_backend}), again every second while the fault lasts.
	 */
	DROPPED_CONNECTIONS("drop-connections", "pg"),

	/**
	 * The instance's packets to the database answered with a TCP reset.
	 */
	PARTITION_REJECT("partition-reject", "pg"),

	/**
	 * The instance's packets to the database silently dropped.
	 */
	PARTITION_DROP("partition-drop", "pg"),

	/**
	 * A share of the instance's packets to the database dropped at random.
	 */
	PACKET_LOSS("packet-loss", "pg"),

	/**
	 * Every packet of the instance to the database held for a fixed time.
	 */
	LATENCY("latency", "pg"),

	/**
	 * The Redis server that holds the idempotency records killed with {@code kill -9} and started
	 * again, reloading its append-only file.
	 */
	REDIS_RESTART("redis-restart", null),

	/**
	 * Every connection of one instance to Redis ended by the server ({@code CLIENT KILL}), again
	 * every second while the fault lasts.
	 */
	REDIS_DROPPED_CONNECTIONS("redis-drop-connections", "redis"),

	/**
	 * The instance's packets to Redis answered with a TCP reset.
	 */
	REDIS_PARTITION_REJECT("redis-partition-reject", "redis"),

	/**
	 * The instance's packets to Redis silently dropped.
	 */
	REDIS_PARTITION_DROP("redis-partition-drop", "redis"),

	/**
	 * A share of the instance's packets to Redis dropped at random.
	 */
	REDIS_PACKET_LOSS("redis-packet-loss", "redis"),

	/**
	 * Every packet of the instance to Redis held for a fixed time.
	 */
	REDIS_LATENCY("redis-latency", "redis"),

	/**
	 * The MariaDB server (of the mariadb mode) killed with {@code kill -9} once a charge has
	 * arrived at the gateway, and started again: InnoDB recovers from its log.
	 */
	MARIADB_RESTART("mariadb-restart", null),

	/**
	 * The MariaDB server killed with {@code SIGKILL} by the gateway the moment a slow charge
	 * arrives, on the schedule of {@link #DATABASE_CRASH}, then started again.
	 */
	MARIADB_CRASH("mariadb-crash", null),

	/**
	 * Every connection of one instance to MariaDB ended by the server ({@code KILL CONNECTION}),
	 * again every second while the fault lasts.
	 */
	MARIADB_DROPPED_CONNECTIONS("mariadb-drop-connections", "mariadb"),

	/**
	 * The instance's packets to MariaDB answered with a TCP reset.
	 */
	MARIADB_PARTITION_REJECT("mariadb-partition-reject", "mariadb"),

	/**
	 * The instance's packets to MariaDB silently dropped.
	 */
	MARIADB_PARTITION_DROP("mariadb-partition-drop", "mariadb"),

	/**
	 * A share of the instance's packets to MariaDB dropped at random.
	 */
	MARIADB_PACKET_LOSS("mariadb-packet-loss", "mariadb"),

	/**
	 * Every packet of the instance to MariaDB held for a fixed time.
	 */
	MARIADB_LATENCY("mariadb-latency", "mariadb");

	/**
	 * The faults of a soak on PostgreSQL alone, in the order that the seeded schedule shuffles;
	 * {@link #DATABASE_CRASH} on its own schedule.
	 */
	static final List<FaultKind> POSTGRES = List.of(KILL, PAUSE, DATABASE_RESTART, DROPPED_CONNECTIONS,
			PARTITION_REJECT, PARTITION_DROP, PACKET_LOSS, LATENCY, DATABASE_CRASH);

	/**
	 * Return whether this kind is a crash of the database on its own schedule.
	 * @return whether it is {@link #DATABASE_CRASH} or {@link #MARIADB_CRASH}
	 */
	boolean isScheduledCrash() {
		return this == DATABASE_CRASH || this == MARIADB_CRASH;
	}

	private final String label;

	private final @Nullable String link;

	FaultKind(String label, @Nullable String link) {
		this.label = label;
		this.link = link;
	}

	/**
	 * Return the name of this kind in the history and the summary.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Return the connection this fault disturbs, as {@code bench/chaos/fault.sh} names it.
	 * @return {@code pg} or {@code redis}, or {@code null} for a fault of a process
	 */
	@Nullable String link() {
		return this.link;
	}

	static FaultKind fromLabel(String label) {
		for (FaultKind kind : values()) {
			if (kind.label.equals(label)) {
				return kind;
			}
		}
		throw new IllegalArgumentException("Unknown fault kind: " + label);
	}

	/**
	 * Read a comma-separated list of labels.
	 * @param labels the labels
	 * @return the kinds, in the order given
	 */
	static List<FaultKind> fromLabels(String labels) {
		return Arrays.stream(labels.split(",")).map(String::trim).map(FaultKind::fromLabel).toList();
	}

}
