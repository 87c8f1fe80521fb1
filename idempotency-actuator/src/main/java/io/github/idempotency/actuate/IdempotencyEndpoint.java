package io.github.idempotency.actuate;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.RecordCounts;
import io.github.idempotency.store.RecordMetadata;
import io.github.idempotency.store.ReleaseOutcome;
import io.github.idempotency.store.ReferencedKey;
import io.github.idempotency.store.RepeatedFailure;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.store.RecordStatus;

/**
 * The {@code idempotency} Actuator endpoint: record counts by operation and status (with what this
 * instance's meters counted) and the keys that ran most often, the metadata of one record (never its
 * stored body), references searched by value, and the release of a stuck key.
 */
@Endpoint(id = "idempotency")
class IdempotencyEndpoint {

	/**
	 * How many keys the counts list under {@code repeatedFailures}.
	 */
	static final int REPEATED_FAILURES_LISTED = 10;

	/**
	 * How many keys a search by reference lists at most.
	 */
	static final int REFERENCED_KEYS_LISTED = 100;

	private final IdempotencyRecordAdministration administration;

	private final @Nullable IdempotencyActivity activity;

	public IdempotencyEndpoint(IdempotencyRecordAdministration administration) {
		this(administration, null);
	}

	/**
	 * Create the endpoint.
	 * @param administration the access to the stored records
	 * @param activity what the meters of this instance counted, or {@code null} without meters
	 */
	public IdempotencyEndpoint(IdempotencyRecordAdministration administration,
			@Nullable IdempotencyActivity activity) {
		this.administration = administration;
		this.activity = activity;
	}

	/**
	 * Count the records of every operation, or of one; or, given a tenant, an operation and a key,
	 * describe that key's record; or, given a reference's name and value, list the keys it is
	 * attached to.
	 * @param tenant the tenant of the record to describe
	 * @param operation the operation to count, or of the record to describe
	 * @param key the key of the record to describe
	 * @param reference the name of the reference to search, such as {@code gateway_transaction}
	 * @param value the value of the reference to search
	 * @return the counts, the record's metadata, or the keys; {@code null} (404) if the record to
	 * describe does not exist
	 */
	@ReadOperation
	public @Nullable Object idempotency(@Nullable String tenant, @Nullable String operation, @Nullable String key,
			@Nullable String reference, @Nullable String value) {
		if (reference != null || value != null) {
			return references(reference, value);
		}
		if (tenant == null && key == null) {
			return counts(operation);
		}
		IdempotencyKey scopedKey = scopedKey(tenant, operation, key);
		return this.administration.describe(scopedKey)
			.map((metadata) -> RecordDescriptor.of(scopedKey, metadata))
			.orElse(null);
	}

	/**
	 * Release a key left in progress so that a retry runs the operation again. A key whose lease
	 * is live is released only with {@code force}, as its request may still be running.
	 * @param tenant the tenant of the key
	 * @param operation the operation of the key
	 * @param key the key
	 * @param force whether to release the key even while its lease is live
	 * @return what happened
	 */
	@WriteOperation
	public ReleaseDescriptor release(String tenant, String operation, String key, @Nullable Boolean force) {
		IdempotencyKey scopedKey = scopedKey(tenant, operation, key);
		ReleaseOutcome outcome = this.administration.release(scopedKey, Boolean.TRUE.equals(force));
		return ReleaseDescriptor.of(scopedKey, outcome);
	}

	private CountsDescriptor counts(@Nullable String operation) {
		List<RecordCounts> counts = this.administration.countByOperation();
		Map<String, OperationDescriptor> operations = new LinkedHashMap<>();
		long inProgress = 0;
		long completed = 0;
		long expired = 0;
		long stuck = 0;
		long released = 0;
		for (RecordCounts count : counts) {
			if (operation == null || operation.equals(count.operation())) {
				operations.put(count.operation(), new OperationDescriptor(count.inProgress(), count.completed(),
						count.expired(), count.stuck(), count.released()));
				inProgress += count.inProgress();
				completed += count.completed();
				expired += count.expired();
				stuck += count.stuck();
				released += count.released();
			}
		}
		ActivityDescriptor activity = (this.activity != null) ? this.activity.activity() : null;
		if (activity != null && operation != null) {
			activity = activity.only(operation::equals);
		}
		return new CountsDescriptor(inProgress, completed, expired, stuck, released, operations, activity,
				this.administration.repeatedFailures(operation, REPEATED_FAILURES_LISTED));
	}

	private ReferenceSearchDescriptor references(@Nullable String reference, @Nullable String value) {
		if (reference == null || reference.isEmpty() || value == null || value.isEmpty()) {
			throw new InvalidEndpointRequestException("A reference is searched by its name and value",
					"Missing reference or value");
		}
		return new ReferenceSearchDescriptor(reference,
				this.administration.findByReference(reference, value, REFERENCED_KEYS_LISTED));
	}

