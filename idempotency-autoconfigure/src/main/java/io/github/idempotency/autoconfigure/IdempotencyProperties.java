package io.github.idempotency.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.core.DefaultOutcomeClassifier;

/**
 * Configuration properties for idempotency keys.
 */
@ConfigurationProperties("idempotency")
public class IdempotencyProperties {

	static final String DEFAULT_KEY_HEADER = "Idempotency-Key";

	static final Duration DEFAULT_TTL = Duration.ofHours(24);

	static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

	static final DataSize DEFAULT_MAX_BODY_SIZE = DataSize.ofMegabytes(1);

	/**
	 * Whether @Idempotent methods are guarded. When false, they run unguarded and the starter
	 * creates nothing.
	 */
	private boolean enabled = true;

	/**
	 * Request header that carries the idempotency key.
	 */
	private String keyHeader = DEFAULT_KEY_HEADER;

	/**
	 * How long a completed request is replayed, for operations that set no TTL of their own.
	 */
	private Duration defaultTtl = DEFAULT_TTL;

	/**
	 * How long a claim is exclusive before a retry may take it over, for operations that set no
	 * lease of their own.
	 */
	private Duration defaultLease = DEFAULT_LEASE;

	/**
	 * How long a duplicate of a request in progress waits for its result before answering 409,
	 * for operations that set no wait of their own. Zero answers 409 at once.
	 */
	private Duration defaultWait = Duration.ZERO;

	/**
	 * Crash-safety mode of operations that set none.
	 */
	private IdempotencyMode defaultMode = IdempotencyMode.LEASED;

	/**
	 * Largest request body an idempotent request may have; a larger one is refused with 413.
	 */
	private DataSize maxBodySize = DEFAULT_MAX_BODY_SIZE;

	/**
	 * Response headers stored and replayed in addition to Content-Type and Location. Cookies,
	 * credentials and hop-by-hop headers are refused.
	 */
	private List<String> storedHeaders = new ArrayList<>();

	/**
	 * Settings of individual operations, by operation name.
	 */
	private Map<String, Operation> operations = new LinkedHashMap<>();

	private final Tenant tenant = new Tenant();

	private final Schema schema = new Schema();

	private final Classification classification = new Classification();

	private final Purge purge = new Purge();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getKeyHeader() {
		return this.keyHeader;
	}

	public void setKeyHeader(String keyHeader) {
		this.keyHeader = keyHeader;
	}

	public Duration getDefaultTtl() {
		return this.defaultTtl;
	}

	public void setDefaultTtl(Duration defaultTtl) {
		this.defaultTtl = defaultTtl;
	}

	public Duration getDefaultLease() {
		return this.defaultLease;
	}

	public void setDefaultLease(Duration defaultLease) {
		this.defaultLease = defaultLease;
	}

	public Duration getDefaultWait() {
		return this.defaultWait;
	}

	public void setDefaultWait(Duration defaultWait) {
		this.defaultWait = defaultWait;
	}

	public IdempotencyMode getDefaultMode() {
		return this.defaultMode;
	}

	public void setDefaultMode(IdempotencyMode defaultMode) {
		this.defaultMode = defaultMode;
	}

	public DataSize getMaxBodySize() {
		return this.maxBodySize;
	}

	public void setMaxBodySize(DataSize maxBodySize) {
		this.maxBodySize = maxBodySize;
	}

	public List<String> getStoredHeaders() {
		return this.storedHeaders;
	}

	public void setStoredHeaders(List<String> storedHeaders) {
		this.storedHeaders = storedHeaders;
	}

	public Map<String, Operation> getOperations() {
		return this.operations;
	}

	public void setOperations(Map<String, Operation> operations) {
		this.operations = operations;
	}

	public Tenant getTenant() {
		return this.tenant;
	}

	public Schema getSchema() {
		return this.schema;
	}

	public Classification getClassification() {
		return this.classification;
	}

	public Purge getPurge() {
		return this.purge;
	}

	/**
	 * Settings of one operation; what is not set falls back to the defaults.
	 */
	public static class Operation {

		/**
		 * How long a completed request of this operation is replayed.
		 */
		private Duration ttl;

		/**
		 * How long a claim of this operation is exclusive before a retry may take it over.
		 */
		private Duration lease;

		/**
		 * How long a duplicate of a request of this operation in progress waits for its result
		 * before answering 409.
		 */
		private Duration wait;

		/**
		 * Crash-safety mode of this operation, unless its @Idempotent annotation names one.
		 */
		private IdempotencyMode mode;

		/**
		 * Whether records of this operation are copied to the archive table, with their response,
		 * before they are purged or replaced by a new request with the same key.
		 */
		private boolean archive;

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

		public Duration getLease() {
			return this.lease;
		}

		public void setLease(Duration lease) {
			this.lease = lease;
		}

		public Duration getWait() {
			return this.wait;
		}

		public void setWait(Duration wait) {
			this.wait = wait;
		}

