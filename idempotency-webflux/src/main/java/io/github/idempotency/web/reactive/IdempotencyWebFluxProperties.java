package io.github.idempotency.web.reactive;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of idempotent Spring WebFlux requests: the threads that call the
 * store off the event loop, and how many new requests may wait for them.
 */
@ConfigurationProperties("idempotency.webflux")
public class IdempotencyWebFluxProperties {

	/**
	 * Threads that call the idempotency store for reactive requests, off the event loop. Size it
	 * like the store's connection pool: more threads than connections only wait for one.
	 */
	private int storeThreads = 16;

	/**
	 * New requests that may wait for a store thread; beyond it a new request is refused at once
	 * with 503 and Retry-After, nothing claimed.
	 */
	private int maxPending = 1000;

	public int getStoreThreads() {
		return this.storeThreads;
	}

	public void setStoreThreads(int storeThreads) {
		this.storeThreads = storeThreads;
	}

	public int getMaxPending() {
		return this.maxPending;
	}

	public void setMaxPending(int maxPending) {
		this.maxPending = maxPending;
	}

}
