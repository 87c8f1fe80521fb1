package io.github.idempotency.web;

import java.lang.reflect.Method;
import java.util.Arrays;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import io.github.idempotency.core.Execution;
import io.github.idempotency.core.IdempotencyException;

/**
 * The state one HTTP request carries from the filter, through the handler interceptor and the
 * method advice, back to the filter that stores or releases its result.
 */
final class WebIdempotencyExchange {

	static final String ATTRIBUTE = WebIdempotencyExchange.class.getName();

	private final BufferedBodyRequest request;

	private final CapturingResponse response;

	private Method handlerMethod;

	private boolean invoked;

	private Execution execution;

	private boolean finished;

	private Throwable failure;

	private IdempotencyException replacement;

	WebIdempotencyExchange(BufferedBodyRequest request, CapturingResponse response) {
		this.request = request;
		this.response = response;
	}

	/**
	 * Return the exchange of the current request.
	 * @return the exchange, or {@code null} outside a request the filter saw
	 */
	static WebIdempotencyExchange current() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		return (attributes != null)
				? (WebIdempotencyExchange) attributes.getAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST) : null;
	}

	BufferedBodyRequest request() {
		return this.request;
	}

	CapturingResponse response() {
		return this.response;
	}

	void bind(Method handlerMethod) {
		this.handlerMethod = handlerMethod;
	}

	/**
	 * Return whether a call is the first call of the handler method this request was mapped to.
	 * @param method the called method
	 * @return whether the call is this request's handler call
	 */
	boolean isHandlerCall(Method method) {
		return !this.invoked && this.handlerMethod != null && this.handlerMethod.getName().equals(method.getName())
				&& Arrays.equals(this.handlerMethod.getParameterTypes(), method.getParameterTypes());
	}

	void markInvoked() {
		this.invoked = true;
	}

	void start(Execution execution) {
		this.execution = execution;
		this.response.startCapture();
	}

	Execution execution() {
		return this.execution;
	}

	/**
	 * Return the running execution and mark it finished, so that it is finished only once.
	 * @return the execution, or {@code null} if there is none or it was already taken
	 */
	Execution takeExecutionToFinish() {
		if (this.execution == null || this.finished) {
			return null;
		}
		this.finished = true;
		return this.execution;
	}

	void replaceResponse(IdempotencyException replacement) {
		this.replacement = replacement;
	}

	IdempotencyException replacement() {
		return this.replacement;
	}

	void recordFailure(Throwable failure) {
		this.failure = failure;
	}

	Throwable failure() {
		return this.failure;
	}

}
