package io.github.idempotency.adoption.clinic;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.context.event.EventListener;

/**
 * Lets a test hold or fail the service's transaction that adds an owner or a pet of a given name,
 * at the point where it is saved and {@link OwnerAdded} or {@link PetAdded} is published.
 */
class ServiceGate {

	private final Map<String, Runnable> actions = new ConcurrentHashMap<>();

	@EventListener
	void onOwnerAdded(OwnerAdded event) {
		act(event.lastName());
	}

	@EventListener
	void onPetAdded(PetAdded event) {
		act(event.name());
	}

	private void act(String name) {
		Runnable action = this.actions.get(name);
		if (action != null) {
			action.run();
		}
	}

	/**
	 * Hold every request that adds an owner with this last name, or a pet with this name, until
	 * the hold is released.
	 * @param name the owner's last name or the pet's name
	 * @return the hold
	 */
	Hold hold(String name) {
		Hold hold = new Hold();
		this.actions.put(name, hold::enterAndWait);
		return hold;
	}

	/**
	 * Fail the next request that adds an owner with this last name, or a pet with this name,
	 * after its insert.
	 * @param name the owner's last name or the pet's name
	 * @param failure what the service throws
	 */
	void failOnce(String name, RuntimeException failure) {
		this.actions.put(name, () -> {
			if (this.actions.remove(name) != null) {
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
