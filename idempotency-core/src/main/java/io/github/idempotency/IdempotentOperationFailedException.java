package io.github.idempotency;

/**
 * Thrown on a duplicate call of an {@code @Idempotent} bean method whose first call failed with a
 * final exception: the failure is replayed, not the method.
 */
public class IdempotentOperationFailedException extends RuntimeException {

	private final String exceptionType;

	public IdempotentOperationFailedException(String exceptionType, String message) {
		super("The first call failed with " + exceptionType + ": " + message);
		this.exceptionType = exceptionType;
	}

	/**
	 * Return the class name of the exception the first call threw.
	 * @return the exception type
	 */
	public String getExceptionType() {
		return this.exceptionType;
	}

}
