package io.github.idempotency.engine;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.IdempotentOperationFailedException;
import io.github.idempotency.fingerprint.CanonicalJson;
import io.github.idempotency.store.StoredResponse;

/**
 * Turns what an {@code @Idempotent} bean method returned, or a final exception it threw, into a
 * stored response and back, as JSON. A value is stored only once it is known to read back as
 * itself, as its declared type or else as its runtime type, which is then stored with it.
 */
class ReturnValueCodec {

	static final String OUTCOME_HEADER = "X-Idempotency-Outcome";

	static final String TYPE_HEADER = "X-Idempotency-Type";

	private static final List<String> JSON = List.of("application/json");

	private final JsonMapper mapper;

	public ReturnValueCodec(JsonMapper mapper) {
		this.mapper = mapper;
	}

	/**
	 * Return the arguments of a call as JSON, for the fingerprint; an argument that cannot be
	 * written as JSON counts by its type only.
	 * @param arguments the arguments
	 * @return a JSON array
	 */
	byte[] arguments(@Nullable Object[] arguments) {
		StringBuilder json = new StringBuilder("[");
		for (int i = 0; i < arguments.length; i++) {
			if (i > 0) {
				json.append(',');
			}
			json.append(argument(arguments[i]));
		}
		return json.append(']').toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return a value as JSON, for the fingerprint; a value that cannot be written as JSON counts
	 * by its type only.
	 * @param value the value
	 * @return its JSON
	 */
	byte[] value(@Nullable Object value) {
		return argument(value).getBytes(StandardCharsets.UTF_8);
	}

	private String argument(@Nullable Object argument) {
		try {
			return this.mapper.writeValueAsString(argument);
		}
		catch (RuntimeException ex) {
			return this.mapper.writeValueAsString("<" + argument.getClass().getName() + ">");
		}
	}

	/**
	 * Return a method's return value as a stored response.
	 * @param value the value
	 * @param method the method that returned it
	 * @return the stored response
	 * @throws IllegalStateException if the value cannot be written as JSON or read back as itself
	 */
	StoredResponse returned(Object value, Method method) {
		byte[] body = this.mapper.writeValueAsBytes(value);
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put("Content-Type", JSON);
		headers.put(OUTCOME_HEADER, List.of("returned"));
		if (value != null && method.getReturnType() != void.class) {
			JavaType declared = declaredType(method);
			if (!readsBackAs(body, declared, value)) {
				JavaType runtime = this.mapper.getTypeFactory().constructType(value.getClass());
				if (!readsBackAs(body, runtime, value)) {
					throw new IllegalStateException("The value " + method.getName() + " returned, a "
							+ value.getClass().getName() + ", cannot be read back from JSON as itself, so a retry "
							+ "could not be answered with it; give it a constructor Jackson can use (a record, or "
							+ "@JsonCreator)");
				}
				headers.put(TYPE_HEADER, List.of(runtime.toCanonical()));
			}
		}
		return new StoredResponse(200, headers, body);
	}

	StoredResponse threw(Throwable failure) {
		Map<String, String> body = Map.of("type", failure.getClass().getName(), "message",
				String.valueOf(failure.getMessage()));
		return new StoredResponse(500, Map.of("Content-Type", JSON, OUTCOME_HEADER, List.of("threw")),
				this.mapper.writeValueAsBytes(body));
	}

	/**
	 * Replay a stored outcome: return the stored value as the type it was stored as, or throw the
	 * stored failure.
	 * @param stored the stored response
	 * @param method the method
	 * @return the stored return value
	 * @throws IdempotentOperationFailedException if the first call threw a final exception
	 */
	Object replay(StoredResponse stored, Method method) {
		List<String> outcome = stored.headers().get(OUTCOME_HEADER);
		if (outcome != null && outcome.contains("threw")) {
			Map<?, ?> failure = this.mapper.readValue(stored.body(), Map.class);
			throw new IdempotentOperationFailedException(String.valueOf(failure.get("type")),
					String.valueOf(failure.get("message")));
		}
		if (method.getReturnType() == void.class || stored.body().length == 0) {
			return null;
		}
		return this.mapper.readValue(stored.body(), storedType(stored, method));
	}

	private JavaType storedType(StoredResponse stored, Method method) {
		List<String> type = stored.headers().get(TYPE_HEADER);
		if (type == null || type.isEmpty()) {
			return declaredType(method);
		}
		JavaType runtime = this.mapper.getTypeFactory().constructFromCanonical(type.get(0));
		if (!method.getReturnType().isAssignableFrom(runtime.getRawClass())) {
			throw new IllegalStateException("The stored result of " + method.getName() + " is a " + type.get(0)
					+ ", which the method does not return");
		}
		return runtime;
	}

	private JavaType declaredType(Method method) {
		return this.mapper.getTypeFactory().constructType(method.getGenericReturnType());
	}

	/**
	 * Return whether the JSON of a value reads back as the given type into a value of the same
	 * kind that writes the same JSON, member order aside.
	 */
	private boolean readsBackAs(byte[] body, JavaType type, Object value) {
		try {
			Object readBack = this.mapper.readValue(body, type);
			if (readBack == null || !sameKind(readBack, value)) {
				return false;
			}
			return Arrays.equals(CanonicalJson.canonicalize(this.mapper.writeValueAsBytes(readBack)),
					CanonicalJson.canonicalize(body));
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return false;
		}
	}

	private static boolean sameKind(Object readBack, Object value) {
		return readBack.getClass() == value.getClass()
				|| (readBack instanceof Collection<?> && value instanceof Collection<?>)
				|| (readBack instanceof Map<?, ?> && value instanceof Map<?, ?>)
				|| (readBack instanceof Number && value instanceof Number);
	}

}
