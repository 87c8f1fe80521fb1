package io.github.idempotency.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.util.unit.DataSize;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.internal.engine.DefaultOutcomeClassifier;

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
	 * Where clients read how to use idempotency keys. When set, every problem the starter answers
	 * links to it with a 'Link: <uri>; rel="describedby"' header, as the IETF draft recommends.
	 */
	private @Nullable URI documentationUri;

	/**
	 * Settings of individual operations, by operation name.
	 */
	private Map<String, Operation> operations = new LinkedHashMap<>();

	private final Tenant tenant = new Tenant();

	private final Jdbc jdbc = new Jdbc();

	private final Classification classification = new Classification();

	private final Purge purge = new Purge();

	private final Limits limits = new Limits();

	private final Store store = new Store();

	private final Redis redis = new Redis();

	private final Metrics metrics = new Metrics();

	private final Dashboard dashboard = new Dashboard();

	private final Alerts alerts = new Alerts();

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

	public @Nullable URI getDocumentationUri() {
		return this.documentationUri;
	}

	public void setDocumentationUri(@Nullable URI documentationUri) {
		this.documentationUri = documentationUri;
	}

	/**
	 * Return the {@code Link} header that points to the documentation, if one is configured.
	 * @return the header value, or {@code null}
	 */
	@Nullable String describedByLink() {
		return (this.documentationUri != null) ? "<" + this.documentationUri + ">; rel=\"describedby\"" : null;
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

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public Classification getClassification() {
		return this.classification;
	}

	public Purge getPurge() {
		return this.purge;
	}

	public Limits getLimits() {
		return this.limits;
	}

	public Store getStore() {
		return this.store;
	}

	public Redis getRedis() {
		return this.redis;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Dashboard getDashboard() {
		return this.dashboard;
	}

	public Alerts getAlerts() {
		return this.alerts;
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
	 * The JDBC store's tables: how they are created and upgraded.
	 */
	public static class Jdbc {

		static final String DEFAULT_FLYWAY_HISTORY_TABLE = "idempotency_schema_history";

		/**
		 * Database schema initialization mode: when the starter creates and upgrades its tables
		 * with its own Flyway migrations at start-up. Use never to create them yourself from the
		 * shipped scripts.
		 */
		private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.ALWAYS;

		/**
		 * Flyway history table of the starter's migrations, kept apart from the application's.
		 */
		private String flywayHistoryTable = DEFAULT_FLYWAY_HISTORY_TABLE;

		/**
		 * Whether the read-only JPA entity IdempotencyRecordEntity joins the application's
		 * persistence unit, for JPA queries of the records. It maps the table as the migrations
		 * create it: use it with spring.jpa.hibernate.ddl-auto none, validate or update (create
		 * and create-drop would recreate the table), without
		 * spring.jpa.defer-datasource-initialization.
		 */
		private boolean jpaEntity;

		public DatabaseInitializationMode getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public String getFlywayHistoryTable() {
			return this.flywayHistoryTable;
		}

		public void setFlywayHistoryTable(String flywayHistoryTable) {
			this.flywayHistoryTable = flywayHistoryTable;
		}

		public boolean isJpaEntity() {
			return this.jpaEntity;
		}

		public void setJpaEntity(boolean jpaEntity) {
			this.jpaEntity = jpaEntity;
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
		 * Cron expression, in the server's time zone, of the purge that every instance runs as a
		 * scheduled task, on the application's task scheduler if it has one. "-" disables it.
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

	/**
	 * Limits on the key space each tenant may take, enforced by every application instance on its
	 * own: with N instances behind a load balancer, a tenant gets up to N times each limit.
	 */
	public static class Limits {

		static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

		/**
		 * New keys one tenant may claim per interval on each instance; more are refused with 429
		 * and nothing is stored, while keys it already used are still answered. Zero is no limit.
		 */
		private int newKeys;

		/**
		 * Interval of the new-keys limit.
		 */
		private Duration interval = DEFAULT_INTERVAL;

		/**
		 * Claimed keys of one tenant that may run at once on each instance; a new key past it is
		 * refused with 429. Zero is no limit.
		 */
		private int inFlight;

		public int getNewKeys() {
			return this.newKeys;
		}

		public void setNewKeys(int newKeys) {
			this.newKeys = newKeys;
		}

		public Duration getInterval() {
			return this.interval;
		}

		public void setInterval(Duration interval) {
			this.interval = interval;
		}

		public int getInFlight() {
			return this.inFlight;
		}

		public void setInFlight(int inFlight) {
			this.inFlight = inFlight;
		}

	}

	/**
	 * Which store keeps the idempotency records.
	 */
	public static class Store {

		/**
		 * Store of the idempotency records. When not set, JDBC where the application has a
		 * DataSource, else Redis where it has a RedisConnectionFactory.
		 */
		private @Nullable StoreType type;

		public @Nullable StoreType getType() {
			return this.type;
		}

		public void setType(@Nullable StoreType type) {
			this.type = type;
		}

	}

	/**
	 * The stores that keep idempotency records.
	 */
	public enum StoreType {

		/**
		 * The application's relational database (PostgreSQL, MariaDB or H2): LEASED and ATOMIC operations,
		 * archive, scheduled purge.
		 */
		JDBC,

		/**
		 * Redis, standalone or Redis Cluster: LEASED operations only, native expiry.
		 */
		REDIS

	}

	/**
	 * The Redis store.
	 */
	public static class Redis {

		static final String DEFAULT_KEY_PREFIX = "idempotency:";

		static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofMillis(500);

		/**
		 * Prefix of the Redis keys of idempotency records. Must not contain '{' or '}', which
		 * would move the hash tag that keeps each record in one Redis Cluster slot.
		 */
		private String keyPrefix = DEFAULT_KEY_PREFIX;

		/**
		 * How many replicas must acknowledge each claim and completion (Redis WAIT) before the
		 * request goes on; fewer within the timeout answers 503. Zero does not wait.
		 */
		private int waitReplicas;

		/**
		 * How long a claim or completion waits for its replicas' acknowledgements.
		 */
		private Duration waitTimeout = DEFAULT_WAIT_TIMEOUT;

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public int getWaitReplicas() {
			return this.waitReplicas;
		}

		public void setWaitReplicas(int waitReplicas) {
			this.waitReplicas = waitReplicas;
		}

		public Duration getWaitTimeout() {
			return this.waitTimeout;
		}

		public void setWaitTimeout(Duration waitTimeout) {
			this.waitTimeout = waitTimeout;
		}

	}

	/**
	 * The gauges of what the store holds.
	 */
	public static class Metrics {

		static final Duration DEFAULT_RECORDS_REFRESH = Duration.ofSeconds(30);

		/**
		 * How long the gauges of stored records (stuck, expired, store up) keep one count of the
		 * store before they count again, on a thread of their own, when they are next read.
		 */
		private Duration recordsRefresh = DEFAULT_RECORDS_REFRESH;

		public Duration getRecordsRefresh() {
			return this.recordsRefresh;
		}

		public void setRecordsRefresh(Duration recordsRefresh) {
			this.recordsRefresh = recordsRefresh;
		}

	}

	/**
	 * The operator dashboard page.
	 */
	public static class Dashboard {

		/**
		 * Whether to serve the operator dashboard page as the 'idempotencydashboard' Actuator
		 * endpoint, which must also be exposed, like any other endpoint.
		 */
		private boolean enabled;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * When a signal counts as one to alert on.
	 */
	public static class Alerts {

		static final int DEFAULT_REPEATED_FAILURES = 3;

		/**
		 * Transient failures of one key, each released for a retry, after which the key is counted
		 * once in idempotency.repeated.failures. Counted for LEASED operations: an ATOMIC failure
		 * rolls its claim back with everything else.
		 */
		private int repeatedFailures = DEFAULT_REPEATED_FAILURES;

		public int getRepeatedFailures() {
			return this.repeatedFailures;
		}

		public void setRepeatedFailures(int repeatedFailures) {
			this.repeatedFailures = repeatedFailures;
		}

	}

}
