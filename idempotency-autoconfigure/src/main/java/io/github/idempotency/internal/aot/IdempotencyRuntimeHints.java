package io.github.idempotency.internal.aot;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

import io.github.idempotency.internal.actuator.IdempotencyEndpoint;
import io.github.idempotency.internal.jdbc.IdempotencyRecordEntity;

/**
 * Hints for what the starter itself loads or reflects on: its Flyway migrations, its JPA entity
 * and the JSON its Actuator endpoint writes.
 */
final class IdempotencyRuntimeHints implements RuntimeHintsRegistrar {

	/**
	 * The starter's migrations, one folder per database.
	 */
	static final String MIGRATIONS = "db/idempotency/**";

	/**
	 * The embedded id of the entity, package-private beside it.
	 */
	static final TypeReference RECORD_ID = TypeReference.of("io.github.idempotency.internal.jdbc.IdempotencyRecordId");

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern(MIGRATIONS);
		if (ClassUtils.isPresent("jakarta.persistence.Entity", classLoader)) {
			hints.reflection()
				.registerTypes(List.of(TypeReference.of(IdempotencyRecordEntity.class), RECORD_ID),
						(type) -> type.withMembers(MemberCategory.ACCESS_DECLARED_FIELDS,
								MemberCategory.INVOKE_DECLARED_CONSTRUCTORS, MemberCategory.INVOKE_DECLARED_METHODS));
		}
		if (ClassUtils.isPresent("org.springframework.boot.actuate.endpoint.annotation.Endpoint", classLoader)) {
			// The read operation returns Object, so Boot's hints for operation results miss these.
			new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(),
					IdempotencyEndpoint.CountsDescriptor.class, IdempotencyEndpoint.RecordDescriptor.class,
					IdempotencyEndpoint.ReleaseDescriptor.class,
					IdempotencyEndpoint.ReferenceSearchDescriptor.class);
		}
	}

}
