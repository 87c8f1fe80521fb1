package io.github.idempotency.web.servlet;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.web.method.HandlerMethod;

import io.github.idempotency.web.StoredHeaderPolicy;
import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKeys;
import io.github.idempotency.engine.IdempotentAttributeSource;
import io.github.idempotency.engine.IdempotentAttributes;

/**
 * Documents the idempotency contract of every {@code @Idempotent} handler in the OpenAPI
 * description: the key header, the problems the starter answers with, and the replay headers.
 */
class IdempotencyOperationCustomizer implements OperationCustomizer {

	private final IdempotentAttributeSource attributeSource;

	private final String keyHeader;

	private final Predicate<HandlerMethod> accepts;

	/**
	 * Create a customizer.
	 * @param attributeSource the {@code @Idempotent} attributes of handler methods
	 * @param keyHeader the key header
	 * @param accepts whether a handler's operation sets accept-after, so that it may answer
	 * {@code 202 Accepted}
	 */
	public IdempotencyOperationCustomizer(IdempotentAttributeSource attributeSource, String keyHeader,
			Predicate<HandlerMethod> accepts) {
		this.attributeSource = attributeSource;
		this.keyHeader = keyHeader;
		this.accepts = accepts;
	}

	@Override
	public Operation customize(Operation operation, HandlerMethod handlerMethod) {
		IdempotentAttributes attributes = this.attributeSource.find(handlerMethod.getMethod(),
				handlerMethod.getBeanType());
		if (attributes == null) {
			return operation;
		}
		if (attributes.keyExpression() == null) {
			documentKeyParameter(operation, attributes.required());
		}
		ApiResponses responses = (operation.getResponses() != null) ? operation.getResponses() : new ApiResponses();
		responses.forEach((status, response) -> {
			if (status.startsWith("2")) {
				response.addHeaderObject(StoredHeaderPolicy.REPLAYED_HEADER, new Header()
					.description("true when this is the stored response of an earlier request with the same key")
					.schema(new BooleanSchema()));
			}
		});
		if (attributes.keyExpression() == null) {
			addProblem(responses, "400", "The idempotency key is missing or malformed",
					"missing-key", "invalid-key");
		}
		addProblem(responses, "409", "A request with this key is still in progress; retry after Retry-After seconds",
				"in-progress", "lease-lost");
		responses.get("409")
			.addHeaderObject("Retry-After",
					new Header().description("Seconds to wait before retrying").schema(new IntegerSchema()));
		addProblem(responses, "413", "The request body is larger than the idempotency limit",
				"body-too-large");
		addProblem(responses, "422", "The key was already used for a different request",
				"key-reused");
		if (!responses.containsKey("202") && this.accepts.test(handlerMethod)) {
			responses.addApiResponse("202", accepted());
		}
		operation.setResponses(responses);
		return operation;
	}

	private static ApiResponse accepted() {
		ObjectSchema state = new ObjectSchema();
		state.setProperties(Map.of("status", new StringSchema()._enum(List.of("running")), "operation",
				new StringSchema(), "href", new StringSchema()));
		return new ApiResponse()
			.description("The work goes on after its accept-after; poll Location until it answers the stored response")
			.addHeaderObject("Location",
					new Header().description("The status resource of this request").schema(new StringSchema()))
			.addHeaderObject("Retry-After",
					new Header().description("Seconds to wait before polling").schema(new IntegerSchema()))
			.content(new Content().addMediaType("application/json", new MediaType().schema(state)));
	}

	/**
	 * Describe the key header, replacing a parameter the handler itself declares for it, since an
	 * operation may not have two parameters of one name.
	 */
	private void documentKeyParameter(Operation operation, boolean required) {
		if (operation.getParameters() != null) {
			operation.getParameters()
				.removeIf((parameter) -> "header".equals(parameter.getIn())
						&& this.keyHeader.equalsIgnoreCase(parameter.getName()));
		}
		operation.addParametersItem(keyParameter(required));
	}

	private HeaderParameter keyParameter(boolean required) {
		HeaderParameter parameter = new HeaderParameter();
		parameter.setName(this.keyHeader);
		parameter.setRequired(required);
		parameter.setDescription("Unique key of this logical operation, such as a UUIDv7; send the same key on "
				+ "every retry to get the same response without repeating the effect");
		parameter.setSchema(new StringSchema().minLength(1).maxLength(IdempotencyKeys.MAX_LENGTH));
		return parameter;
	}

	private static void addProblem(ApiResponses responses, String status, String description,
			String... types) {
		if (responses.containsKey(status)) {
			return;
		}
		ObjectSchema problem = new ObjectSchema();
		StringSchema type = new StringSchema();
		for (String candidate : types) {
			type.addEnumItem(IdempotencyException.TYPE_PREFIX + candidate);
		}
		problem.setProperties(Map.of("type", type, "title", new StringSchema(), "status", new IntegerSchema(),
				"detail", new StringSchema(), "instance", new StringSchema()));
		responses.addApiResponse(status, new ApiResponse().description(description)
			.content(new Content().addMediaType(HttpProblems.PROBLEM_JSON, new MediaType().schema(problem))));
	}

}
