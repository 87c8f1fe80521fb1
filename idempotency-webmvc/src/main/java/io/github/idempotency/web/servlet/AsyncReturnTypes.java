package io.github.idempotency.web.servlet;

import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * What the web path needs to know of handler return types: which answer asynchronously, and what
 * to return for a handler that is replayed instead of run.
 */
final class AsyncReturnTypes {

	private static final boolean REACTIVE_STREAMS_PRESENT = ClassUtils.isPresent("org.reactivestreams.Publisher",
			AsyncReturnTypes.class.getClassLoader());

	private static final boolean REACTOR_PRESENT = REACTIVE_STREAMS_PRESENT
			&& ClassUtils.isPresent("reactor.core.publisher.Mono", AsyncReturnTypes.class.getClassLoader());

	private AsyncReturnTypes() {
	}

	static boolean isAsync(Method method) {
		return isAsync(method.getReturnType());
	}

	private static boolean isAsync(Class<?> type) {
		return Callable.class.isAssignableFrom(type) || WebAsyncTask.class.isAssignableFrom(type)
				|| DeferredResult.class.isAssignableFrom(type) || CompletionStage.class.isAssignableFrom(type)
				|| ResponseBodyEmitter.class.isAssignableFrom(type)
				|| StreamingResponseBody.class.isAssignableFrom(type) || isReactive(type);
	}

	/**
	 * Return whether a type is one of the reactive types (a {@code Mono}, a {@code Flux}, ...)
	 * that Spring MVC subscribes to and answers from asynchronously.
	 */
	static boolean isReactive(Class<?> type) {
		return REACTIVE_STREAMS_PRESENT && ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null;
	}

	/**
	 * Return the adapter of a handler's result if it is of a single-value reactive type that
	 * {@link SingleValueReactiveWork} can follow, which needs Reactor.
	 * @return the adapter, or {@code null} if the result cannot be followed
	 */
	static @Nullable ReactiveAdapter followableReactiveAdapter(Object result) {
		if (!REACTOR_PRESENT) {
			return null;
		}
		ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(result.getClass());
		return (adapter != null && !adapter.isMultiValue()) ? adapter : null;
	}

	/**
	 * Return what a replayed handler call returns: nothing, which Spring MVC answers without a
	 * body and without going asynchronous; the stored response replaces it.
	 */
	static Object noValue(Method method) {
		Class<?> type = method.getReturnType();
		if (!type.isPrimitive() || type == void.class) {
			return null;
		}
		if (type == boolean.class) {
			return false;
		}
		if (type == char.class) {
			return '\0';
		}
		return (type == double.class || type == float.class) ? (Object) 0.0d : (Object) 0;
	}

	/**
	 * Return whether a value a handler returned is answered asynchronously.
	 */
	static boolean isAsyncValue(@Nullable Object value) {
		if (value instanceof ResponseEntity<?> entity) {
			return isAsyncValue(entity.getBody());
		}
		return value != null && isAsync(value.getClass());
	}

}
