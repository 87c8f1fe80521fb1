package io.github.idempotency.aop;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.core.IdempotentOperationFailedException;
import io.github.idempotency.store.StoredResponse;

/**
 * Turns what an {@code @Idempotent} bean method returned, or a final exception it threw, into a
 * stored response and back, as JSON.
 */
public class ReturnValueCodec {

	static final String OUTCOME_HEADER = "X-Idempotency-Outcome";

	private static final Map<String, List<String>> RETURNED = Map.of("Content-Type", List.of("application/json"),
			OUTCOME_HEADER, List.of("returned"));

	private static final Map<String, List<String>> THREW = Map.of("Content-Type", List.of("application/json"),
			OUTCOME_HEADER, List.of("threw"));

	private final JsonMapper mapper;

	public ReturnValueCodec(JsonMapper mapper) {
		this.mapper = mapper;
	}

	/**
	 * Return the arguments of a call as JSON, for the fingerprint; an argument that cannot be
	 * written as JSON, such as a broker channel, counts by its type only.
	 * @param arguments the arguments
	 * @return a JSON array
	 */
	byte[] arguments(Object[] arguments) {
		StringBuilder json = new StringBuilder("[");
		for (int i = 0; i < arguments.length; i++) {
			if (i > 0) {
				json.append(',');
			}
			json.append(argument(arguments[i]));
		}
		return json.append(']').toString().getBytes(StandardCharsets.UTF_8);
	}

	private String argument(Object argument) {
		try {
			return this.mapper.writeValueAsString(argument);
		}
		catch (RuntimeException ex) {
			return this.mapper.writeValueAsString("<" + argument.getClass().getName() + ">");
		}
	}

	StoredResponse returned(Object value) {
		return new StoredResponse(200, RETURNED, this.mapper.writeValueAsBytes(value));
	}

	StoredResponse threw(Throwable failure) {
		Map<String, String> body = Map.of("type", failure.getClass().getName(), "message",
				String.valueOf(failure.getMessage()));
		return new StoredResponse(500, THREW, this.mapper.writeValueAsBytes(body));
	}

	/**
	 * Replay a stored outcome: return the stored value as the method's return type, or throw the
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
		JavaType type = this.mapper.getTypeFactory().constructType(method.getGenericReturnType());
		return this.mapper.readValue(stored.body(), type);
	}

}
