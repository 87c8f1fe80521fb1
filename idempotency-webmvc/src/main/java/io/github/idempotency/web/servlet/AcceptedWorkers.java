package io.github.idempotency.web.servlet;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.micrometer.context.ContextSnapshotFactory;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.http.HttpStatus;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.util.ClassUtils;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.web.IdempotencyWebProperties;

/**
 * The bounded threads on which the handlers of accepted requests run, after their request may have
 * been answered {@code 202 Accepted}; a full queue refuses a new request with {@code 503}.
 */
final class AcceptedWorkers implements DisposableBean {

	private final ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();

	AcceptedWorkers(IdempotencyWebProperties.Accepted settings) {
		this.executor.setCorePoolSize(settings.getThreads());
		this.executor.setMaxPoolSize(settings.getThreads());
		this.executor.setQueueCapacity(settings.getQueueCapacity());
		this.executor.setThreadNamePrefix("idempotency-accepted-");
		// A work cut short by a shutdown leaves its key to its lease; a retry takes it over.
		this.executor.setWaitForTasksToCompleteOnShutdown(true);
		this.executor.setAwaitTerminationSeconds(30);
		this.executor.initialize();
	}

	/**
	 * Run a handler's call on a worker, with its call's context, its logging context, a copy of
	 * its request and, with Micrometer's context propagation, the request thread's registered
	 * thread-locals (Spring Security's context, the observation) current there.
	 * @param invocation the handler's call, past the starter's advice
	 * @param context the claimed call's context
	 * @param request a copy of the request
	 * @return what the handler returns or throws, when it does
	 * @throws ErrorResponseException {@code 503} if too many accepted requests wait for a worker
	 */
	CompletableFuture<@Nullable Object> run(MethodInvocation invocation, IdempotencyContext context,
			DetachedRequest request) {
		CompletableFuture<@Nullable Object> result = new CompletableFuture<>();
		Map<String, String> diagnostics = IdempotentInvocation.diagnosticContext();
		try {
			this.executor.execute(ThreadLocals.carried(() -> {
				ServletRequestAttributes attributes = new ServletRequestAttributes(request);
				RequestContextHolder.setRequestAttributes(attributes);
				LocaleContextHolder.setLocale(request.getLocale());
				diagnostics.forEach(MDC::put);
				try (IdempotencyContext.Scope scope = IdempotencyContext.open(context)) {
					result.complete(invocation.proceed());
				}
				catch (Throwable ex) {
					result.completeExceptionally(ex);
				}
				finally {
					IdempotentInvocation.clearDiagnosticContext();
					attributes.requestCompleted();
					LocaleContextHolder.resetLocaleContext();
					RequestContextHolder.resetRequestAttributes();
				}
			}));
		}
		catch (TaskRejectedException ex) {
			ErrorResponseException busy = new ErrorResponseException(HttpStatus.SERVICE_UNAVAILABLE, ex);
			busy.setDetail("Too many accepted requests are waiting for their work to start; try again later.");
			busy.getHeaders().set("Retry-After", "1");
			throw busy;
		}
		return result;
	}

	@Override
	public void destroy() {
		this.executor.shutdown();
	}

	/**
	 * Carries the thread-locals registered with Micrometer's context propagation (Spring
	 * Security's context, the current observation) from the request's thread to the worker's.
	 */
	private static final class ThreadLocals {

		private static final boolean PRESENT = ClassUtils.isPresent("io.micrometer.context.ContextSnapshotFactory",
				AcceptedWorkers.class.getClassLoader());

		static Runnable carried(Runnable task) {
			return PRESENT ? Snapshots.wrap(task) : task;
		}

	}

	private static final class Snapshots {

		private static final ContextSnapshotFactory FACTORY = ContextSnapshotFactory.builder().build();

		static Runnable wrap(Runnable task) {
			return FACTORY.captureAll().wrap(task);
		}

	}

}