	private static IdempotencyKey scopedKey(@Nullable String tenant, @Nullable String operation,
			@Nullable String key) {
		if (tenant == null || tenant.isEmpty() || operation == null || operation.isEmpty() || key == null
				|| key.isEmpty()) {
			throw new InvalidEndpointRequestException("A record is identified by its tenant, operation and key",
					"Missing tenant, operation or key");
		}
		return new IdempotencyKey(tenant, operation, key);
	}

	/**
	 * Record counts of every operation and in total.
	 *
	 * @param inProgress records claimed by a request that has not finished
	 * @param completed records holding a response to replay
	 * @param expired records past their expiry, due to be purged
	 * @param stuck records in progress past their lease that no retry took over
	 * @param released records given up by a transient failure, kept for their attempts
	 * @param operations the counts per operation
	 * @param activity what the meters of this instance counted, or {@code null} without meters
	 * @param repeatedFailures the live keys that ran most often, most attempts first, hashed
	 */
	public record CountsDescriptor(long inProgress, long completed, long expired, long stuck, long released,
			Map<String, OperationDescriptor> operations, @Nullable ActivityDescriptor activity,
			List<RepeatedFailure> repeatedFailures) {

	}

	/**
	 * Record counts of one operation.
	 *
	 * @param inProgress records claimed by a request that has not finished
	 * @param completed records holding a response to replay
	 * @param expired records past their expiry, due to be purged
	 * @param stuck records in progress past their lease that no retry took over
	 * @param released records given up by a transient failure, kept for their attempts
	 */
	public record OperationDescriptor(long inProgress, long completed, long expired, long stuck, long released) {

	}

	/**
	 * The metadata of one record; the key itself is shown only as a short hash.
	 *
	 * @param tenant the tenant
	 * @param operation the operation
	 * @param keyHash the short hash of the key, as logged
	 * @param status the status
	 * @param fingerprint the fingerprint of the request that claimed the key
	 * @param createdAt when the key was claimed
	 * @param lockedUntil when the lease of a record in progress runs out
	 * @param completedAt when the response was stored
	 * @param expiresAt when the record stops counting
	 * @param expired whether the record has expired
	 * @param leaseExpired whether the record is in progress and its lease has run out
	 * @param responseStatus the stored response status
	 * @param responseBodyBytes the size of the stored response body
	 * @param attempts how many times the key ran
	 * @param lastFailure what its last failed attempt failed with: a class name or a status
	 * @param lastFailureAt when its last attempt failed
	 * @param references the references attached to the key, the values of each name
	 */
	public record RecordDescriptor(String tenant, String operation, String keyHash, RecordStatus status,
			String fingerprint, Instant createdAt, @Nullable Instant lockedUntil, @Nullable Instant completedAt,
			Instant expiresAt, boolean expired, boolean leaseExpired, @Nullable Integer responseStatus,
			@Nullable Long responseBodyBytes, int attempts, @Nullable String lastFailure,
			@Nullable Instant lastFailureAt, Map<String, List<String>> references) {

		static RecordDescriptor of(IdempotencyKey key, RecordMetadata metadata) {
			return new RecordDescriptor(key.tenant(), key.operation(), KeyHashes.shortHash(key.key()),
					metadata.status(), metadata.fingerprint(), metadata.createdAt(), metadata.lockedUntil(),
					metadata.completedAt(), metadata.expiresAt(), metadata.expired(), metadata.leaseExpired(),
					metadata.responseStatus(), metadata.responseBodyBytes(), metadata.attempts(),
					metadata.lastFailure(), metadata.lastFailureAt(), metadata.references());
		}

	}

	/**
	 * The keys a reference is attached to, oldest attachment first; each key only as a short
	 * hash.
	 *
	 * @param reference the name of the reference
	 * @param keys the keys, with the status of their record ({@code null} when it has none)
	 */
	public record ReferenceSearchDescriptor(String reference, List<ReferencedKey> keys) {

	}

	/**
	 * What a release did.
	 *
	 * @param released whether the key was released, so that a retry runs the operation again
	 * @param operation the operation of the key
	 * @param keyHash the short hash of the key, as logged
	 * @param outcome what happened
	 */
	public record ReleaseDescriptor(boolean released, String operation, String keyHash, ReleaseOutcome outcome) {

		static ReleaseDescriptor of(IdempotencyKey key, ReleaseOutcome outcome) {
			return new ReleaseDescriptor(outcome == ReleaseOutcome.RELEASED, key.operation(),
					KeyHashes.shortHash(key.key()), outcome);
		}

	}

}
