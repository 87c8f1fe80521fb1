package io.github.idempotency.internal.web;

import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.async.CallableProcessingInterceptor;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.context.request.async.WebAsyncUtils;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.internal.engine.Execution;

/**
 * What the web path needs to know of handler return types: which answer asynchronously, what to
 * return for a handler that is replayed instead of run, and how the idempotency context reaches
 * a {@code Callable}'s thread.
 */
final class AsyncReturnTypes {

	private static final String CONTEXT_INTERCEPTOR = AsyncReturnTypes.class.getName() + ".context";

	private AsyncReturnTypes() {
	}

	static boolean isAsync(Method method) {
		Class<?> type = method.getReturnType();
		return Callable.class.isAssignableFrom(type) || WebAsyncTask.class.isAssignableFrom(type)
				|| DeferredResult.class.isAssignableFrom(type) || CompletionStage.class.isAssignableFrom(type)
				|| ResponseBodyEmitter.class.isAssignableFrom(type)
				|| StreamingResponseBody.class.isAssignableFrom(type);
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
	 * Open the execution's context on the thread that runs a {@code Callable} or
	 * {@code WebAsyncTask} the handler returned.
	 */
	static void propagateContext(HttpServletRequest request, Execution execution, Object result) {
		if (!(result instanceof Callable<?>) && !(result instanceof WebAsyncTask<?>)) {
			return;
		}
		ThreadLocal<IdempotencyContext.Scope> scope = new ThreadLocal<>();
		WebAsyncUtils.getAsyncManager(request)
			.registerCallableInterceptor(CONTEXT_INTERCEPTOR, new CallableProcessingInterceptor() {

				@Override
				public <T> void preProcess(NativeWebRequest webRequest, Callable<T> task) {
					scope.set(IdempotencyContext.open(execution.context()));
				}

				@Override
				public <T> void postProcess(NativeWebRequest webRequest, Callable<T> task, Object value) {
					IdempotencyContext.Scope opened = scope.get();
					if (opened != null) {
						opened.close();
						scope.remove();
					}
				}

			});
	}

}
