package io.github.idempotency.chaos;

/**
 * The faults of the nemesis; {@code bench/chaos/lib.sh} makes each of them.
 */
enum FaultKind {

	/**
	 * {@code kill -9} of an instance, then its restart.
	 */
	KILL("kill"),

	/**
	 * An instance frozen with {@code SIGSTOP} and thawed with {@code SIGCONT}, as a long garbage
	 * collection or a suspended virtual machine would freeze it: its leases run out meanwhile.
	 */
	PAUSE("pause"),

	/**
	 * The database server stopped with {@code pg_ctl -m immediate} (a crash) and started again.
	 */
	DATABASE_RESTART("pg-restart"),

	/**
	 * Every connection of one instance to the database ended by the server
	 * ({@code pg_terminate_backend}), again every second while the fault lasts.
	 */
	DROPPED_CONNECTIONS("drop-connections"),

	/**
	 * The instance's packets to the database answered with a TCP reset.
	 */
	PARTITION_REJECT("partition-reject"),

	/**
	 * The instance's packets to the database silently dropped.
	 */
	PARTITION_DROP("partition-drop"),

	/**
	 * A share of the instance's packets to the database dropped at random.
	 */
	PACKET_LOSS("packet-loss"),

	/**
	 * Every packet of the instance to the database held for a fixed time.
	 */
	LATENCY("latency");

	private final String label;

	FaultKind(String label) {
		this.label = label;
	}

	/**
	 * Return the name of this kind in the history and the summary.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	static FaultKind fromLabel(String label) {
		for (FaultKind kind : values()) {
			if (kind.label.equals(label)) {
				return kind;
			}
		}
		throw new IllegalArgumentException("Unknown fault kind: " + label);
	}

}
