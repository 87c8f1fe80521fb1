package io.github.idempotency.actuator;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.core.KeyHashes;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.RecordCounts;
import io.github.idempotency.store.RecordMetadata;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.ReleaseOutcome;

/**
 * The {@code idempotency} Actuator endpoint: record counts by operation and status, the metadata
 * of one record (never its stored body), and the release of a stuck key.
 */
@Endpoint(id = "idempotency")
public class IdempotencyEndpoint {

	private final IdempotencyRecordAdministration administration;

	public IdempotencyEndpoint(IdempotencyRecordAdministration administration) {
		this.administration = administration;
	}

	/**
	 * Count the records of every operation, or of one; or, given a tenant, an operation and a key,
	 * describe that key's record.
	 * @param tenant the tenant of the record to describe
	 * @param operation the operation to count, or of the record to describe
	 * @param key the key of the record to describe
	 * @return the counts, or the record's metadata, or {@code null} (404) if it has no record
	 */
	@ReadOperation
	public @Nullable Object idempotency(@Nullable String tenant, @Nullable String operation, @Nullable String key) {
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
		for (RecordCounts count : counts) {
			if (operation == null || operation.equals(count.operation())) {
				operations.put(count.operation(), new OperationDescriptor(count.inProgress(), count.completed(),
						count.expired(), count.stuck()));
				inProgress += count.inProgress();
				completed += count.completed();
				expired += count.expired();
				stuck += count.stuck();
			}
		}
		return new CountsDescriptor(inProgress, completed, expired, stuck, operations);
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
	 * @param operations the counts per operation
	 */
	public record CountsDescriptor(long inProgress, long completed, long expired, long stuck,
			Map<String, OperationDescriptor> operations) {

	}

	/**
	 * Record counts of one operation.
	 *
	 * @param inProgress records claimed by a request that has not finished
	 * @param completed records holding a response to replay
	 * @param expired records past their expiry, due to be purged
	 * @param stuck records in progress past their lease that no retry took over
	 */
	public record OperationDescriptor(long inProgress, long completed, long expired, long stuck) {

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
	 */
	public record RecordDescriptor(String tenant, String operation, String keyHash, RecordStatus status,
			String fingerprint, Instant createdAt, @Nullable Instant lockedUntil, @Nullable Instant completedAt,
			Instant expiresAt, boolean expired, boolean leaseExpired, @Nullable Integer responseStatus,
			@Nullable Long responseBodyBytes) {

		static RecordDescriptor of(IdempotencyKey key, RecordMetadata metadata) {
			return new RecordDescriptor(key.tenant(), key.operation(), KeyHashes.shortHash(key.key()),
					metadata.status(), metadata.fingerprint(), metadata.createdAt(), metadata.lockedUntil(),
					metadata.completedAt(), metadata.expiresAt(), metadata.expired(), metadata.leaseExpired(),
					metadata.responseStatus(), metadata.responseBodyBytes());
		}

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
