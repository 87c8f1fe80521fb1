package io.github.idempotency.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * Hints for the JSON the Actuator endpoint writes.
 */
final class ActuatorRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		if (ClassUtils.isPresent("org.springframework.boot.actuate.endpoint.annotation.Endpoint", classLoader)) {
			// The read operation returns Object, so Boot's hints for operation results miss these.
			new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(),
					IdempotencyEndpoint.CountsDescriptor.class, IdempotencyEndpoint.RecordDescriptor.class,
					IdempotencyEndpoint.ReleaseDescriptor.class,
					IdempotencyEndpoint.ReferenceSearchDescriptor.class);
		}
	}

}
