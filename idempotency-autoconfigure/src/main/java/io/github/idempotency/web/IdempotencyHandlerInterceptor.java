package io.github.idempotency.web;

import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.core.RequestBodyTooLargeException;

/**
 * Prepares requests mapped to an {@code @Idempotent} handler method: buffers the body, up to
 * the configured size, so that it can be fingerprinted, and refuses a larger one with 413 before
 * anything is stored.
 */
public class IdempotencyHandlerInterceptor implements HandlerInterceptor {

	private final IdempotentAttributeSource attributeSource;

	private final long maxBodySize;

	public IdempotencyHandlerInterceptor(IdempotentAttributeSource attributeSource, long maxBodySize) {
		this.attributeSource = attributeSource;
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