		public IdempotencyMode getMode() {
			return this.mode;
		}

		public void setMode(IdempotencyMode mode) {
			this.mode = mode;
		}

		public boolean isArchive() {
			return this.archive;
		}

		public void setArchive(boolean archive) {
			this.archive = archive;
		}

	}

	/**
	 * How requests are assigned to tenants.
	 */
	public static class Tenant {

		static final String DEFAULT_HEADER = "X-Tenant-Id";

		static final String DEFAULT_TENANT = "default";

		/**
		 * Request header that names the tenant.
		 */
		private String header = DEFAULT_HEADER;

		/**
		 * Tenant of requests that name none.
		 */
		private String defaultTenant = DEFAULT_TENANT;

		public String getHeader() {
			return this.header;
		}

		public void setHeader(String header) {
			this.header = header;
		}

		public String getDefaultTenant() {
			return this.defaultTenant;
		}

		public void setDefaultTenant(String defaultTenant) {
			this.defaultTenant = defaultTenant;
		}

	}

	/**
	 * How the starter's own tables are created and migrated.
	 */
	public static class Schema {

		static final String DEFAULT_HISTORY_TABLE = "idempotency_schema_history";

		/**
		 * Whether to apply the starter's Flyway migrations at start-up. Turn off to manage the
		 * schema yourself.
		 */
		private boolean migrate = true;

		/**
		 * Flyway history table of the starter's migrations, kept apart from the application's.
		 */
		private String historyTable = DEFAULT_HISTORY_TABLE;

		public boolean isMigrate() {
			return this.migrate;
		}

		public void setMigrate(boolean migrate) {
			this.migrate = migrate;
		}

		public String getHistoryTable() {
			return this.historyTable;
		}

		public void setHistoryTable(String historyTable) {
			this.historyTable = historyTable;
		}

	}

	/**
	 * Which results are final, and stored for replay, and which are transient, and released for
	 * a retry.
	 */
	public static class Classification {

		/**
		 * Response statuses below 500 that are transient and release the key.
		 */
		private Set<Integer> transientStatuses = new LinkedHashSet<>(DefaultOutcomeClassifier.DEFAULT_TRANSIENT_STATUSES);

		/**
		 * Exception types that are final: the response they produce is stored and replayed.
		 */
		private List<Class<? extends Throwable>> finalExceptions = new ArrayList<>();

		/**
		 * Exception types that are transient: the key is released whatever response they produce.
		 */
		private List<Class<? extends Throwable>> transientExceptions = new ArrayList<>();

		public Set<Integer> getTransientStatuses() {
			return this.transientStatuses;
		}

		public void setTransientStatuses(Set<Integer> transientStatuses) {
			this.transientStatuses = transientStatuses;
		}

		public List<Class<? extends Throwable>> getFinalExceptions() {
			return this.finalExceptions;
		}

		public void setFinalExceptions(List<Class<? extends Throwable>> finalExceptions) {
			this.finalExceptions = finalExceptions;
		}

		public List<Class<? extends Throwable>> getTransientExceptions() {
			return this.transientExceptions;
		}

		public void setTransientExceptions(List<Class<? extends Throwable>> transientExceptions) {
			this.transientExceptions = transientExceptions;
		}

	}

	/**
	 * The scheduled purge of expired records and of records stuck in progress.
	 */
	public static class Purge {

		static final String DEFAULT_CRON = "0 * * * * *";

		static final int DEFAULT_BATCH_SIZE = 500;

		static final Duration DEFAULT_PAUSE = Duration.ofMillis(200);

		static final Duration DEFAULT_STUCK_AFTER = Duration.ofHours(1);

		/**
		 * Cron expression, in the server's time zone, of the purge that every instance runs on a
		 * thread of its own. "-" disables it.
		 */
		private String cron = DEFAULT_CRON;

		/**
		 * Largest number of records one batch deletes, each batch in a transaction of its own.
		 */
		private int batchSize = DEFAULT_BATCH_SIZE;

		/**
		 * Pause between two batches of one purge run, so that the purge leaves the database to
		 * live claims. Zero purges as fast as the database allows.
		 */
		private Duration pause = DEFAULT_PAUSE;

		/**
		 * How long past the end of its lease a record left in progress, whose request never
		 * finished and was never retried, counts as stuck and is reclaimed by the purge.
		 */
		private Duration stuckAfter = DEFAULT_STUCK_AFTER;

		public String getCron() {
			return this.cron;
		}

		public void setCron(String cron) {
			this.cron = cron;
		}

		public int getBatchSize() {
			return this.batchSize;
		}

		public void setBatchSize(int batchSize) {
			this.batchSize = batchSize;
		}

		public Duration getPause() {
			return this.pause;
		}

		public void setPause(Duration pause) {
			this.pause = pause;
		}

		public Duration getStuckAfter() {
			return this.stuckAfter;
		}

		public void setStuckAfter(Duration stuckAfter) {
			this.stuckAfter = stuckAfter;
		}

	}

}
