package io.github.idempotency.metrics;

import java.util.Set;

/**
 * Names of operations the application declares, found at start-up so that their meters exist
 * before the first request.
 */
@FunctionalInterface
public interface IdempotentOperationNames {

	/**
	 * Return the operation names, derived exactly as they are at run time.
	 * @return the names
	 */
	Set<String> operationNames();

}
