package io.github.idempotency.web.reactive;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.test.ForwardingIdempotencyStore;

/**
 * A real store whose claims of keys starting with {@code held-} wait until a test lets them go,
 * so that a test can act while a claim is on its way to the store.
 */
class HeldClaimStore extends ForwardingIdempotencyStore {

	private final Semaphore arrived = new Semaphore(0);

	private volatile CountDownLatch release = new CountDownLatch(1);

	HeldClaimStore(IdempotencyStore delegate) {
		super(delegate);
	}

	/**
	 * Hold the next claims of held keys until {@link #letGo()}.
	 */
	void hold() {
		this.release = new CountDownLatch(1);
	}

	void letGo() {
		this.release.countDown();
	}

	/**
	 * Wait until a claim of a held key arrives at the store.
	 * @return whether one arrived within 30 seconds
	 */
	boolean awaitHeldClaim() throws InterruptedException {
		return this.arrived.tryAcquire(30, TimeUnit.SECONDS);
	}

	@Override
	public ClaimResult claim(ClaimRequest request) {
		if (request.key().key().startsWith("held-")) {
			this.arrived.release();
			try {
				if (!this.release.await(60, TimeUnit.SECONDS)) {
					throw new IllegalStateException("The test never let the claim go");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
		return this.delegate.claim(request);
	}

}
