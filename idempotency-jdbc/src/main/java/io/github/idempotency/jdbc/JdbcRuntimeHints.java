package io.github.idempotency.jdbc;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;


/**
 * Hints for what the JDBC store loads or reflects on: its Flyway migrations and its JPA entity.
 */
final class JdbcRuntimeHints implements RuntimeHintsRegistrar {

	/**
	 * The starter's migrations, one folder per database.
	 */
	static final String MIGRATIONS = "db/idempotency/**";

	/**
	 * The embedded id of the entity.
	 */
	static final TypeReference RECORD_ID = TypeReference.of(IdempotencyRecordId.class);

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern(MIGRATIONS);
		if (ClassUtils.isPresent("jakarta.persistence.Entity", classLoader)) {
			hints.reflection()
				.registerTypes(List.of(TypeReference.of(IdempotencyRecordEntity.class), RECORD_ID),
						(type) -> type.withMembers(MemberCategory.ACCESS_DECLARED_FIELDS,
								MemberCategory.INVOKE_DECLARED_CONSTRUCTORS, MemberCategory.INVOKE_DECLARED_METHODS));
		}
	}

}
