package io.github.idempotency.web.reactive;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The threads on which the store is called for reactive requests, off the event loop: a bounded
 * number, and a bounded number of new requests waiting for them, beyond which a new request is
 * refused at once. A store call, once started, is neither interrupted nor abandoned when its
 * request is cancelled (a claim half made would be lost), and the settlement of a claimed request
 * is never refused: its work has run.
 */
final class StoreScheduler implements AutoCloseable {

	private final Scheduler scheduler;

	private final int maxPending;

	private final AtomicInteger pending = new AtomicInteger();

	StoreScheduler(int threads, int maxPending) {
		this.scheduler = Schedulers.newBoundedElastic(threads, Integer.MAX_VALUE, "idempotency-store", 60, true);
		this.maxPending = maxPending;
	}

	/**
	 * Call the store for a new request, unless too many are waiting already.
	 * @param <T> what the call returns
	 * @param call the call
	 * @return its result, or a {@link RejectedExecutionException} when too many requests wait
	 */
	<T> Mono<T> claim(Callable<T> call) {
		return Mono.defer(() -> {
			if (this.pending.incrementAndGet() > this.maxPending) {
				this.pending.decrementAndGet();
				return Mono.error(new RejectedExecutionException(
						"More than " + this.maxPending + " idempotent requests are waiting for the idempotency store"));
			}
			return run(call);
		});
	}

	/**
	 * Call a non-blocking store for a new request, on the calling thread, unless too many new
	 * requests are waiting for it already.
	 * @param <T> what the call returns
	 * @param call the call
	 * @return its result, or a {@link RejectedExecutionException} when too many requests wait
	 */
	<T> Mono<T> claimWithoutThread(Supplier<CompletionStage<T>> call) {
		return Mono.defer(() -> {
			if (this.pending.incrementAndGet() > this.maxPending) {
				this.pending.decrementAndGet();
				return Mono.error(new RejectedExecutionException(
						"More than " + this.maxPending + " idempotent requests are waiting for the idempotency store"));
			}
			CompletableFuture<T> result;
			try {
				result = call.get().toCompletableFuture();
			}
			catch (RuntimeException ex) {
				result = CompletableFuture.failedFuture(ex);
			}
			result.whenComplete((value, failure) -> this.pending.decrementAndGet());
			return Mono.fromFuture(result, true);
		});
	}

	/**
	 * Await a non-blocking store's settlement of a request that was claimed; like any settlement,
	 * neither refused nor abandoned by a cancellation.
	 * @param <T> what the call returns
	 * @param call the call
	 * @return its result
	 */
	static <T> Mono<T> settleWithoutThread(Supplier<CompletionStage<T>> call) {
		return Mono.defer(() -> {
			CompletableFuture<T> result;
			try {
				result = call.get().toCompletableFuture();
			}
			catch (RuntimeException ex) {
				result = CompletableFuture.failedFuture(ex);
			}
			return Mono.fromFuture(result, true);
		});
	}

	/**
	 * Call the store to settle a request that was claimed.
	 * @param <T> what the call returns
	 * @param call the call
	 * @return its result
	 */
	<T> Mono<T> settle(Callable<T> call) {
		return Mono.defer(() -> {
			this.pending.incrementAndGet();
			return run(call);
		});
	}

	private <T> Mono<T> run(Callable<T> call) {
		CompletableFuture<T> result = new CompletableFuture<>();
		try {
			this.scheduler.schedule(() -> {
				try {
					result.complete(call.call());
				}
				catch (Throwable ex) {
					result.completeExceptionally(ex);
				}
				finally {
					this.pending.decrementAndGet();
				}
			});
		}
		catch (RejectedExecutionException ex) {
			this.pending.decrementAndGet();
			return Mono.error(ex);
		}
		return Mono.fromFuture(result, true);
	}

	@Override
	public void close() {
		this.scheduler.dispose();
	}

}
