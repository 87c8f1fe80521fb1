package io.github.idempotency.adoption.clinic;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.springframework.context.event.EventListener;

/**
 * Lets a test hold or fail the service's transaction that adds an owner with a given last name,
 * at the point where the owner is saved and {@link OwnerAdded} is published.
 */
class OwnerGate {

	private final Map<String, Consumer<OwnerAdded>> actions = new ConcurrentHashMap<>();

	@EventListener
	void onOwnerAdded(OwnerAdded event) {
		Consumer<OwnerAdded> action = this.actions.get(event.lastName());
		if (action != null) {
			action.accept(event);
		}
	}

	/**
	 * Hold every request that adds an owner with this last name until the hold is released.
	 * @param lastName the last name
	 * @return the hold
	 */
	Hold hold(String lastName) {
		Hold hold = new Hold();
		this.actions.put(lastName, (event) -> hold.enterAndWait());
		return hold;
	}

	/**
	 * Fail the next request that adds an owner with this last name, after its insert.
	 * @param lastName the last name
	 * @param failure what the service throws
	 */
	void failOnce(String lastName, RuntimeException failure) {
		this.actions.put(lastName, (event) -> {
			if (this.actions.remove(lastName) != null) {
				throw failure;
			}
		});
	}

	/**
	 * Requests held inside the service's transaction until released.
	 */
	static final class Hold {

		private final CountDownLatch entered = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		void awaitEntered() throws InterruptedException {
			if (!this.entered.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("No request reached the service within 30 s");
			}
		}

		void release() {
			this.released.countDown();
		}

		private void enterAndWait() {
			this.entered.countDown();
			try {
				if (!this.released.await(60, TimeUnit.SECONDS)) {
					throw new IllegalStateException("The test never released the request");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

}
