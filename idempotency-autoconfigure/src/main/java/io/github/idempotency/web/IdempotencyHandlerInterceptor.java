package io.github.idempotency.web;

import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.core.RequestBodyTooLargeException;

/**
 * Prepares requests mapped to an {@code @Idempotent} handler method, buffering the body up to the
 * configured size for the fingerprint (413 above it, before anything is stored), and finishes
 * their execution once the response is written.
 */
public class IdempotencyHandlerInterceptor implements HandlerInterceptor {

	private final IdempotentAttributeSource attributeSource;

	private final WebExecutionFinisher finisher;

	private final long maxBodySize;

	public IdempotencyHandlerInterceptor(IdempotentAttributeSource attributeSource, WebExecutionFinisher finisher,
			long maxBodySize) {
		this.attributeSource = attributeSource;
		this.finisher = finisher;
		this.maxBodySize = maxBodySize;
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
			throws Exception {
		if (!(handler instanceof HandlerMethod handlerMethod)
				|| this.attributeSource.find(handlerMethod.getMethod(), handlerMethod.getBeanType()) == null) {
			return true;
		}
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (exchange == null) {
			return true;
		}
		exchange.bind(handlerMethod.getMethod());
		if (!hasParameterBody(request)) {
			try {
				exchange.request().buffer(this.maxBodySize);
			}
			catch (RequestBodyTooLargeException ex) {
				IdempotencyResponses.writeProblem(request, response, ex);
				return false;
			}
		}
		return true;
	}

	/**
	 * Finishes the execution while the handler's resources, such as an open-in-view entity
	 * manager, are still bound: this interceptor is ordered last, so it completes first.
	 */
	@Override
	public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
			Exception ex) throws Exception {
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (exchange != null) {
			this.finisher.finish(exchange, request, ex);
		}
	}

	/**
	 * Form and multipart bodies are parsed into parameters by the container, which must read them
	 * itself; they are fingerprinted from the parameters.
	 */
	static boolean hasParameterBody(HttpServletRequest request) {
		String contentType = request.getContentType();
		if (contentType == null) {
			return false;
		}
		String type = contentType.toLowerCase(Locale.ROOT);
		return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/");
	}

}
