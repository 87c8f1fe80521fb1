package io.github.idempotency.engine;

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
import org.springframework.util.unit.DataSize;

import io.github.idempotency.annotation.IdempotencyMode;

/**
 * Configuration properties for idempotency keys.
 */
@ConfigurationProperties("idempotency")
public class IdempotencyProperties {

	static final Duration DEFAULT_TTL = Duration.ofHours(24);

	static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

	/**
	 * Whether @Idempotent methods are guarded. When false, they run unguarded and the starter
	 * creates nothing.
	 */
	private boolean enabled = true;

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
	 * Settings of individual operations, by operation name.
	 */
	private Map<String, Operation> operations = new LinkedHashMap<>();

	private final Tenant tenant = new Tenant();

	private final Classification classification = new Classification();

	private final Limits limits = new Limits();

	private final ReplayCache replayCache = new ReplayCache();

	private final Store store = new Store();

	private final Metrics metrics = new Metrics();

	private final Dashboard dashboard = new Dashboard();

	private final Alerts alerts = new Alerts();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
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

	public Map<String, Operation> getOperations() {
		return this.operations;
	}

	public void setOperations(Map<String, Operation> operations) {
		this.operations = operations;
	}

	public Tenant getTenant() {
		return this.tenant;
	}

	public Classification getClassification() {
		return this.classification;
	}

	public ReplayCache getReplayCache() {
		return this.replayCache;
	}

	public Limits getLimits() {
		return this.limits;
	}

	public Store getStore() {
		return this.store;
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

		/**
		 * How long an HTTP request of this operation waits for its work before it is answered
		 * 202 Accepted with the link of its status, while the work goes on (0s answers 202 at
		 * once). Not set: the request is answered when the work is done. Spring MVC handlers
		 * that return a value, in LEASED mode.
		 */
		private Duration acceptAfter;

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

		public Duration getAcceptAfter() {
			return this.acceptAfter;
		}

		public void setAcceptAfter(Duration acceptAfter) {
			this.acceptAfter = acceptAfter;
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
	 * A cache, on each instance, of the completed records that replays were answered from, so that
	 * later replays of them need no store round trip. A completed record never changes until it
	 * expires (an operator cannot release it), so a cached one answers as the store would.
	 */
	public static class ReplayCache {

		/**
		 * Whether replays are answered from the cache; needs com.github.ben-manes.caffeine:caffeine.
		 * Off by default: records changed in the store by hand (deleted, or their expiry moved
		 * earlier) go on being replayed from it for up to max-age.
		 */
		private boolean enabled;

		/**
		 * Most records the cache holds.
		 */
		private long maxEntries = 10_000;

		/**
		 * Most bytes of stored responses the cache holds.
		 */
		private DataSize maxSize = DataSize.ofMegabytes(32);

		/**
		 * Longest a record stays cached; never past its expiry less a minute, for clocks that
		 * disagree.
		 */
		private Duration maxAge = Duration.ofMinutes(10);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public long getMaxEntries() {
			return this.maxEntries;
		}

		public void setMaxEntries(long maxEntries) {
			this.maxEntries = maxEntries;
		}

		public DataSize getMaxSize() {
			return this.maxSize;
		}

		public void setMaxSize(DataSize maxSize) {
			this.maxSize = maxSize;
		}

		public Duration getMaxAge() {
			return this.maxAge;
		}

		public void setMaxAge(Duration maxAge) {
			this.maxAge = maxAge;
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
