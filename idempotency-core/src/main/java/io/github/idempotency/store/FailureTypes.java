package io.github.idempotency.store;

import org.jspecify.annotations.Nullable;

/**
 * Names what an attempt failed with, as stores keep it: the exception's class name or the
 * transient status, never a message or a body, which may hold personal data.
 */
public final class FailureTypes {

	/**
	 * The longest failure a store keeps; longer ones are cut.
	 */
	public static final int MAX_LENGTH = 255;

	/**
	 * The failure of a LEASED execution whose caller's transaction rolled back.
	 */
	public static final String CALLER_ROLLED_BACK = "caller transaction rolled back";

	private FailureTypes() {
	}

	/**
	 * Name a failure by its exception.
	 * @param failure the exception
	 * @return its class name
	 */
	public static String of(Throwable failure) {
		return bounded(failure.getClass().getName());
	}

	/**
	 * Name a failure by the transient status it was answered with.
	 * @param status the HTTP status
	 * @return such as {@code status 503}
	 */
	public static String ofStatus(int status) {
		return "status " + status;
	}

	/**
	 * Name a failure by its exception if there is one, else by its status.
	 * @param status the HTTP status
	 * @param failure the exception, or {@code null}
	 * @return the name
	 */
	public static String of(int status, @Nullable Throwable failure) {
		return (failure != null) ? of(failure) : ofStatus(status);
	}

	/**
	 * Cut a failure to what a store keeps.
	 * @param failure the failure, or {@code null}
	 * @return at most {@link #MAX_LENGTH} characters, or {@code null}
	 */
	public static @Nullable String bounded(@Nullable String failure) {
		return (failure != null && failure.length() > MAX_LENGTH) ? failure.substring(0, MAX_LENGTH) : failure;
	}

}
